// Merging the logs of a ranked run (tessera/trace/ranks.h).
#include "tessera/trace/ranks.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

namespace tessera::trace {
namespace {

// One rank's log and the rectangle of boards it runs.
struct RankLog {
  const std::vector<Record>* records;
  uint32_t rank = 0;
  uint32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;

  bool runs(uint32_t x, uint32_t y) const { return x >= x0 && x <= x1 && y >= y0 && y <= y1; }
};

// The records where every rank's log is cut alike: each rank ends every window
// and resets with all the others.
bool is_boundary(const Record& r) {
  return r.name() == "tessera_window_end" || r.name() == "tessera_mbox_reset";
}

// Whether `log` is the rank whose copy of `r` the merge keeps.
bool keeps(const RankLog& log, const Record& r, const TesseraShape& shape) {
  if (const auto thread = r.number("thread");
      thread && *thread <= UINT32_MAX && tessera_thread_exists(&shape, uint32_t(*thread))) {
    const TesseraCoords c = tessera_coords(&shape, uint32_t(*thread));
    return log.runs(c.board_x, c.board_y);
  }
  if (const auto board = r.pair("board");
      board && board->first < shape.boards_x && board->second < shape.boards_y) {
    return log.runs(board->first, board->second);
  }
  return log.rank == 0;
}

RankLog rank_of(const std::vector<Record>& records) {
  RankLog log{&records};
  const Record* init = find_record(records, "tessera_ranks_init");
  if (init == nullptr) {
    throw std::runtime_error("a log of several has no tessera_ranks_init (which rank wrote it?)");
  }
  const auto rank = init->number("rank");
  const auto from = init->pair("from"), to = init->pair("to");
  if (!rank || *rank > UINT32_MAX || !from || !to) {
    throw std::runtime_error("tessera_ranks_init does not say which rank and boards");
  }
  log.rank = uint32_t(*rank);
  log.x0 = from->first;
  log.y0 = from->second;
  log.x1 = to->first;
  log.y1 = to->second;
  return log;
}

// Where each segment of a log ends: the index of each boundary record, then
// the end of the log.
std::vector<size_t> segment_ends(const std::vector<Record>& records) {
  std::vector<size_t> ends;
  for (size_t i = 0; i < records.size(); i++) {
    if (is_boundary(records[i])) ends.push_back(i);
  }
  ends.push_back(records.size());
  return ends;
}

}  // namespace

std::vector<std::vector<Record>> split_ranks(const std::vector<Record>& records) {
  std::vector<std::vector<Record>> logs;
  for (const Record& r : records) {
    if (logs.empty() || r.name() == "tessera_ranks_init") logs.emplace_back();
    logs.back().push_back(r);
  }
  // Lines before the first rank's start (QEMU's own) stay with it.
  if (logs.size() > 1 && logs.front().front().name() != "tessera_ranks_init") {
    logs[1].insert(logs[1].begin(), logs[0].begin(), logs[0].end());
    logs.erase(logs.begin());
  }
  return logs;
}

std::vector<Record> merge_ranks(const std::vector<std::vector<Record>>& logs) {
  if (logs.empty()) return {};
  if (logs.size() == 1) return logs.front();
  std::vector<RankLog> ranks;
  for (const auto& records : logs) ranks.push_back(rank_of(records));
  std::sort(ranks.begin(), ranks.end(),
            [](const RankLog& a, const RankLog& b) { return a.rank < b.rank; });
  for (size_t i = 0; i < ranks.size(); i++) {
    if (ranks[i].rank != i) {
      throw std::runtime_error("the logs are not ranks 0.." + std::to_string(ranks.size() - 1) +
                               " of one run (rank " + std::to_string(ranks[i].rank) + ")");
    }
  }
  const std::vector<Record>& first = *ranks.front().records;
  const Record* init = find_record(first, "tessera_machine_init");
  if (init == nullptr) {
    throw std::runtime_error(
        "rank 0's log has no tessera_machine_init event (was QEMU run with -trace "
        "'tessera_*'?)");
  }
  const TesseraShape shape = machine_shape(*init);

  std::vector<std::vector<size_t>> ends;
  for (const RankLog& log : ranks) {
    ends.push_back(segment_ends(*log.records));
    if (ends.back().size() != ends.front().size()) {
      throw std::runtime_error("the ranks' logs disagree on the windows: rank 0 has " +
                               std::to_string(ends.front().size() - 1) + ", rank " +
                               std::to_string(log.rank) + " " +
                               std::to_string(ends.back().size() - 1));
    }
  }
  std::vector<Record> merged;
  std::vector<size_t> at(ranks.size(), 0);
  for (size_t segment = 0; segment < ends.front().size(); segment++) {
    for (size_t k = 0; k < ranks.size(); k++) {
      const std::vector<Record>& records = *ranks[k].records;
      for (; at[k] < ends[k][segment]; at[k]++) {
        if (keeps(ranks[k], records[at[k]], shape)) merged.push_back(records[at[k]]);
      }
      at[k]++;  // past the boundary record
    }
    if (segment + 1 < ends.front().size()) merged.push_back(first[ends.front()[segment]]);
  }
  return merged;
}

}  // namespace tessera::trace
