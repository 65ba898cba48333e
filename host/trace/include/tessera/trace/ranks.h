// The logs of a run over several processes (ranks, docs/ranks.md) as the
// one log a single process with time windows writes, so that
// tessera::trace::convert gives the same trace (docs/tracing.md).
//
// Each rank logs the events of its own boards' threads, and every rank logs
// what its copies of the machine-wide models do (the termination detector's
// master, the window ends, resets). The merge keeps an event with a thread
// or a board from the rank that runs that board, and the rest from rank 0.
// Boards meet only at window ends, so the logs are merged window by window:
// each window's events of every rank, in rank order, then its end.
#pragma once

#include <vector>

#include "tessera/trace/trace.h"

namespace tessera::trace {

// The logs one after another (a kept log of a ranked run) back into one log
// per process: each process's log begins with its tessera_ranks_init. A log
// without one is one process's and comes back whole.
std::vector<std::vector<Record>> split_ranks(const std::vector<Record>& records);

// One log from each rank, in any order; one log comes back unchanged.
// Throws std::runtime_error if they are not the ranks of one run (a rank
// missing or twice, logs that disagree on the windows).
std::vector<Record> merge_ranks(const std::vector<std::vector<Record>>& logs);

}  // namespace tessera::trace
