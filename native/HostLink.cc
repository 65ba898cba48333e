// Tinsel's HostLink in native mode (docs/native.md): the same interface as the emulator's
// (host/hostlink/tinsel/HostLink.cc), over a host machine (boards/hosted) in this process instead
// of a QEMU process. The device program is linked into the host program (its main renamed,
// tessera/native/device_program.h); boot() builds the machine of config.h's shape and loads the
// threads' heaps, go() starts every hart as a fiber (tessera/native/scheduler.h). Messages to and
// from the host go through the mailbox model's host port; console lines come from the console
// model, as "x:y:c:t: text".
#define TESSERA_HOSTLINK_LIBRARY
#include "HostLink.h"

#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "host_side.h"
#include "hostlink_internal.h"
#include "tessera/host/machine.h"
#include "tessera/hw/machine_params.h"
#include "tessera/hw/regs.h"
#include "tessera/native/device_program.h"
#include "tessera/native/scheduler.h"

using tessera::tinsel_hostlink::fail;
using tessera::tinsel_hostlink::hex;
using tessera::tinsel_hostlink::kBytesPerFlit;
using tessera::tinsel_hostlink::kBytesPerMsg;

namespace {

using tessera::native::DeviceMain;

// The mailbox model untimed unless TESSERA_NATIVE_TIMED is set to anything but 0
// (docs/native.md): timed, it keeps the network's timing as on the emulator, for comparison; the
// results are the same.
bool untimed_mailbox() {
  const char* timed = getenv("TESSERA_NATIVE_TIMED");
  return timed == nullptr || *timed == '\0' || strcmp(timed, "0") == 0;
}

struct Message {
  uint32_t dest;  // of a buffered send
  uint32_t flits;
  uint8_t bytes[kBytesPerMsg];
};

}  // namespace

struct HostLink::Machine final : tessera::tinsel_hostlink::HostSide {
  DeviceMain device_main = nullptr;
  std::vector<Message> send_buffer;
  struct Preload {
    uint32_t thread_id;
    std::string bytes;
  };
  std::vector<Preload> preload;

  // Declared before the machine, which refers to it: destroyed after it.
  std::optional<tessera::native::Scheduler> scheduler;
  std::optional<tessera::host::Machine> machine;

  ~Machine() override {
    if (machine && started) {
      machine->end_run(machine->exit_code().value_or(0));  // sleeping harts stop
      (void)scheduler->wait();
    }
  }

  bool ended() const override { return scheduler && started && scheduler->finished(); }
  // Every hart asleep, too: the host can always send, so that is no deadlock by itself until a
  // wait of the host's finds it so.
  bool over() const override { return ended() || (started && scheduler->stuck()); }

  // The run's status once every hart has finished, with a hart's failure reported.
  int final_status() override {
    if (const auto failure = scheduler->wait()) {
      fflush(stdout);
      fprintf(stderr, "HostLink: thread 0x%x stopped the machine: %s\n", failure->hart_id,
              failure->what.c_str());
    }
    return machine->exit_code().value_or(1);
  }

  [[noreturn]] void ended_while(const std::string& doing) override {
    if (!ended()) {
      fail("deadlock while " + doing +
           ": every thread is asleep in the mailbox and nothing the host does can wake one "
           "(native mode)");
    }
    const int code = final_status();
    fail("the machine ended (status " + std::to_string(code) + ") while " + doing,
         code == 0 ? EXIT_FAILURE : code);
  }
};

HostLink::HostLink(HostLinkParams params, TesseraHostLinkBuild build)
    : machine_(std::make_unique<Machine>()) {
  Machine& m = *machine_;
  m.configure(params, build.machine_properties);
  meshXLen = static_cast<int>(m.shape.boards_x);
  meshYLen = static_cast<int>(m.shape.boards_y);
}

HostLink::~HostLink() = default;

void HostLink::tesseraLoadHeapSRAM(uint32_t threadId, const void* data, uint32_t numBytes) {
  Machine& m = *machine_;
  m.check_heap_load(threadId, numBytes);
  m.preload.push_back({threadId, std::string(static_cast<const char*>(data), numBytes)});
}

void HostLink::boot(const char* codeFilename, const char* /*dataFilename*/) {
  Machine& m = *machine_;
  if (m.booted) fail("boot() called twice: one HostLink boots one machine");
  m.booted = true;
  std::string known;
  m.device_main = tessera::native::find_device_program(codeFilename ? codeFilename : "", &known);
  if (m.device_main == nullptr) {
    fail(std::string("cannot boot '") + (codeFilename ? codeFilename : "") +
         "': this native program has no device program of that name (it has " + known + ")");
  }
  tessera::host::MachineParams params;
  params.partition_size = m.partition_bytes;
  params.clock_mhz = m.property("clock-mhz", params.clock_mhz);
  params.cpi = m.property("cpi", params.cpi);
  params.tile_hop_cycles = m.property("tile-hop-cycles", params.tile_hop_cycles);
  params.board_hop_cycles = m.property("board-hop-cycles", params.board_hop_cycles);
  params.buffer_flits = m.property("buffer-flits", params.buffer_flits);
  params.idle_master = m.property("idle-master", std::string("origin")) == "centre"
                           ? TESSERA_TERMDET_MASTER_CENTRE
                           : TESSERA_TERMDET_MASTER_ORIGIN;
  // The host can always send, so every hart asleep is no deadlock by itself: recv() and
  // dumpStdOut() tell one apart (Scheduler::stuck).
  params.detect_deadlock = false;
  // Native modelled cycles are not the machine's anyway (docs/native.md, What differs): the
  // mailbox model keeps what happens and drops the timing that decides only when.
  params.untimed_mailbox = untimed_mailbox();
  // A worker per part of the boards, each with a mailbox model of its own (docs/native.md,
  // parts); timed, or on one board, the workers share one model.
  auto options = tessera::native::SchedulerOptions::from_environment();
  const uint32_t boards = m.shape.boards_x * m.shape.boards_y;
  if (params.untimed_mailbox && options.workers > 1 && boards > 1) {
    params.mailbox_parts = std::min<uint32_t>(options.workers, boards);
  } else if (getenv("TESSERA_NATIVE_WORKERS") == nullptr) {
    options.workers = 1;  // more workers at one model take turns at its lock
  }
  params.console_sink = [&m](const tessera::host::ConsoleLine& line) {
    std::lock_guard lock(m.mutex);
    m.take_line(m.tinsel_prefix(line.hart_id) + line.text);
  };
  params.host_sink = [&m](const tessera::host::HostMessage& message) {
    const uint32_t flits = std::min<uint32_t>(
        message.flits, static_cast<uint32_t>(message.bytes.size() / kBytesPerFlit));
    std::lock_guard lock(m.mutex);
    m.take_message(flits, message.bytes.data());
    return true;
  };
  m.scheduler.emplace(options);
  params.sleeper = &*m.scheduler;
  try {
    m.machine.emplace(m.shape, params);
    for (const auto& load : m.preload) {
      memcpy(m.machine->partition_pointer(load.thread_id, m.partition_bytes / 2), load.bytes.data(),
             load.bytes.size());
    }
  } catch (const std::exception& e) {
    fail(std::string("the machine did not start: ") + e.what());
  }
  m.preload.clear();
  m.scheduler->on_change = [&m] {
    std::lock_guard lock(m.mutex);
    m.changed.notify_all();
  };
}

void HostLink::go() {
  Machine& m = *machine_;
  if (!m.booted) fail("go() before boot()");
  if (m.started) return;
  const DeviceMain main = m.device_main;
  {
    std::lock_guard lock(m.mutex);
    m.started = true;
  }
  m.scheduler->start(*m.machine,
                     [main](tessera::host::Hart&) { tessera::native::run_device_program(main); });
}

namespace {

bool inject(tessera::host::Machine& machine, uint32_t dest, uint32_t flits, const void* msg) {
  return machine.inject(
      dest, std::span<const uint8_t>(static_cast<const uint8_t*>(msg), flits * kBytesPerFlit), 0);
}

}  // namespace

bool HostLink::send(uint32_t dest, uint32_t numFlits, void* msg, bool block) {
  Machine& m = *machine_;
  if (numFlits < 1 || numFlits > TESSERA_MAX_FLITS) {
    fail("send() of " + std::to_string(numFlits) + " flits: a message is 1..4 flits");
  }
  if (!m.booted) fail("send() before boot()");
  if (!tessera_thread_exists(&m.shape, dest)) {
    fail("send() to thread 0x" + hex(dest) + ", which is not in this machine");
  }
  if (useSendBuffer) {
    if (!block) fail("trySend() with useSendBuffer set: buffered sends are blocking only");
    Message message{dest, numFlits, {}};
    memcpy(message.bytes, msg, numFlits * kBytesPerFlit);
    m.send_buffer.push_back(message);
    return true;
  }
  // The network toward the thread is full: its harts drain it (a run that ended cannot).
  while (!inject(*m.machine, dest, numFlits, msg)) {
    if (!block) return false;
    if (m.ended()) m.ended_while("send() waited for room");
    std::this_thread::yield();
  }
  return true;
}

void HostLink::flush() {
  std::vector<Message> buffered;
  buffered.swap(machine_->send_buffer);
  const bool buffering = useSendBuffer;
  useSendBuffer = false;
  for (Message& message : buffered) (void)send(message.dest, message.flits, message.bytes);
  useSendBuffer = buffering;
}

namespace tessera::tinsel_hostlink {

HostSide& host_side_of(HostLink::Machine& machine) {
  return machine;
}

}  // namespace tessera::tinsel_hostlink
