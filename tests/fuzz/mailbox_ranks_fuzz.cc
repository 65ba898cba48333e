// libFuzzer target: the mailbox model over several processes (ranks, docs/ranks.md). The same
// operations go to one model of the whole machine and to 2 or more models that each own a run
// of its boards, joined by the exchange over several processes (tessera/models/mailbox.h): take
// the leaving messages, let them arrive, admit with credits back, refill. Every CSR's answer
// (status, value, time) must be the same from the owning rank as from the one model, and so must
// every thread's can-send, can-recv and counts after each exchange: the split is invisible.
// Threads also call tinselIdle: the termination detector's master hears from every rank at each
// exchange (termdet.h, "time windows"), and every thread's idle state must be the same.
// Records another process sends are also fuzzed raw: arrive() and credit() take them or refuse
// them whole, and never crash.
//
// Untimed (native mode's parts, docs/native.md), a message toward another board of the same part
// enters at once and one toward another part waits for the exchange, so the parts' answers differ
// from one model's by design: then the parts run alone, and every record one part hands another
// must be taken, every token return fit the round, and the sanitizers find nothing.
//
// Input: the shape, the number of ranks, timed or untimed, then operations until the input runs
// out.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <memory>
#include <vector>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "tessera/hw/regs.h"
#include "tessera/models/mailbox.h"
#include "tessera/models/rank_split.h"

namespace {

using fuzz::FuzzInput;

constexpr int kMaxOperations = 3000;

// One model and its scratchpads.
class Model {
 public:
  Model(const TesseraShape& shape, uint32_t buffer_flits, const bool* local_boards, bool untimed)
      : scratch_(size_t{shape.boards_x} * shape.boards_y * shape.tiles_x * shape.tiles_y *
                 TESSERA_SCRATCH_SIZE) {
    const TesseraMailboxConfig config{
        shape,   4,    40,           buffer_flits, TESSERA_TERMDET_MASTER_ORIGIN,
        nullptr, true, local_boards, untimed};
    TesseraMailboxHost host{};
    host.opaque = this;
    host.scratchpad = [](void* self, uint32_t tile) {
      return static_cast<Model*>(self)->scratch_.data() + size_t{tile} * TESSERA_SCRATCH_SIZE;
    };
    host.wake = [](void*, uint32_t) {};
    host.to_host = [](void*, uint32_t, const uint8_t*, uint32_t, uint64_t) { return true; };
    model_ = tessera_mailbox_new(&config, &host);
  }
  ~Model() { tessera_mailbox_free(model_); }
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  TesseraMailbox* get() const { return model_; }
  uint8_t* bytes(uint32_t tile, uint32_t bus_address) {
    return scratch_.data() + size_t{tile} * TESSERA_SCRATCH_SIZE +
           (bus_address - TESSERA_SCRATCH_BASE);
  }

 private:
  std::vector<uint8_t> scratch_;
  TesseraMailbox* model_ = nullptr;
};

class Machine {
 public:
  Machine(const TesseraShape& shape, uint32_t ranks, uint32_t buffer_flits, bool untimed)
      : shape_(shape),
        untimed_(untimed),
        boards_(shape.boards_x * shape.boards_y),
        harts_(tessera_num_threads(&shape)),
        per_board_(tessera_threads_per_board(&shape)),
        one_(shape, buffer_flits, nullptr, untimed),
        now_(harts_, 0),
        board_rank_(boards_) {
    // Split as QEMU splits them (models/rank_split.c); ranks <= boards cannot be refused.
    std::vector<TesseraRankRect> rects(ranks);
    (void)tessera_rank_split(shape.boards_x, shape.boards_y, ranks, 0, 0, rects.data());
    tessera_rank_split_boards(rects.data(), ranks, shape.boards_x, board_rank_.data());
    for (uint32_t r = 0; r < ranks; r++) {
      auto local = std::make_unique<bool[]>(boards_);
      for (uint32_t b = 0; b < boards_; b++) {
        local[b] = RankOf(b) == r;
      }
      ranks_.push_back(std::make_unique<Model>(shape, buffer_flits, local.get(), untimed));
      local_.push_back(std::move(local));
    }
  }

  bool ok() const {
    for (const auto& r : ranks_) {
      if (r->get() == nullptr) {
        return false;
      }
    }
    return one_.get() != nullptr;
  }
  uint32_t harts() const { return harts_; }
  uint32_t RankOf(uint32_t board) const { return board_rank_[board]; }
  Model& Owner(uint32_t hart) { return *ranks_[RankOf(hart / per_board_)]; }

  // The same CSR on the one model and on the hart's rank; the answers must agree (untimed: the
  // hart's part alone).
  TesseraAccess Csr(uint32_t hart, uint32_t csr, uint32_t value) {
    if (untimed_) {
      const TesseraAccess b = tessera_mailbox_csr(Owner(hart).get(), hart, csr, value, now_[hart]);
      if (b.status == TESSERA_ACCESS_DONE && b.resume_at > now_[hart]) now_[hart] = b.resume_at;
      return b;
    }
    const TesseraAccess a = tessera_mailbox_csr(one_.get(), hart, csr, value, now_[hart]);
    const TesseraAccess b = tessera_mailbox_csr(Owner(hart).get(), hart, csr, value, now_[hart]);
    FUZZ_CHECK(a.status == b.status && a.value == b.value && a.resume_at == b.resume_at,
               "hart %u csr 0x%x value 0x%x: one model %d/0x%x/%llu, its rank %d/0x%x/%llu", hart,
               csr, value, static_cast<int>(a.status), a.value,
               static_cast<unsigned long long>(a.resume_at), static_cast<int>(b.status), b.value,
               static_cast<unsigned long long>(b.resume_at));
    if (a.status == TESSERA_ACCESS_DONE && a.resume_at > now_[hart]) {
      now_[hart] = a.resume_at;
    }
    return a;
  }

  // Message bytes go into the send slot of both copies of the hart's tile.
  void Fill(uint32_t hart, uint32_t slot_address, uint8_t tag) {
    const uint32_t tile = hart >> tessera_tile_shift(&shape_);
    for (Model* m : {&one_, &Owner(hart)}) {
      memset(m->bytes(tile, slot_address), tag, TESSERA_BYTES_PER_SLOT);
    }
  }

  void Advance(uint32_t hart, uint32_t cycles) { now_[hart] += cycles; }

  // The end of a window on both sides, then everything observable compared.
  void Exchange(uint64_t at) {
    const uint32_t entered_one = untimed_ ? 0 : tessera_mailbox_exchange(one_.get(), at);
    std::vector<std::vector<TesseraMailboxTransit>> transits(ranks_.size());
    std::vector<std::vector<TesseraMailboxCredit>> credits(ranks_.size());
    struct Out {
      Machine* self;
      void* lists;
    };
    Out to_transit{this, &transits};
    Out to_credit{this, &credits};
    for (auto& r : ranks_) {
      tessera_mailbox_take_leaving(
          r->get(),
          [](void* o, const TesseraMailboxTransit* t) {
            auto* out = static_cast<Out*>(o);
            auto* lists = static_cast<std::vector<std::vector<TesseraMailboxTransit>>*>(out->lists);
            (*lists)[out->self->RankOf(t->dest_board)].push_back(*t);
          },
          &to_transit);
    }
    for (size_t r = 0; r < ranks_.size(); r++) {
      for (const auto& t : transits[r]) {
        FUZZ_CHECK(tessera_mailbox_arrive(ranks_[r]->get(), &t), "rank %zu refused a message", r);
      }
    }
    uint32_t entered_ranks = 0;
    for (auto& r : ranks_) {
      entered_ranks += tessera_mailbox_exchange_admit(
          r->get(), at,
          [](void* o, const TesseraMailboxCredit* c) {
            auto* out = static_cast<Out*>(o);
            auto* lists = static_cast<std::vector<std::vector<TesseraMailboxCredit>>*>(out->lists);
            (*lists)[out->self->RankOf(c->src_board)].push_back(*c);
          },
          &to_credit);
    }
    for (size_t r = 0; r < ranks_.size(); r++) {
      for (const auto& c : credits[r]) {
        FUZZ_CHECK(tessera_mailbox_credit(ranks_[r]->get(), &c), "rank %zu refused room", r);
      }
    }
    for (auto& r : ranks_) {
      tessera_mailbox_exchange_refill(r->get(), at);
    }
    IdleWindow();
    if (untimed_) return;
    FUZZ_CHECK(entered_one == entered_ranks, "one model entered %u messages, the ranks %u",
               entered_one, entered_ranks);
    uint32_t waiting_ranks = 0;
    for (auto& r : ranks_) {
      waiting_ranks += tessera_mailbox_outbox_count(r->get());
    }
    FUZZ_CHECK(waiting_ranks == tessera_mailbox_outbox_count(one_.get()),
               "%u messages wait at egresses of the ranks, %u in one model", waiting_ranks,
               tessera_mailbox_outbox_count(one_.get()));
    for (uint32_t h = 0; h < harts_; h++) {
      TesseraMailbox* mine = Owner(h).get();
      FUZZ_CHECK(tessera_mailbox_can_send(one_.get(), h) == tessera_mailbox_can_send(mine, h),
                 "hart %u: can-send differs", h);
      FUZZ_CHECK(tessera_mailbox_can_recv(one_.get(), h) == tessera_mailbox_can_recv(mine, h),
                 "hart %u: can-recv differs", h);
      const TesseraMailboxCounts a = tessera_mailbox_thread_counts(one_.get(), h);
      const TesseraMailboxCounts b = tessera_mailbox_thread_counts(mine, h);
      FUZZ_CHECK(a.received == b.received, "hart %u: received %llu, on its rank %llu", h,
                 static_cast<unsigned long long>(a.received),
                 static_cast<unsigned long long>(b.received));
    }
  }

  // The termination detector's window: the one model with its own part, every rank with all.
  void IdleWindow() {
    const TesseraTermdetReturn* r = nullptr;
    TesseraTermdetNews news{};
    size_t n = 0;
    std::vector<TesseraTermdetReturn> one_returns;
    if (!untimed_) {
      n = tessera_mailbox_idle_window(one_.get(), &r, &news);
      one_returns.assign(r, r + n);
      FUZZ_CHECK(tessera_mailbox_idle_window_end(one_.get(), one_returns.data(), n, &news),
                 "the one model refused its own token returns");
    }
    std::vector<TesseraTermdetReturn> all;
    TesseraTermdetNews sum{};
    for (auto& m : ranks_) {
      n = tessera_mailbox_idle_window(m->get(), &r, &news);
      all.insert(all.end(), r, r + n);
      tessera_termdet_news_add(&sum, &news);
    }
    FUZZ_CHECK(untimed_ || all.size() == one_returns.size(),
               "%zu token returns from the ranks, %zu in one model", all.size(),
               one_returns.size());
    for (auto& m : ranks_) {
      FUZZ_CHECK(tessera_mailbox_idle_window_end(m->get(), all.data(), all.size(), &sum),
                 "a rank refused the token returns of the ranks");
    }
    if (untimed_) return;
    for (uint32_t h = 0; h < harts_; h++) {
      uint32_t ra = 0, rb = 0;
      uint64_t ta = 0, tb = 0;
      const TesseraTermdetHartState a =
          tessera_termdet_hart_state(tessera_mailbox_termdet(one_.get()), h, &ra, &ta);
      const TesseraTermdetHartState b =
          tessera_termdet_hart_state(tessera_mailbox_termdet(Owner(h).get()), h, &rb, &tb);
      FUZZ_CHECK(a == b && ra == rb && ta == tb,
                 "hart %u in idle: one model %d/%u/%llu, its rank %d/%u/%llu", h,
                 static_cast<int>(a), ra, static_cast<unsigned long long>(ta), static_cast<int>(b),
                 rb, static_cast<unsigned long long>(tb));
    }
  }

  // Raw records as another process might send them: taken or refused whole.
  void Foreign(FuzzInput& in) {
    Model& r = *ranks_[in.below(static_cast<uint32_t>(ranks_.size()))];
    const uint32_t before = tessera_mailbox_outbox_count(r.get());
    if (in.flag()) {
      TesseraMailboxTransit t{};
      t.mask = in.flag() ? in.u64() : 0;
      t.sent_at = in.u32();
      t.egress_at = t.sent_at + in.byte();
      t.id = in.u32();
      t.src_hart = in.below(harts_ + 2);
      t.src_id = in.u32();
      t.dest_tile = in.below(harts_ + 2);
      t.dest_thread = in.byte();
      t.dest_board = in.below(boards_ + 1);
      t.flits = in.below(TESSERA_MAX_FLITS + 2);
      const bool taken = tessera_mailbox_arrive(r.get(), &t);
      FUZZ_CHECK(tessera_mailbox_outbox_count(r.get()) == before + (taken ? 1 : 0),
                 "arrive() %s but the egresses hold %u, not %u", taken ? "took it" : "refused",
                 tessera_mailbox_outbox_count(r.get()), before + (taken ? 1 : 0));
      foreign_ = foreign_ || taken;
    } else {
      TesseraMailboxCredit c{in.below(boards_ + 1), in.below(harts_ + 2), in.below(70)};
      foreign_ = tessera_mailbox_credit(r.get(), &c) || foreign_;
    }
  }
  // Once a foreign record was taken, the ranks no longer model the same machine.
  bool foreign() const { return foreign_; }

 private:
  TesseraShape shape_;
  bool untimed_;
  uint32_t boards_, harts_, per_board_;
  Model one_;
  std::vector<std::unique_ptr<Model>> ranks_;
  std::vector<std::unique_ptr<bool[]>> local_;
  std::vector<uint64_t> now_;
  std::vector<uint32_t> board_rank_;
  bool foreign_ = false;
};

uint32_t SlotAddress(const TesseraShape& s, uint32_t hart, uint32_t n) {
  const uint32_t per_tile = tessera_threads_per_tile(&s);
  const uint32_t per_thread = TESSERA_SLOTS_PER_TILE / per_tile;
  return TESSERA_SCRATCH_BASE + ((hart & (per_tile - 1)) * per_thread + n) * TESSERA_BYTES_PER_SLOT;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  TesseraShape s{};
  s.boards_x = 1 + in.below(3);
  s.boards_y = 1 + in.below(2);
  s.tiles_x = 1u << in.below(2);
  s.tiles_y = 1;
  s.cores_per_tile = 1u << in.below(2);
  s.threads_per_core = 1u << in.below(3);
  const uint32_t boards = s.boards_x * s.boards_y;
  if (boards < 2) {
    s.boards_x = 2;
  }
  const uint32_t ranks = 2 + in.below(s.boards_x * s.boards_y - 1);
  const uint32_t buffer = TESSERA_MAX_FLITS + in.below(8);
  const bool untimed = in.below(4) == 0;
  Machine m(s, ranks, buffer, untimed);
  FUZZ_CHECK(m.ok(), "the models refused a machine that the one model takes");
  // Every thread gives its slots but the send slot, on both sides.
  const uint32_t per_thread = TESSERA_SLOTS_PER_TILE / tessera_threads_per_tile(&s);
  for (uint32_t h = 0; h < m.harts(); h++) {
    for (uint32_t n = 1; n < per_thread; n++) {
      m.Csr(h, TESSERA_CSR_FREE, SlotAddress(s, h, n));
    }
  }
  uint64_t at = 0;
  for (int op = 0; op < kMaxOperations && !in.empty(); op++) {
    const uint8_t kind = in.byte();
    const uint32_t h = in.below(m.harts());
    if (kind < 110) {  // a send, if the hart can
      m.Advance(h, in.below(64));
      if (m.Csr(h, TESSERA_CSR_CAN_SEND, 0).value == 0) {
        continue;
      }
      const uint32_t flits = 1 + in.below(TESSERA_MAX_FLITS);
      m.Fill(h, SlotAddress(s, h, 0), kind);
      m.Csr(h, TESSERA_CSR_SEND_LEN, flits - 1);
      m.Csr(h, TESSERA_CSR_SEND_PTR, SlotAddress(s, h, 0));
      const uint32_t dest = tessera_thread_at(&s, in.below(m.harts()));
      if (kind & 1) {
        const uint32_t per_tile = tessera_threads_per_tile(&s);
        const uint64_t mask = (in.u64() | 1) & (per_tile >= 64 ? ~0ull : (1ull << per_tile) - 1);
        m.Csr(h, TESSERA_CSR_MCAST_LO, static_cast<uint32_t>(mask));
        m.Csr(h, TESSERA_CSR_MCAST_HI, static_cast<uint32_t>(mask >> 32));
        m.Csr(h, TESSERA_CSR_MCAST_SEND, dest >> tessera_tile_shift(&s));
      } else {
        m.Csr(h, TESSERA_CSR_SEND, dest);
      }
    } else if (kind < 185) {  // a receive, then the slot back to hardware
      m.Advance(h, in.below(64));
      if (m.Csr(h, TESSERA_CSR_CAN_RECV, 0).value == 0) {
        continue;
      }
      const TesseraAccess got = m.Csr(h, TESSERA_CSR_RECV, 0);
      if (got.status == TESSERA_ACCESS_DONE) {
        m.Csr(h, TESSERA_CSR_FREE, got.value);
      }
    } else if (kind < 215) {  // tinselIdle(vote)
      m.Advance(h, in.below(64));
      m.Csr(h, TESSERA_CSR_WAIT_UNTIL,
            TESSERA_WAIT_IDLE | (kind & 1 ? TESSERA_WAIT_IDLE_VOTE : 0) | TESSERA_WAIT_CAN_RECV);
    } else if (kind < 250) {
      at += 1 + in.below(300);
      m.Exchange(at);
    } else {
      m.Foreign(in);
      if (m.foreign()) {
        return 0;
      }
    }
  }
  return 0;
}
