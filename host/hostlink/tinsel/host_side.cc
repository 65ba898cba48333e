// HostLink's calls over what the machine sent the host, the same behind both HostLinks
// (host_side.h): built into the emulator's and native mode's.
#define TESSERA_HOSTLINK_LIBRARY
#include "host_side.h"

#include <string.h>

#include <algorithm>
#include <utility>

#include "HostLink.h"

namespace tessera::tinsel_hostlink {

std::string HostSide::tinsel_prefix(uint32_t id) const {
  uint32_t board_x, board_y, core, thread;
  from_addr(shape, id, &board_x, &board_y, &core, &thread);
  return std::to_string(board_x) + ":" + std::to_string(board_y) + ":" + std::to_string(core) +
         ":" + std::to_string(thread) + ": ";
}

void HostSide::take_message(uint32_t flits, const void* bytes) {
  Received message;
  message.flits = std::min<uint32_t>(flits, TESSERA_MAX_FLITS);  // the link and model check it
  memcpy(message.bytes, bytes, message.flits * kBytesPerFlit);
  messages.push_back(message);
  changed.notify_all();
}

void HostSide::take_line(std::string line) {
  buffered_bytes_ += line.size() + 1;
  lines.push_back(std::move(line));
  while (buffered_bytes_ > kMaxBufferedConsoleBytes) {
    buffered_bytes_ -= lines.front().size() + 1;
    lines.pop_front();
    dropped_lines_++;
  }
  changed.notify_all();
}

void HostSide::recv(void* msg) {
  if (!booted) fail("recv() before boot()");
  std::unique_lock lock(mutex);
  if (!wait_for(lock, [&] { return !messages.empty(); })) {
    lock.unlock();
    ended_while("recv() waited for a message");
  }
  const Received message = messages.front();
  messages.pop_front();
  uint8_t bytes[kBytesPerMsg] = {};
  memcpy(bytes, message.bytes, message.flits * kBytesPerFlit);
  memcpy(msg, bytes, kBytesPerMsg);
}

bool HostSide::can_recv() {
  std::lock_guard lock(mutex);
  return !messages.empty();
}

size_t HostSide::print_lines(FILE* out, size_t max) {
  std::deque<std::string> taken;
  uint64_t dropped;
  {
    std::lock_guard lock(mutex);
    if (lines.size() <= max) {
      taken.swap(lines);
    } else {
      taken.assign(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(max));
      lines.erase(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(max));
    }
    for (const std::string& line : taken) buffered_bytes_ -= line.size() + 1;
    dropped = dropped_lines_;
    dropped_lines_ = 0;
  }
  if (dropped != 0) {
    fprintf(stderr,
            "HostLink: %llu console lines were dropped: more than %zu MiB of them waited "
            "unread (read them with pollStdOut or dumpStdOut)\n",
            static_cast<unsigned long long>(dropped), kMaxBufferedConsoleBytes >> 20);
  }
  for (const std::string& line : taken) fprintf(out, "%s\n", line.c_str());
  if (!taken.empty()) fflush(out);
  return taken.size();
}

void HostSide::dump_std_out(FILE* out) {
  if (!booted) fail("dumpStdOut() before boot()");
  if (!running()) fail("dumpStdOut() before go(): the machine would never end");
  while (true) {
    print_lines(out, SIZE_MAX);
    std::unique_lock lock(mutex);
    if (!wait_for(lock, [&] { return !lines.empty(); })) {
      const bool has_ended = ended();
      lock.unlock();
      if (!has_ended) ended_while("dumpStdOut() waited for the machine to end");
      const int code = final_status();
      print_lines(out, SIZE_MAX);
      if (code != 0) fail("the machine ended with status " + std::to_string(code), code);
      return;
    }
  }
}

void HostSide::dump_std_out(FILE* out, uint32_t count) {
  if (!booted) fail("dumpStdOut() before boot()");
  uint32_t printed = 0;
  while (printed < count) {
    printed += static_cast<uint32_t>(print_lines(out, count - printed));
    if (printed >= count) break;
    std::unique_lock lock(mutex);
    if (!wait_for(lock, [&] { return !lines.empty(); })) {
      lock.unlock();
      printed += static_cast<uint32_t>(print_lines(out, count - printed));
      if (printed < count) {
        ended_while("dumpStdOut() waited for line " + std::to_string(printed + 1) + " of " +
                    std::to_string(count));
      }
    }
  }
}

}  // namespace tessera::tinsel_hostlink

using tessera::tinsel_hostlink::host_side_of;

void HostLink::recv(void* msg) {
  host_side_of(*machine_).recv(msg);
}

bool HostLink::canRecv() {
  return host_side_of(*machine_).can_recv();
}

bool HostLink::pollStdOut(FILE* outFile, uint32_t* lineCount) {
  const size_t printed = host_side_of(*machine_).print_lines(outFile, SIZE_MAX);
  if (lineCount != nullptr) *lineCount += static_cast<uint32_t>(printed);
  return printed != 0;
}

void HostLink::dumpStdOut(FILE* outFile) {
  host_side_of(*machine_).dump_std_out(outFile);
}

void HostLink::dumpStdOut(FILE* outFile, uint32_t lines) {
  host_side_of(*machine_).dump_std_out(outFile, lines);
}

uint32_t HostLink::toAddr(uint32_t meshX, uint32_t meshY, uint32_t coreId, uint32_t threadId) {
  return tessera::tinsel_hostlink::to_addr(host_side_of(*machine_).shape, meshX, meshY, coreId,
                                           threadId);
}

void HostLink::fromAddr(uint32_t addr, uint32_t* meshX, uint32_t* meshY, uint32_t* coreId,
                        uint32_t* threadId) {
  tessera::tinsel_hostlink::from_addr(host_side_of(*machine_).shape, addr, meshX, meshY, coreId,
                                      threadId);
}
