// The host's side of a machine, the same behind both of Tinsel's HostLinks (the emulator's,
// HostLink.cc, and native mode's, native/HostLink.cc): the machine the program was built for
// (its properties and shape, the heaps loaded before it starts), and the messages and console
// lines it sent the host, waiting to be read, with the waits for them. Each HostLink's machine is
// one (HostLink::Machine derives from it) and says when nothing more can come. Private to the two
// libraries; host_side.cc has the HostLink calls made of it.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>

#include "HostLink.h"
#include "hostlink_internal.h"
#include "tessera/hw/machine_params.h"

namespace tessera::tinsel_hostlink {

class HostSide {
 public:
  struct Received {
    uint32_t flits = 1;
    uint8_t bytes[kBytesPerMsg] = {};
  };

  virtual ~HostSide() = default;

  // The machine of the program's build: its properties (config.h's, then
  // TESSERA_HOSTLINK_PROPERTIES', which may not change the shape), shape and partition size.
  // Ends the program if it asks for other boxes than the one it was built for.
  void configure(const HostLinkParams& params, const char* built_properties);
  std::string properties;  // key=value,...
  TesseraShape shape{};
  uint32_t partition_bytes = 0;
  // A property's value (the last one given), or fallback.
  std::string property(const std::string& key, const std::string& fallback) const;
  uint32_t property(const std::string& key, uint32_t fallback) const;
  // Ends the program unless tesseraLoadHeapSRAM() may load numBytes into the thread's heap.
  void check_heap_load(uint32_t thread_id, uint32_t num_bytes) const;

  bool booted = false;   // boot() was called
  bool started = false;  // go() was called

  std::mutex mutex;  // guards what follows, and what the machines' overrides read
  std::condition_variable changed;
  std::deque<Received> messages;
  std::deque<std::string> lines;  // "x:y:c:t: text"

  // "x:y:c:t: " for a thread id (core counts the cores of a board, as Tinsel's do).
  std::string tinsel_prefix(uint32_t id) const;

  // Under mutex: a message for recv(), and a line for pollStdOut/dumpStdOut. Console text waiting
  // to be read is bounded: a program that never reads it (Tinsel's sync emits 40,000 words per
  // thread) loses the oldest lines, and the next print says how many.
  void take_message(uint32_t flits, const void* bytes);
  void take_line(std::string line);
  static constexpr size_t kMaxBufferedConsoleBytes = size_t{64} << 20;

  // Waits until pred() holds or nothing more can come; true if pred() holds.
  template <typename Pred>
  bool wait_for(std::unique_lock<std::mutex>& lock, Pred pred) {
    changed.wait(lock, [&] { return pred() || over(); });
    return pred();
  }

  // Under mutex: the machine has ended.
  virtual bool ended() const = 0;
  // Under mutex: nothing more can come: the machine has ended, or (native mode) every thread
  // sleeps and nothing the host does can wake one.
  virtual bool over() const { return ended(); }
  // The machine runs, or will without go() (a dev board runs from the start).
  virtual bool running() const { return started; }
  // Without mutex, once ended: the machine's exit status.
  virtual int final_status() = 0;
  // Without mutex, when a wait found nothing more can come: says why and ends the program.
  [[noreturn]] virtual void ended_while(const std::string& doing) = 0;

  // HostLink's calls over what came (host_side.cc).
  void recv(void* msg);
  bool can_recv();
  size_t print_lines(FILE* out, size_t max);  // at most max lines that came; how many printed
  void dump_std_out(FILE* out);
  void dump_std_out(FILE* out, uint32_t count);

 private:
  size_t buffered_bytes_ = 0;
  uint64_t dropped_lines_ = 0;
};

// The host side of a HostLink's machine (each library defines it: its Machine is one).
HostSide& host_side_of(HostLink::Machine& machine);

}  // namespace tessera::tinsel_hostlink
