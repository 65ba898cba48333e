#include "tessera/trace/trace.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <istream>
#include <map>
#include <ostream>
#include <span>
#include <stdexcept>
#include <tuple>

#include "tessera/hw/regs.h"

namespace tessera::trace {

// ---------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------

std::optional<Record> Record::parse(std::string_view line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  Record r;
  r.line_ = std::string(line);
  size_t at = 0;
  const std::string& s = r.line_;
  while (at < s.size()) {
    while (at < s.size() && s[at] == ' ') at++;
    const size_t start = at;
    while (at < s.size() && s[at] != ' ') at++;
    if (at > start) r.tokens_.emplace_back(start, at - start);
  }
  if (r.tokens_.empty()) return std::nullopt;
  std::string_view first(s.data() + r.tokens_[0].first, r.tokens_[0].second);
  // -msg timestamp=on: "1234@1700000000.123456:tessera_..."
  if (const size_t colon = first.find(':');
      colon != std::string_view::npos && first.find('@') < colon) {
    first.remove_prefix(colon + 1);
  }
  if (!first.starts_with("tessera_") && !first.starts_with("verbose_tessera_")) {
    return std::nullopt;
  }
  r.name_ = std::string(first);
  r.tokens_.erase(r.tokens_.begin());
  return r;
}

std::optional<std::string_view> Record::field(std::string_view key) const {
  for (size_t i = 0; i + 1 < tokens_.size(); i++) {
    if (std::string_view(line_.data() + tokens_[i].first, tokens_[i].second) == key) {
      return std::string_view(line_.data() + tokens_[i + 1].first, tokens_[i + 1].second);
    }
  }
  return std::nullopt;
}

namespace {

std::optional<uint64_t> to_number(std::string_view text) {
  int base = 10;
  if (text.starts_with("0x")) {
    text.remove_prefix(2);
    base = 16;
  }
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::optional<uint64_t> Record::number(std::string_view key) const {
  const auto text = field(key);
  return text ? to_number(*text) : std::nullopt;
}

std::optional<std::pair<uint32_t, uint32_t>> Record::pair(std::string_view key) const {
  const auto text = field(key);
  if (!text) return std::nullopt;
  const size_t sep = text->find_first_of(",x");
  if (sep == std::string_view::npos) return std::nullopt;
  const auto a = to_number(text->substr(0, sep));
  const auto b = to_number(text->substr(sep + 1));
  if (!a || !b || *a > UINT32_MAX || *b > UINT32_MAX) return std::nullopt;
  return std::pair{static_cast<uint32_t>(*a), static_cast<uint32_t>(*b)};
}

std::optional<std::string_view> Record::rest(std::string_view key) const {
  for (const auto& [offset, length] : tokens_) {
    if (std::string_view(line_.data() + offset, length) == key) {
      const size_t from = std::min(line_.size(), offset + length + 1);
      return std::string_view(line_).substr(from);
    }
  }
  return std::nullopt;
}

std::vector<Record> read_log(std::istream& in, uint64_t* lines) {
  std::vector<Record> records;
  std::string line;
  uint64_t n = 0;
  while (std::getline(in, line)) {
    n++;
    if (auto r = Record::parse(line)) records.push_back(std::move(*r));
  }
  if (lines) *lines = n;
  return records;
}

// ---------------------------------------------------------------------------
// Conversion
// ---------------------------------------------------------------------------

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  const auto [end, error] = std::to_chars(buf, buf + sizeof(buf), v, 16);
  (void)error;
  return "0x" + std::string(buf, end);
}

using namespace std::literals;

// Events shown as an instant of a fixed name on their thread's track, with
// these fields as arguments (in decimal, then in hex).
struct InstantRule {
  std::string_view event, name, cat;
  std::array<std::string_view, 2> numbers, hexes;
};
constexpr InstantRule kInstants[] = {
    {"tessera_mbox_deliver", "deliver", "mailbox", {"msg", "flits"}, {"from", "slot"}},
    {"tessera_mbox_free", "free", "mailbox", {"msg"}, {"slot"}},
    {"tessera_mbox_wake", "woken", "wait", {}, {}},
    {"tessera_mbox_backpressure", "cannot send", "wait", {}, {}},
    {"tessera_idle_enter", "idle enter", "termdet", {"vote"}, {}},
    {"tessera_sysinfo_checkin", "check-in", "machine", {"status"}, {}},
    {"tessera_hart_parked", "parked at its trap vector", "machine", {"exception"}, {"vector"}},
    {"tessera_exit_end", "exit device", "machine", {"code"}, {"wrote"}},
    {"tessera_exit_reset", "reset requested", "machine", {}, {}},
    {"verbose_tessera_mbox_handover", "slot hand-over", "verbose", {}, {"slot"}},
    {"tessera_ocbus_wake", "woken", "wait", {}, {}},
    {"tessera_reflex_wake", "woken", "wait", {}, {}},
    {"tessera_reflex_send", "reflex send", "reflex", {}, {"flit"}},
    {"tessera_reflex_guest_error", "reflex guest error", "reflex", {}, {"csr", "value"}},
    {"tessera_barrier_count", "barrier count", "barrier", {"uid", "count"}, {}},
    {"verbose_tessera_ocbus_write", "ocbus write", "verbose", {}, {"local", "global"}},
};

// Waits of the other devices: an event that opens a slice on the thread's track and the event
// that closes it (docs/tracing.md).
struct DeviceWaitRule {
  std::string_view open, close, cat;
};
constexpr DeviceWaitRule kDeviceWaits[] = {
    {"tessera_ocbus_block", "tessera_ocbus_wait", "ocbus"},
    {"tessera_reflex_block", "tessera_reflex_recv", "reflex"},
    {"tessera_barrier_enter", "tessera_barrier_release", "barrier"},
};

// The slice name of a device wait, from its opening event.
std::string device_wait_name(const Record& r) {
  if (r.name() == "tessera_ocbus_block") {
    const auto mask = r.number("mask"), value = r.number("value");
    return mask && value ? "ocbus wait: lines " + hex(*mask) + " read " + hex(*value & *mask) : "";
  }
  if (r.name() == "tessera_reflex_block") {
    const auto csr = r.number("csr");
    if (!csr) return "";
    return *csr == TESSERA_CSR_REFLEX_RECV ? "reflex receive (inbound empty)"
                                           : "reflex wait-send (outbound full)";
  }
  const auto uid = r.number("uid"), count = r.number("count");
  return uid && count
             ? "barrier uid " + std::to_string(*uid) + " (count " + std::to_string(*count) + ")"
             : "";
}

// The name of a wait by the conditions it waits on (TESSERA_WAIT_*).
std::string wait_name(uint64_t conditions) {
  if (conditions & TESSERA_WAIT_IDLE) {
    return (conditions & TESSERA_WAIT_IDLE_VOTE) ? "idle (vote true)" : "idle (vote false)";
  }
  const bool send = conditions & TESSERA_WAIT_CAN_SEND, recv = conditions & TESSERA_WAIT_CAN_RECV;
  return send && recv ? "wait can-send or can-recv" : send ? "wait can-send" : "wait can-recv";
}

struct Open {
  uint64_t start = 0;
  uint64_t value = 0;  // round, or a mailbox wait's conditions
  std::string name;    // another device's wait: its slice's name
};

// The end of a message: a send or a receive slice of one track.
struct End {
  uint64_t pid, tid, ts, order, dur;
  uint64_t copies = 1;  // sends
  uint64_t matched = 0;
  std::vector<std::pair<std::string, Arg>> args;  // of its flow events
};

class Converter {
 public:
  explicit Converter(const Record& init);
  void add(const Record& r);
  Trace finish();

 private:
  // Tracks
  uint64_t board_pid(uint32_t board) const { return board + 1; }
  uint64_t host_pid() const { return boards_ + 1; }
  uint64_t master_pid() const { return boards_ + 2; }
  uint64_t thread_tid(uint32_t id) const { return uint64_t{id} + 1; }
  uint64_t host_tid() const { return uint64_t{host_id_} + 1; }
  uint64_t master_tid() const { return uint64_t{host_id_} + 2; }
  uint64_t termdet_tid(uint32_t board) const { return uint64_t{host_id_} + 3 + board; }
  uint32_t board_of(uint32_t id) const {
    const TesseraCoords c = tessera_coords(&shape_, id);
    return c.board_y * shape_.boards_x + c.board_x;
  }

  // Events
  Event& add_event(char phase, std::string name, std::string cat, uint64_t pid, uint64_t tid,
                   uint64_t local_ts);
  Event& slice(std::string name, std::string cat, uint64_t pid, uint64_t tid, uint64_t local_start,
               uint64_t local_end);
  Event& instant(std::string name, std::string cat, uint64_t pid, uint64_t tid, uint64_t local_ts);
  void metadata();
  void new_boot();
  void close_open(uint64_t local_end);

  // Events of one kind.
  enum class Outcome { kOk, kSkipped, kUnknown };
  static Outcome ok(bool fields_found) { return fields_found ? Outcome::kOk : Outcome::kSkipped; }
  Outcome thread_event(const Record& r);
  Outcome mailbox_event(const Record& r, uint32_t id, uint64_t cycle);
  Outcome host_event(const Record& r, uint64_t cycle);
  Outcome termdet_event(const Record& r);
  Outcome machine_event(const Record& r);
  std::optional<uint32_t> board_field(const Record& r);
  // An event at `cycle`; guest: caused by a thread (a boot that had none is
  // no boot: the machine resets once before it starts).
  void note_time(uint64_t cycle, bool guest);
  std::vector<std::pair<std::string, Arg>> flow_args(uint64_t msg) const {
    std::vector<std::pair<std::string, Arg>> args{{"msg", msg}};
    if (boot_ > 0) args.emplace_back("boot", boot_);
    return args;
  }

  TesseraShape shape_{};
  uint32_t boards_ = 0;
  uint32_t host_id_ = 0;
  Trace trace_;
  uint64_t order_ = 0;

  uint64_t boot_ = 0;
  uint64_t offset_ = 0;    // of this boot on the trace's axis
  uint64_t boot_end_ = 0;  // latest cycle of this boot
  bool boot_active_ = false;

  std::map<uint32_t, Open> waits_;        // thread id -> its wait
  std::map<uint32_t, Open> tokens_;       // board -> this round's token at it
  std::map<uint32_t, Open> disabled_;     // board -> released, sends disabled
  std::optional<Open> round_;             // master
  std::optional<Open> release_, enable_;  // master, phases 2 and 3
  uint64_t detected_at_ = 0;              // D of the latest detection

  std::map<std::pair<uint64_t, uint64_t>, End> sends_;  // (boot, msg)
  std::map<std::pair<uint64_t, uint64_t>, uint32_t> senders_;
  std::vector<std::pair<std::pair<uint64_t, uint64_t>, End>> receives_;
};

Converter::Converter(const Record& init) {
  shape_ = machine_shape(init);
  boards_ = shape_.boards_x * shape_.boards_y;
  host_id_ = tessera_host_id(&shape_);
  trace_.clock_mhz = static_cast<uint32_t>(init.number("clock_mhz").value_or(0));
  trace_.machine = "boards " + std::to_string(shape_.boards_x) + "x" +
                   std::to_string(shape_.boards_y) + " tiles " + std::to_string(shape_.tiles_x) +
                   "x" + std::to_string(shape_.tiles_y) + " cores " +
                   std::to_string(shape_.cores_per_tile) + " threads " +
                   std::to_string(shape_.threads_per_core);
  metadata();
}

void Converter::metadata() {
  auto meta = [&](const char* what, uint64_t pid, uint64_t tid, Arg value) {
    Event& e = trace_.events.emplace_back();
    e.phase = 'M';
    e.name = what;
    e.pid = pid;
    e.tid = tid;
    e.args.emplace_back(std::string_view(what).ends_with("index") ? "sort_index" : "name",
                        std::move(value));
  };
  const uint32_t per_board = tessera_threads_per_board(&shape_);
  for (uint32_t b = 0; b < boards_; b++) {
    const uint32_t bx = b % shape_.boards_x, by = b / shape_.boards_x;
    meta("process_name", board_pid(b), 0,
         "board (" + std::to_string(bx) + "," + std::to_string(by) + ")");
    meta("process_sort_index", board_pid(b), 0, uint64_t{b});
    meta("thread_name", board_pid(b), termdet_tid(b), std::string("termination detection"));
    meta("thread_sort_index", board_pid(b), termdet_tid(b), uint64_t{0});
    for (uint32_t i = 0; i < per_board; i++) {
      const uint32_t id = tessera_thread_at(&shape_, b * per_board + i);
      const TesseraCoords c = tessera_coords(&shape_, id);
      meta("thread_name", board_pid(b), thread_tid(id),
           hex(id) + ": tile (" + std::to_string(c.tile_x) + "," + std::to_string(c.tile_y) +
               ") core " + std::to_string(c.core) + " thread " + std::to_string(c.thread));
      meta("thread_sort_index", board_pid(b), thread_tid(id), uint64_t{i + 1});
    }
  }
  meta("process_name", host_pid(), 0, std::string("host link"));
  meta("process_sort_index", host_pid(), 0, uint64_t{boards_});
  meta("thread_name", host_pid(), host_tid(), "host " + hex(host_id_));
  meta("process_name", master_pid(), 0, std::string("termination detection master"));
  meta("process_sort_index", master_pid(), 0, uint64_t{boards_} + 1);
  meta("thread_name", master_pid(), master_tid(), std::string("master"));
}

Event& Converter::add_event(char phase, std::string name, std::string cat, uint64_t pid,
                            uint64_t tid, uint64_t local_ts) {
  Event& e = trace_.events.emplace_back();
  e.phase = phase;
  e.name = std::move(name);
  e.cat = std::move(cat);
  e.pid = pid;
  e.tid = tid;
  e.ts = offset_ + local_ts;
  e.order = ++order_;
  if (boot_ > 0) e.args.emplace_back("boot", boot_);
  return e;
}

Event& Converter::slice(std::string name, std::string cat, uint64_t pid, uint64_t tid,
                        uint64_t local_start, uint64_t local_end) {
  Event& e = add_event('X', std::move(name), std::move(cat), pid, tid, local_start);
  e.dur = local_end > local_start ? local_end - local_start : 0;
  return e;
}

Event& Converter::instant(std::string name, std::string cat, uint64_t pid, uint64_t tid,
                          uint64_t local_ts) {
  return add_event('i', std::move(name), std::move(cat), pid, tid, local_ts);
}

void Converter::note_time(uint64_t cycle, bool guest) {
  boot_end_ = std::max(boot_end_, cycle);
  boot_active_ |= guest;
}

// Slices still open when a boot ends: cut there, and said so.
void Converter::close_open(uint64_t end) {
  auto cut = [&](Event& e) { e.args.emplace_back("unfinished", uint64_t{1}); };
  for (const auto& [id, w] : waits_) {
    if (end > w.start) {
      cut(slice(w.name.empty() ? wait_name(w.value) : w.name, "wait", board_pid(board_of(id)),
                thread_tid(id), w.start, end));
    }
  }
  for (const auto& [board, t] : tokens_) {
    if (end > t.start) {
      cut(slice("round " + std::to_string(t.value) + ": token here", "termdet", board_pid(board),
                termdet_tid(board), t.start, end));
    }
  }
  for (const auto& [board, d] : disabled_) {
    if (end > d.start) {
      cut(slice("phase 3: sends disabled", "termdet", board_pid(board), termdet_tid(board), d.start,
                end));
    }
  }
  if (round_ && end > round_->start) {
    cut(slice("round " + std::to_string(round_->value), "termdet", master_pid(), master_tid(),
              round_->start, end));
  }
  if (release_ && end > release_->start) {
    cut(slice("phase 2: release", "termdet", master_pid(), master_tid(), release_->start, end));
  }
  if (enable_ && end > enable_->start) {
    cut(slice("phase 3: enable", "termdet", master_pid(), master_tid(), enable_->start, end));
  }
  waits_.clear();
  tokens_.clear();
  disabled_.clear();
  round_.reset();
  release_.reset();
  enable_.reset();
}

// A machine reset: what is open ends with the boot, and the next boot's
// cycles (from 0 again) come after its last one.
void Converter::new_boot() {
  if (!boot_active_) {
    close_open(0);
    boot_end_ = 0;
    return;
  }
  close_open(boot_end_);
  offset_ += boot_end_ + 1;
  boot_++;
  boot_end_ = 0;
  boot_active_ = false;
}

std::optional<uint32_t> Converter::board_field(const Record& r) {
  const auto b = r.pair("board");
  if (!b || b->first >= shape_.boards_x || b->second >= shape_.boards_y) return std::nullopt;
  return b->second * shape_.boards_x + b->first;
}

void Converter::add(const Record& r) {
  trace_.summary.events++;
  Outcome outcome = Outcome::kOk;
  if (r.name() == "tessera_machine_init" || r.name() == "tessera_machine_reset" ||
      r.name() == "tessera_time_wait" || r.name() == "tessera_run_counts") {
    // The shape was read first; the reset is the mailbox's; waits show
    // through the mailbox's own events; the run's totals are the host-time bench's.
  } else if (r.name() == "tessera_mbox_reset") {
    new_boot();
  } else if (r.name().starts_with("tessera_termdet_")) {
    outcome = termdet_event(r);
  } else if (r.name() == "tessera_mbox_counts" || r.name() == "tessera_mbox_host_counts" ||
             r.name() == "tessera_sysinfo_exit") {
    outcome = machine_event(r);
  } else if (r.field("thread")) {
    outcome = thread_event(r);
  } else {
    outcome = Outcome::kUnknown;
  }
  if (outcome == Outcome::kUnknown) {
    trace_.summary.unknown++;
  } else if (outcome == Outcome::kSkipped) {
    trace_.summary.skipped++;
  }
}

Converter::Outcome Converter::machine_event(const Record& r) {
  if (r.name() == "tessera_sysinfo_exit") {
    const auto code = r.number("code");
    if (!code) return Outcome::kSkipped;
    Event& e = instant("exit code " + std::to_string(*code), "machine", master_pid(), master_tid(),
                       boot_end_);
    e.scope = 'g';
    e.args.emplace_back("code", *code);
    return Outcome::kOk;
  }
  const auto sent = r.number("sent"), received = r.number("received");
  if (!sent || !received) return Outcome::kSkipped;
  if (!boot_active_ && *sent == 0 && *received == 0) return Outcome::kOk;  // nothing ran yet
  uint64_t pid = host_pid(), tid = host_tid();
  if (r.name() == "tessera_mbox_counts") {
    const auto board = board_field(r);
    if (!board) return Outcome::kSkipped;
    pid = board_pid(*board);
    tid = termdet_tid(*board);
  }
  Event& e = instant("mailbox counters", "mailbox", pid, tid, boot_end_);
  e.scope = 'p';
  e.args.emplace_back("sent", *sent);
  e.args.emplace_back("received", *received);
  e.args.emplace_back("of_boot", boot_);
  return Outcome::kOk;
}

Converter::Outcome Converter::thread_event(const Record& r) {
  const auto id = r.number("thread");
  const auto cycle = r.number("cycle");
  if (!id || !cycle || *id > UINT32_MAX) return Outcome::kSkipped;
  const uint32_t thread = static_cast<uint32_t>(*id);
  if (r.name() == "tessera_mbox_to_host" || r.name() == "tessera_mbox_from_host") {
    if (!tessera_thread_exists(&shape_, thread)) return Outcome::kSkipped;
    note_time(*cycle, true);
    return host_event(r, *cycle);
  }
  if (!tessera_thread_exists(&shape_, thread)) return Outcome::kSkipped;
  note_time(*cycle, true);
  return mailbox_event(r, thread, *cycle);
}

Converter::Outcome Converter::mailbox_event(const Record& r, uint32_t id, uint64_t cycle) {
  const std::string& n = r.name();
  const uint64_t pid = board_pid(board_of(id)), tid = thread_tid(id);
  auto with = [&](Event& e, std::span<const std::string_view> keys, bool as_hex) {
    for (std::string_view k : keys) {
      if (k.empty()) continue;
      const auto v = r.number(k);
      if (!v) return false;
      if (as_hex) {
        e.args.emplace_back(std::string(k), hex(*v));
      } else {
        e.args.emplace_back(std::string(k), *v);
      }
    }
    return true;
  };
  for (const InstantRule& rule : kInstants) {
    if (n == rule.event) {
      Event& e = instant(std::string(rule.name), std::string(rule.cat), pid, tid, cycle);
      return ok(with(e, rule.numbers, false) && with(e, rule.hexes, true));
    }
  }
  if (n == "tessera_mbox_send" || n == "tessera_mbox_multicast") {
    const bool multicast = n == "tessera_mbox_multicast";
    const auto msg = r.number("msg");
    const auto dest = r.number(multicast ? "mailbox_of" : "to");
    const auto copies = multicast ? r.number("copies") : std::optional<uint64_t>(1);
    if (!msg || !dest || !copies) return Outcome::kSkipped;
    const std::string name = (multicast ? "multicast to the mailbox of " : "send to ") + hex(*dest);
    Event& e = slice(name, "mailbox", pid, tid, cycle, cycle + 1);
    e.args.emplace_back("msg", *msg);
    if (!with(e, std::array{"flits"sv}, false)) return Outcome::kSkipped;
    if (multicast && !with(e, std::array{"mask"sv}, true)) return Outcome::kSkipped;
    e.args.emplace_back("copies", *copies);
    sends_[{boot_, *msg}] = End{pid, tid, e.ts, e.order, e.dur, *copies, 0, flow_args(*msg)};
    senders_[{boot_, *msg}] = id;
    trace_.summary.messages++;
    return Outcome::kOk;
  }
  if (n == "tessera_mbox_receive") {
    const auto msg = r.number("msg");
    if (!msg) return Outcome::kSkipped;
    const auto sender = senders_.find({boot_, *msg});
    Event& e = slice(sender == senders_.end() ? "receive" : "receive from " + hex(sender->second),
                     "mailbox", pid, tid, cycle, cycle + 1);
    e.args.emplace_back("msg", *msg);
    if (!with(e, std::array{"slot"sv}, true)) return Outcome::kSkipped;
    receives_.push_back(
        {{boot_, *msg}, End{pid, tid, e.ts, e.order, e.dur, 1, 0, flow_args(*msg)}});
    return Outcome::kOk;
  }
  if (n == "tessera_mbox_block") {
    const auto conditions = r.number("waits");
    if (!conditions) return Outcome::kSkipped;
    waits_.try_emplace(id, Open{cycle, *conditions, {}});
    return Outcome::kOk;
  }
  for (const DeviceWaitRule& rule : kDeviceWaits) {
    if (n == rule.open) {
      std::string name = device_wait_name(r);
      if (name.empty()) return Outcome::kSkipped;
      waits_.insert_or_assign(id, Open{cycle, 0, std::move(name)});
      return Outcome::kOk;
    }
    if (n == rule.close) {
      const auto w = waits_.find(id);
      if (w != waits_.end() && !w->second.name.empty()) {
        Event& e = slice(w->second.name, std::string(rule.cat), pid, tid, w->second.start, cycle);
        waits_.erase(w);
        for (const std::string_view k : {"global"sv, "flit"sv, "status"sv}) {
          if (const auto v = r.number(k)) e.args.emplace_back(std::string(k), hex(*v));
        }
        return Outcome::kOk;
      }
      // Done without waiting (or its wait began before the trace): an instant.
      if (n == "tessera_reflex_recv") {
        Event& e = instant("reflex receive", "reflex", pid, tid, cycle);
        return ok(with(e, std::array{"flit"sv}, true));
      }
      return Outcome::kOk;
    }
  }
  if (n == "tessera_mbox_resume") {
    const auto w = waits_.find(id);
    if (w == waits_.end() || !w->second.name.empty()) return Outcome::kOk;  // none of its own
    Event& e = slice(wait_name(w->second.value), "wait", pid, tid, w->second.start, cycle);
    waits_.erase(w);
    return ok(with(e, std::array{"result"sv}, true));
  }
  if (n == "tessera_mbox_fault") {
    const auto fault = r.number("fault");
    if (!fault) return Outcome::kSkipped;
    Event& e =
        instant(std::string("fault: ") + tessera_mailbox_fault_name(static_cast<uint32_t>(*fault)),
                "mailbox", pid, tid, cycle);
    return ok(with(e, std::array{"csr"sv, "value"sv}, true));
  }
  if (n == "tessera_idle_leave") {
    const auto why = r.field("why");
    if (!why) return Outcome::kSkipped;
    instant("idle leave: " + std::string(*why), "termdet", pid, tid, cycle);
    return Outcome::kOk;
  }
  if (n == "tessera_console_line") {
    const auto text = r.rest("line");
    if (!text) return Outcome::kSkipped;
    Event& e = instant("console: " + std::string(text->substr(0, 48)), "console", pid, tid, cycle);
    e.args.emplace_back("line", std::string(*text));
    return Outcome::kOk;
  }
  if (n == "tessera_mswi_write") {
    const auto target = r.number("msip_of"), set = r.number("set");
    if (!target || !set) return Outcome::kSkipped;
    instant("msip of " + hex(*target) + " = " + std::to_string(*set), "machine", pid, tid, cycle);
    return Outcome::kOk;
  }
  if (n == "verbose_tessera_mbox_csr") {
    const auto csr = r.number("csr");
    if (!csr) return Outcome::kSkipped;
    Event& e = instant("csr " + hex(*csr), "verbose", pid, tid, cycle);
    return ok(with(e, std::array{"value"sv, "result"sv}, true));
  }
  return Outcome::kUnknown;
}

// Messages to and from the host: slices on the host link's track.
Converter::Outcome Converter::host_event(const Record& r, uint64_t cycle) {
  const auto id = r.number("thread"), msg = r.number("msg"), flits = r.number("flits");
  if (!msg || !flits) return Outcome::kSkipped;
  const bool to_host = r.name() == "tessera_mbox_to_host";
  Event& e = slice(to_host ? "from " + hex(*id) : "send to " + hex(*id), "mailbox", host_pid(),
                   host_tid(), cycle, cycle + 1);
  e.args.emplace_back("msg", *msg);
  e.args.emplace_back("flits", *flits);
  const End end{host_pid(), host_tid(), e.ts, e.order, e.dur, 1, 0, flow_args(*msg)};
  if (to_host) {
    receives_.push_back({{boot_, *msg}, end});
  } else {
    sends_[{boot_, *msg}] = end;
    senders_[{boot_, *msg}] = host_id_;
    trace_.summary.messages++;
  }
  return Outcome::kOk;
}

Converter::Outcome Converter::termdet_event(const Record& r) {
  const std::string& n = r.name();
  const auto cycle = r.number("cycle"), round = r.number("round");
  if (!cycle || !round) return Outcome::kSkipped;
  note_time(*cycle, false);
  const uint64_t mpid = master_pid(), mtid = master_tid();
  if (n == "tessera_termdet_round") {
    if (round_ && *cycle > round_->start) {
      slice("round " + std::to_string(round_->value), "termdet", mpid, mtid, round_->start, *cycle);
    }
    round_ = Open{*cycle, *round, {}};
    return Outcome::kOk;
  }
  if (n == "tessera_termdet_round_end") {
    const auto outcome = r.field("outcome");
    if (!outcome) return Outcome::kSkipped;
    const uint64_t start = round_ ? round_->start : *cycle;
    Event& e = slice("round " + std::to_string(*round) + ": " + std::string(*outcome), "termdet",
                     mpid, mtid, start, *cycle);
    e.args.emplace_back("outcome", std::string(*outcome));
    round_.reset();
    if (*outcome == "detected") {
      detected_at_ = *cycle;
      release_ = Open{*cycle, *round, {}};
    }
    return Outcome::kOk;
  }
  if (n == "tessera_termdet_enable_start") {
    slice("phase 2: release", "termdet", mpid, mtid, release_ ? release_->start : *cycle, *cycle);
    release_.reset();
    enable_ = Open{*cycle, *round, {}};
    return Outcome::kOk;
  }
  if (n == "tessera_termdet_episode_end") {
    slice("phase 3: enable", "termdet", mpid, mtid, enable_ ? enable_->start : *cycle, *cycle);
    enable_.reset();
    return Outcome::kOk;
  }
  const auto board = board_field(r);
  if (!board) return Outcome::kSkipped;
  const uint64_t pid = board_pid(*board), tid = termdet_tid(*board);
  if (n == "tessera_termdet_token") {
    tokens_[*board] = Open{*cycle, *round, {}};
    return Outcome::kOk;
  }
  if (n == "tessera_termdet_return") {
    const auto t = tokens_.find(*board);
    const uint64_t start = t == tokens_.end() ? *cycle : t->second.start;
    slice("round " + std::to_string(*round) + ": token here", "termdet", pid, tid, start, *cycle);
    if (t != tokens_.end()) tokens_.erase(t);
    return Outcome::kOk;
  }
  if (n == "tessera_termdet_release") {
    slice("phase 2: release on its way", "termdet", pid, tid, std::min(detected_at_, *cycle),
          *cycle);
    disabled_[*board] = Open{*cycle, *round, {}};
    return Outcome::kOk;
  }
  if (n == "tessera_termdet_enable") {
    const auto d = disabled_.find(*board);
    slice("phase 3: sends disabled", "termdet", pid, tid,
          d == disabled_.end() ? *cycle : d->second.start, *cycle);
    if (d != disabled_.end()) disabled_.erase(d);
    return Outcome::kOk;
  }
  return Outcome::kUnknown;
}

Trace Converter::finish() {
  close_open(boot_end_);
  trace_.summary.boots = boot_ + (boot_active_ ? 1 : 0);
  // Arrows from each send to each of its receives.
  uint64_t flow = 0;
  auto flow_event = [&](char phase, const End& at, uint64_t id) {
    Event& e = trace_.events.emplace_back();
    e.phase = phase;
    e.name = "message";
    e.cat = "mailbox";
    e.pid = at.pid;
    e.tid = at.tid;
    e.ts = at.ts;
    e.dur = at.dur;  // sorts with its slice
    e.id = id;
    e.order = at.order;
    e.args = at.args;  // which message, for checkers
  };
  // Numbered by message, then by receiving thread: not by log order, which
  // differs between boards run in one process or in several.
  std::stable_sort(receives_.begin(), receives_.end(), [](const auto& a, const auto& b) {
    return std::tuple(a.first, a.second.pid, a.second.tid, a.second.ts) <
           std::tuple(b.first, b.second.pid, b.second.tid, b.second.ts);
  });
  for (const auto& [key, receive] : receives_) {
    const auto send = sends_.find(key);
    if (send == sends_.end()) {
      trace_.summary.unmatched++;
      continue;
    }
    send->second.matched++;
    flow++;
    flow_event('s', send->second, flow);
    flow_event('f', receive, flow);
  }
  trace_.summary.flows = flow;
  for (const auto& [key, send] : sends_) {
    if (send.copies > send.matched) trace_.summary.unreceived += send.copies - send.matched;
  }
  // Metadata first, then by time. At one time: slices, longest first, each
  // followed by its flow events (a flow binds to the slice it starts or
  // ends in), then instants; then by track, and on one track in log order.
  // Log order decides only within a track, where it is the board's own:
  // the same whichever boards ran beside it, or in how many processes.
  auto key = [](const Event& e) {
    const int rank = e.phase == 'M' ? 0 : e.phase == 'i' ? 2 : 1;
    const int sub = e.phase == 'X' ? 0 : 1;
    return std::tuple(rank != 0, e.ts, rank, UINT64_MAX - e.dur, e.pid, e.tid, e.order, sub);
  };
  std::stable_sort(trace_.events.begin(), trace_.events.end(),
                   [&](const Event& a, const Event& b) { return key(a) < key(b); });
  return std::move(trace_);
}

}  // namespace

TesseraShape machine_shape(const Record& init) {
  const auto boards = init.pair("boards"), tiles = init.pair("tiles");
  const auto cores = init.number("cores"), threads = init.number("threads");
  if (!boards || !tiles || !cores || !threads) {
    throw std::runtime_error("tessera_machine_init does not give the machine's shape");
  }
  return TesseraShape{boards->first,
                      boards->second,
                      tiles->first,
                      tiles->second,
                      static_cast<uint32_t>(*cores),
                      static_cast<uint32_t>(*threads)};
}

const Record* find_record(const std::vector<Record>& records, std::string_view name) {
  const auto found = std::find_if(records.begin(), records.end(),
                                  [&](const Record& r) { return r.name() == name; });
  return found == records.end() ? nullptr : &*found;
}

Trace convert(const std::vector<Record>& records) {
  const Record* init = find_record(records, "tessera_machine_init");
  if (init == nullptr) {
    throw std::runtime_error(
        "the log has no tessera_machine_init event (was QEMU run with -trace 'tessera_*'?)");
  }
  Converter c(*init);
  for (const Record& r : records) c.add(r);
  return c.finish();
}

// ---------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------

std::string microseconds(uint64_t cycles) {
  std::string frac = std::to_string(cycles % 1000);
  return std::to_string(cycles / 1000) + "." + std::string(3 - frac.size(), '0') + frac;
}

std::string json_string(std::string_view s) {
  static const char digits[] = "0123456789abcdef";
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      out += "\\u00";
      out += digits[c >> 4];
      out += digits[c & 15];
    }
  }
  return out + "\"";
}

namespace {

void write_arg(std::ostream& out, const Arg& a) {
  if (const auto* n = std::get_if<uint64_t>(&a)) {
    out << *n;
  } else {
    out << json_string(std::get<std::string>(a));
  }
}

void write_event(std::ostream& out, const Event& e) {
  out << "{\"ph\":\"" << e.phase << "\",\"name\":" << json_string(e.name);
  if (!e.cat.empty()) out << ",\"cat\":" << json_string(e.cat);
  out << ",\"pid\":" << e.pid << ",\"tid\":" << e.tid;
  if (e.phase != 'M') out << ",\"ts\":" << microseconds(e.ts);
  if (e.phase == 'X') out << ",\"dur\":" << microseconds(e.dur);
  if (e.phase == 's' || e.phase == 'f') out << ",\"id\":" << e.id;
  if (e.phase == 'f') out << ",\"bp\":\"e\"";
  if (e.phase == 'i') out << ",\"s\":\"" << e.scope << "\"";
  if (!e.args.empty()) {
    out << ",\"args\":{";
    for (size_t i = 0; i < e.args.size(); i++) {
      out << (i ? "," : "") << json_string(e.args[i].first) << ":";
      write_arg(out, e.args[i].second);
    }
    out << "}";
  }
  out << "}";
}

}  // namespace

void write_json(std::ostream& out, const Trace& trace) {
  out << "{\"traceEvents\":[\n";
  for (size_t i = 0; i < trace.events.size(); i++) {
    write_event(out, trace.events[i]);
    out << (i + 1 < trace.events.size() ? ",\n" : "\n");
  }
  out << "],\n\"otherData\":{\"generator\":\"tessera-trace\",\"time_axis\":"
      << json_string("1 ns = 1 modelled cycle") << ",\"clock_mhz\":" << trace.clock_mhz
      << ",\"machine\":" << json_string(trace.machine) << "}}\n";
}

}  // namespace tessera::trace
