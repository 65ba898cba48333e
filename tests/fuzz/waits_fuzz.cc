// libFuzzer target: the wait registry (models/waits.c). A machine shape
// (holes in the id space included), then blocks, unblocks, resets and
// reports in any order, against a shadow of who waits on what since when.
// Every report is parsed back: each operation once, its harts' ids and
// count, its cycle span, within the room given (docs/fuzzing.md).
//
// Input: the shape, then operations until the input runs out.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "tessera/models/waits.h"

namespace {

using fuzz::FuzzInput;

constexpr int kMaxOperations = 2000;
// Operation texts; two copies of one text must group as one.
constexpr const char* kOperations[] = {"mailbox wait-until can-recv (to receive)",
                                       "mailbox wait-until can-send (to send)",
                                       TESSERA_WAIT_OP_FINISHED, TESSERA_WAIT_OP_WFI, "x"};
constexpr size_t kKinds = sizeof(kOperations) / sizeof(kOperations[0]);

struct Wait {
  size_t kind;
  uint64_t since;
};

class Scenario {
 public:
  explicit Scenario(const TesseraShape& shape)
      : shape_(shape), harts_(tessera_num_threads(&shape)) {
    waits_ = tessera_waits_new(&shape);
    FUZZ_CHECK(waits_ != nullptr, "tessera_waits_new refused %u harts", harts_);
    for (size_t k = 0; k < kKinds; k++) copies_.push_back(kOperations[k]);
  }
  ~Scenario() { tessera_waits_free(waits_); }
  Scenario(const Scenario&) = delete;
  Scenario& operator=(const Scenario&) = delete;

  uint32_t harts() const { return harts_; }

  void block(uint32_t hart, size_t kind, bool copy, uint64_t since) {
    // A heap copy of the text: grouping is by text, not by pointer.
    const char* text = copy ? copies_[kind].c_str() : kOperations[kind];
    tessera_waits_block(waits_, hart, text, since);
    if (hart >= harts_) return;
    auto it = shadow_.find(hart);
    if (it == shadow_.end() || it->second.kind != kind) {
      shadow_[hart] = Wait{kind, since};
    }
  }

  void unblock(uint32_t hart) {
    tessera_waits_unblock(waits_, hart);
    shadow_.erase(hart);
  }

  void reset() {
    tessera_waits_reset(waits_);
    shadow_.clear();
  }

  void check_hart(uint32_t hart) const {
    const char* op = tessera_waits_operation(waits_, hart);
    auto it = shadow_.find(hart);
    if (it == shadow_.end()) {
      FUZZ_CHECK(op == nullptr && tessera_waits_since(waits_, hart) == 0,
                 "hart %u is not stopped, the registry says '%s'", hart, op ? op : "");
      return;
    }
    FUZZ_CHECK(op != nullptr && strcmp(op, kOperations[it->second.kind]) == 0 &&
                   tessera_waits_since(waits_, hart) == it->second.since,
               "hart %u: registry '%s' since %llu, shadow '%s' since %llu", hart, op ? op : "",
               static_cast<unsigned long long>(tessera_waits_since(waits_, hart)),
               kOperations[it->second.kind], static_cast<unsigned long long>(it->second.since));
  }

  void check_count() const {
    FUZZ_CHECK(tessera_waits_count(waits_) == shadow_.size(), "count %u, shadow %zu",
               tessera_waits_count(waits_), shadow_.size());
  }

  // The report, parsed back line by line, says what the shadow says.
  void check_report(size_t room) const {
    const size_t len = tessera_waits_report(waits_, nullptr, 0);
    std::vector<char> buffer(room + 1, '#');
    FUZZ_CHECK(tessera_waits_report(waits_, buffer.data(), room) == len,
               "the report's length depends on its room");
    if (room > 0) {
      FUZZ_CHECK(strlen(buffer.data()) == (len < room ? len : room - 1),
                 "a report in %zu bytes is %zu long, not %zu", room, strlen(buffer.data()), len);
    }
    FUZZ_CHECK(buffer[room] == '#', "the report wrote past its room of %zu bytes", room);
    std::string text(len + 1, '\0');
    (void)tessera_waits_report(waits_, text.data(), text.size());
    text.resize(len);

    // The shadow's groups.
    std::map<size_t, std::vector<uint32_t>> ids;
    std::map<size_t, std::pair<uint64_t, uint64_t>> span;
    for (const auto& [hart, wait] : shadow_) {
      ids[wait.kind].push_back(tessera_thread_at(&shape_, hart));
      auto s = span.emplace(wait.kind, std::make_pair(wait.since, wait.since)).first;
      s->second.first = std::min(s->second.first, wait.since);
      s->second.second = std::max(s->second.second, wait.since);
    }
    std::set<size_t> seen;
    size_t at = 0;
    while (at < text.size()) {
      const size_t end = text.find('\n', at);
      FUZZ_CHECK(end != std::string::npos, "the report's last line has no newline");
      check_line(text.substr(at, end - at), ids, span, seen);
      at = end + 1;
    }
    FUZZ_CHECK(seen.size() == ids.size(), "the report has %zu lines for %zu operations",
               seen.size(), ids.size());
  }

 private:
  void check_line(const std::string& line, const std::map<size_t, std::vector<uint32_t>>& ids,
                  const std::map<size_t, std::pair<uint64_t, uint64_t>>& span,
                  std::set<size_t>& seen) const {
    size_t kind = kKinds;
    for (size_t k = 0; k < kKinds; k++) {
      const std::string tail = std::string(": ") + kOperations[k] + ", since cycle";
      if (line.find(tail) != std::string::npos) kind = k;
    }
    FUZZ_CHECK(kind < kKinds && ids.count(kind) && seen.insert(kind).second,
               "a report line of no operation, or twice: %s", line.c_str());
    const std::vector<uint32_t>& want = ids.at(kind);
    // "  thread(s) <ranges>[ and N more ranges][ (count)]: op, since cycle(s) a[..b]"
    const char* p = line.c_str();
    const char* prefix = want.size() == 1 ? "  thread " : "  threads ";
    FUZZ_CHECK(strncmp(p, prefix, strlen(prefix)) == 0, "line starts wrong: %s", p);
    p += strlen(prefix);
    std::vector<uint32_t> listed;
    uint32_t ranges = 0;
    while (*p == '0') {
      char* next = nullptr;
      const uint32_t first = static_cast<uint32_t>(strtoul(p, &next, 16));
      uint32_t last = first;
      if (*next == '-') last = static_cast<uint32_t>(strtoul(next + 1, &next, 16));
      FUZZ_CHECK(last >= first, "range 0x%x-0x%x backwards: %s", first, last, line.c_str());
      for (uint64_t id = first; id <= last; id++) listed.push_back(static_cast<uint32_t>(id));
      ranges++;
      p = next;
      if (strncmp(p, ", ", 2) == 0) p += 2;
    }
    unsigned more = 0;
    if (sscanf(p, " and %u more ranges", &more) == 1) {
      FUZZ_CHECK(ranges == 8, "%u ranges before 'and more': %s", ranges, line.c_str());
    }
    // The ranges shown are the first harts' ids, whole.
    FUZZ_CHECK(listed.size() <= want.size() &&
                   std::equal(listed.begin(), listed.end(), want.begin()) &&
                   (more > 0 || listed.size() == want.size()),
               "the ids of '%s' are not its harts' (%zu listed, %zu harts)", line.c_str(),
               listed.size(), want.size());
    if (want.size() > 1) {
      const std::string count = " (" + std::to_string(want.size()) + "): ";
      FUZZ_CHECK(line.find(count) != std::string::npos, "no count %s in %s", count.c_str(),
                 line.c_str());
    }
    const auto [lo, hi] = span.at(kind);
    const std::string since = lo == hi ? ", since cycle " + std::to_string(lo)
                                       : ", since cycles " + std::to_string(lo) + ".." +
                                             std::to_string(hi);
    FUZZ_CHECK(line.size() >= since.size() &&
                   line.compare(line.size() - since.size(), since.size(), since) == 0,
               "line '%s' does not end in '%s'", line.c_str(), since.c_str());
  }

  TesseraShape shape_;
  uint32_t harts_;
  TesseraWaits* waits_ = nullptr;
  std::vector<std::string> copies_;
  std::map<uint32_t, Wait> shadow_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  TesseraShape shape{};
  shape.boards_x = 1 + in.below(8);
  shape.boards_y = 1 + in.below(8);
  // Up to 2,048 harts: every report walks them all.
  shape.tiles_x = 1u << in.below(2);
  shape.tiles_y = 1u << in.below(2);
  shape.cores_per_tile = 1u << in.below(2);
  shape.threads_per_core = 1u << in.below(3);
  Scenario scenario(shape);
  const uint32_t harts = scenario.harts();
  for (int i = 0; i < kMaxOperations && !in.empty(); i++) {
    const uint32_t kind = in.below(16);
    // Mostly harts of the machine, sometimes just past it.
    const uint32_t hart = in.below(8) == 0 ? harts + in.below(4) : in.below(harts);
    if (kind < 8) {
      scenario.block(hart, in.below(kKinds), in.flag(), in.flag() ? in.below(4) : in.u64());
    } else if (kind < 13) {
      scenario.unblock(hart);
    } else if (kind < 14) {
      scenario.reset();
    } else {
      scenario.check_report(in.below(4) == 0 ? in.below(64) : 1u << 16);
    }
    scenario.check_hart(hart);
    scenario.check_count();
  }
  scenario.check_report(1u << 20);
  return 0;
}
