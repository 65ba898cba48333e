// libFuzzer target: the reflex switches with time windows over several processes
// (tessera/models/reflex.h, "Time windows"; docs/ranks.md). Every reflex CSR goes to one model of
// the whole machine with windows and to the copy of the process (rank) that runs the hart's board;
// at each window's end the copies take every other copy's CSRs of the window, as MPI would give
// them, and every flit that waits for the window moves. Every CSR answers alike (status, value,
// time), and after each window's end every copy's switches, inbound and outbound buffers equal
// the one model's, and the same flits moved.
//
// Input: the shape (2..4 x 1..2 boards of 1..4 threads), the buffer, the hop, how many ranks
// (2..boards), then CSRs and window ends until the input runs out.
#include <stddef.h>
#include <stdint.h>

#include <memory>
#include <vector>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "tessera/models/rank_split.h"
#include "tessera/models/reflex.h"

namespace {

using fuzz::FuzzInput;

struct ReflexDeleter {
  void operator()(TesseraReflex* r) const { tessera_reflex_free(r); }
};
using Reflex = std::unique_ptr<TesseraReflex, ReflexDeleter>;

Reflex Make(const TesseraShape& shape, uint32_t b, uint32_t hop, const bool* local_boards) {
  const TesseraReflexConfig config{shape, b, hop, nullptr};
  TesseraReflexHost host{};
  host.wake = [](void*, uint32_t) {};
  Reflex r(tessera_reflex_new(&config, &host));
  FUZZ_CHECK(r != nullptr && tessera_reflex_use_windows(r.get(), local_boards),
             "the model refused windows");
  return r;
}

constexpr uint32_t kCsrs[] = {TESSERA_CSR_REFLEX_SEND,   TESSERA_CSR_REFLEX_RECV,
                              TESSERA_CSR_REFLEX_ROUTE,  TESSERA_CSR_REFLEX_NEXT,
                              TESSERA_CSR_REFLEX_STATUS, TESSERA_CSR_REFLEX_WAIT_SEND};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  TesseraShape shape{2 + in.below(3), 1 + in.below(2), 1, 1, 1, 1u << in.below(3)};
  const uint32_t boards = shape.boards_x * shape.boards_y;
  const uint32_t harts = tessera_num_threads(&shape);
  const uint32_t b = 1 + in.below(3);
  const uint32_t hop = in.below(8);
  const uint32_t ranks = 2 + in.below(boards - 1);
  // Split as QEMU splits the boards (models/rank_split.c).
  std::vector<TesseraRankRect> rects(ranks);
  FUZZ_CHECK(tessera_rank_split(shape.boards_x, shape.boards_y, ranks, 0, 0, rects.data()) ==
                 TESSERA_RANK_SPLIT_OK,
             "no split of %u boards for %u ranks", boards, ranks);
  std::vector<uint32_t> board_rank(boards);
  tessera_rank_split_boards(rects.data(), ranks, shape.boards_x, board_rank.data());
  std::vector<std::unique_ptr<bool[]>> local;
  std::vector<Reflex> copy;
  for (uint32_t r = 0; r < ranks; r++) {
    local.push_back(std::make_unique<bool[]>(boards));
    for (uint32_t bd = 0; bd < boards; bd++) local.back()[bd] = board_rank[bd] == r;
    copy.push_back(Make(shape, b, hop, local.back().get()));
  }
  Reflex one = Make(shape, b, hop, nullptr);
  const uint32_t per_board = harts / boards;
  std::vector<uint64_t> now(harts, 0);

  for (int op = 0; op < 3000 && !in.empty(); op++) {
    if (in.below(8) == 0) {
      // The window ends: every copy takes the others' CSRs, in rank order.
      std::vector<TesseraReflexOp> all;
      for (const Reflex& c : copy) {
        const TesseraReflexOp* ops = nullptr;
        const size_t n = tessera_reflex_window_ops(c.get(), &ops);
        all.insert(all.end(), ops, ops + n);
      }
      const uint32_t moved = tessera_reflex_window_end(one.get(), nullptr, 0);
      for (uint32_t r = 0; r < ranks; r++) {
        const uint32_t m = tessera_reflex_window_end(copy[r].get(), all.data(), all.size());
        FUZZ_CHECK(m == moved, "rank %u moved %u flits at the window's end, one model %u", r, m,
                   moved);
        for (uint32_t h = 0; h < harts; h++) {
          FUZZ_CHECK(
              tessera_reflex_inbound(copy[r].get(), h) == tessera_reflex_inbound(one.get(), h) &&
                  tessera_reflex_outbound(copy[r].get(), h) ==
                      tessera_reflex_outbound(one.get(), h) &&
                  tessera_reflex_switch_on(copy[r].get(), h) ==
                      tessera_reflex_switch_on(one.get(), h),
              "rank %u's copy of hart %u differs from one model at a window's end", r, h);
        }
        FUZZ_CHECK(tessera_reflex_window_pending(copy[r].get()) ==
                       tessera_reflex_window_pending(one.get()),
                   "rank %u: %u heads wait for the window, one model %u", r,
                   tessera_reflex_window_pending(copy[r].get()),
                   tessera_reflex_window_pending(one.get()));
      }
      continue;
    }
    const uint32_t h = in.below(harts);
    const uint32_t csr = in.pick(kCsrs);
    const bool write = in.flag();
    uint32_t value = 0;
    if (csr == TESSERA_CSR_REFLEX_NEXT) {
      // Mostly a thread of the machine (rings across boards), sometimes anything.
      value = in.below(4) == 0 ? in.u32() : tessera_thread_at(&shape, in.below(harts));
    } else if (csr == TESSERA_CSR_REFLEX_ROUTE) {
      value = in.below(5);
    } else {
      value = in.u32();
    }
    now[h] += in.below(40);
    TesseraReflex* own = copy[board_rank[h / per_board]].get();
    const TesseraAccess a = tessera_reflex_csr(one.get(), h, csr, write, value, now[h]);
    const TesseraAccess c = tessera_reflex_csr(own, h, csr, write, value, now[h]);
    FUZZ_CHECK(a.status == c.status && a.value == c.value && a.resume_at == c.resume_at,
               "hart %u csr 0x%x: one model status %d value 0x%x at %llu, its rank's %d 0x%x "
               "at %llu",
               h, csr, a.status, a.value, static_cast<unsigned long long>(a.resume_at), c.status,
               c.value, static_cast<unsigned long long>(c.resume_at));
    if (a.status == TESSERA_ACCESS_DONE) now[h] = a.resume_at;
    // Errors are taken as the hosts take them, after each call.
    uint32_t who = 0;
    while (tessera_reflex_take_error(one.get(), &who) != nullptr) {
    }
    for (const Reflex& r : copy) {
      while (tessera_reflex_take_error(r.get(), &who) != nullptr) {
      }
    }
  }
  return 0;
}
