// The converter behind ./tessera trace: QEMU's log of the Tessera trace
// events (qemu/overlay/hw/riscv/tessera/trace-events) into the Chrome /
// Perfetto trace-event JSON format, on the modelled time axis. See
// docs/tracing.md for the events and for what the JSON shows.
//
// Time: one modelled cycle is one nanosecond of the JSON's time axis ("ts"
// is in microseconds, written exactly as cycles / 1000). A machine reset
// starts a new boot whose cycles restart at 0; its events are placed after
// the previous boot's last one.
//
// Tracks: one process per board ("board (x,y)"), one thread track per
// Tinsel thread ("0x1f: tile (1,1) core 0 thread 3") plus the board's
// termination-detection track, a "host link" process and a "termination
// detection master" process.
#pragma once

#include <stdint.h>

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "tessera/hw/regs.h"

namespace tessera::trace {

// One line of the log: the event's name and its "key value" fields.
class Record {
 public:
  // nullopt if the line is not a Tessera trace event (QEMU's other log
  // lines, such as -d guest_errors). Accepts the "pid@seconds:" prefix of
  // -msg timestamp=on.
  static std::optional<Record> parse(std::string_view line);

  const std::string& name() const { return name_; }
  // The token after the first token equal to `key`.
  std::optional<std::string_view> field(std::string_view key) const;
  // That token as a number: decimal, or hexadecimal with 0x.
  std::optional<uint64_t> number(std::string_view key) const;
  // "x,y" or "XxY" after `key`, as two numbers (board 2,1; boards 3x3).
  std::optional<std::pair<uint32_t, uint32_t>> pair(std::string_view key) const;
  // Everything after `key` and one space (the text of a console line).
  std::optional<std::string_view> rest(std::string_view key) const;

 private:
  std::string line_;
  std::string name_;
  std::vector<std::pair<size_t, size_t>> tokens_;  // offset, length in line_
};

// A value in an event's "args".
using Arg = std::variant<uint64_t, std::string>;

// One event of the output, in the trace-event format's terms.
struct Event {
  char phase = 'i';  // X slice, i instant, s/f flow start/end, M metadata
  std::string name;
  std::string cat;
  uint64_t pid = 0;
  uint64_t tid = 0;
  uint64_t ts = 0;   // cycles on the trace's time axis
  uint64_t dur = 0;  // X
  uint64_t id = 0;   // s, f: the flow
  char scope = 't';  // i: t thread, p process, g global
  std::vector<std::pair<std::string, Arg>> args;
  uint64_t order = 0;  // ties: events of one slice (its flows) stay after it
};

struct Summary {
  uint64_t lines = 0;    // read
  uint64_t events = 0;   // Tessera events among them
  uint64_t unknown = 0;  // Tessera events this converter does not know
  uint64_t skipped = 0;  // known events with a missing field or no such thread
  uint64_t boots = 0;
  uint64_t messages = 0;    // sends (a multicast once), from threads and the host
  uint64_t flows = 0;       // send -> receive arrows
  uint64_t unreceived = 0;  // copies sent but never received in the trace
  uint64_t unmatched = 0;   // receives whose send is not in the trace
};

struct Trace {
  std::vector<Event> events;  // metadata first, then by time
  Summary summary;
  uint32_t clock_mhz = 0;
  std::string machine;  // "boards 3x3 tiles 2x2 cores 1 threads 4"
};

// The first record named `name`, or nullptr.
const Record* find_record(const std::vector<Record>& records, std::string_view name);

// The machine's shape from its tessera_machine_init record; throws
// std::runtime_error if the record lacks it.
TesseraShape machine_shape(const Record& init);

// Converts the records of one log, in log order. Throws std::runtime_error
// if the log has no tessera_machine_init (the machine's shape).
Trace convert(const std::vector<Record>& records);

// Reads a log; every line counts in summary.lines of convert's result.
std::vector<Record> read_log(std::istream& in, uint64_t* lines);

// Writes the JSON object {"traceEvents": [...], "otherData": {...}}.
void write_json(std::ostream& out, const Trace& trace);

// "ts" of a cycle count: microseconds, exactly (12345 -> "12.345").
std::string microseconds(uint64_t cycles);
// A JSON string literal; bytes outside ASCII are taken as Latin-1, so the
// output is valid UTF-8 whatever the guest printed.
std::string json_string(std::string_view s);

}  // namespace tessera::trace
