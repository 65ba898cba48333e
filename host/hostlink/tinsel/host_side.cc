// HostLink's calls over what the machine sent the host, the same behind both HostLinks
// (host_side.h): built into the emulator's and native mode's.
#define TESSERA_HOSTLINK_LIBRARY
#include "host_side.h"

#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "HostLink.h"

namespace tessera::tinsel_hostlink {

void HostSide::configure(const HostLinkParams& params, const char* built_properties) {
  properties = built_properties;
  // Extra properties that change how the machine runs, not its shape (timing: cpi=4, say).
  if (const char* extra = getenv("TESSERA_HOSTLINK_PROPERTIES"); extra && *extra) {
    for (const char* key :
         {"boards-x", "boards-y", "tiles-x", "tiles-y", "cores-per-tile", "threads-per-core",
          "partition-kib", "hostlink", "console-ids", "preload"}) {
      if ((std::string(",") + extra).find(std::string(",") + key + "=") != std::string::npos) {
        fail(std::string("TESSERA_HOSTLINK_PROPERTIES sets ") + key +
             ", which the program's config.h or HostLink decides");
      }
    }
    properties += std::string(",") + extra;
  }
  shape = TesseraShape{property("boards-x", 1),       property("boards-y", 1),
                       property("tiles-x", 2),        property("tiles-y", 2),
                       property("cores-per-tile", 1), property("threads-per-core", 4)};
  if (params.numBoxesX != 1 || params.numBoxesY != 1) {
    fail(std::to_string(params.numBoxesX) + "x" + std::to_string(params.numBoxesY) +
         " boxes requested, but this program was built for one box of " +
         std::to_string(shape.boards_x) + "x" + std::to_string(shape.boards_y) +
         " boards (config.h); build it for the whole mesh instead (docs/tinsel.md)");
  }
  partition_bytes = property("partition-kib", TESSERA_DEFAULT_partition_kib) << 10;
}

std::string HostSide::property(const std::string& key, const std::string& fallback) const {
  const std::string wanted = key + "=";
  std::string value = fallback;
  size_t at = 0;
  while (at < properties.size()) {
    const size_t end = std::min(properties.find(',', at), properties.size());
    const std::string item = properties.substr(at, end - at);
    if (item.compare(0, wanted.size(), wanted) == 0) value = item.substr(wanted.size());
    at = end + 1;
  }
  return value;
}

uint32_t HostSide::property(const std::string& key, uint32_t fallback) const {
  const std::string value = property(key, std::string());
  if (value.empty()) return fallback;
  try {
    return static_cast<uint32_t>(std::stoul(value));
  } catch (const std::exception&) {
    fail("machine property " + key + "=" + value + ": not a number");
  }
}

void HostSide::check_heap_load(uint32_t thread_id, uint32_t num_bytes) const {
  if (booted) fail("tesseraLoadHeapSRAM() after boot(): memory is loaded when the machine starts");
  if (!tessera_thread_exists(&shape, thread_id)) {
    fail("tesseraLoadHeapSRAM(): thread 0x" + hex(thread_id) + " is not in this machine");
  }
  const uint32_t heap = partition_bytes / 4;
  if (num_bytes > heap) {
    fail("tesseraLoadHeapSRAM(): " + std::to_string(num_bytes) + " bytes for thread 0x" +
         hex(thread_id) + ", but its heap holds " + std::to_string(heap) +
         "; raise partition-kib in the shape");
  }
}

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
