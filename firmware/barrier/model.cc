// The closed forms of model.h, one per barrier. Each follows the algorithm's critical path with
// every member arriving at cycle 0: a message costs o_s at its sender, L on the way and o_r at
// its receiver, and a rank that receives k messages in one step spends k o_r. Latencies come
// from the group's placement: L(d) is the latency from rank 0 to rank min(d, P - 1), the
// typical distance of a partner d ranks away (exact for partners of rank 0 in a group listed
// in mesh order, an estimate for the others).
#include "tessera/barrier/model.h"

#include <stdint.h>

#include "slots.h"
#include "tessera/barrier/algorithms.h"
#include "tessera/barrier/any.h"
#include "tessera/drivers/sysinfo.h"
#include "tessera/models/mesh.h"

namespace tessera::barrier {

MachineTiming MachineTiming::of_this_machine() {
  const drivers::Sysinfo s;
  return {s.shape(), s.timing()};
}

uint64_t mesh_latency(const MachineTiming& t, uint32_t from_id, uint32_t to_id) {
  const TesseraMeshTiming mesh{t.timing.tile_hop_cycles, t.timing.board_hop_cycles};
  uint32_t fx, fy, tx, ty;
  tessera_mesh_tile_of(&t.shape, from_id, &fx, &fy);
  tessera_mesh_tile_of(&t.shape, to_id, &tx, &ty);
  return tessera_mesh_latency(&t.shape, &mesh, fx, fy, tx, ty);
}

namespace {

class Model {
 public:
  Model(const Group& group, const MachineTiming& t)
      : group_(group),
        t_(t),
        p_(group.size()),
        os_(uint64_t{ModelInstructions::kSend} * t.timing.cpi),
        or_(uint64_t{ModelInstructions::kReceive} * t.timing.cpi),
        episode_(uint64_t{ModelInstructions::kEpisode} * t.timing.cpi) {}

  // L(d): rank 0 to rank min(d, P - 1).
  uint64_t latency(uint64_t d) const {
    const uint32_t to = d < p_ ? static_cast<uint32_t>(d) : p_ - 1;
    return mesh_latency(t_, group_.member(0), group_.member(to));
  }
  // One message of a round whose partners are d ranks apart.
  uint64_t hop(uint64_t d) const { return os_ + latency(d) + or_; }

  uint64_t central() const {
    const uint64_t far = latency(p_ - 1);
    return os_ + far + (p_ - 1) * or_ + (p_ - 1) * os_ + far + or_;
  }
  // Gathers up an f-ary tree: one level per power of f, f - 1 receives at each.
  uint64_t gather(uint32_t f) const {
    uint64_t cost = 0;
    for (uint64_t s = 1; s < p_; s *= f) {
      cost += os_ + latency(s) + (f - 1) * or_;
    }
    return cost;
  }
  // Releases down the same tree: the first message of each level on the critical path, the
  // f - 2 sends before the last child's.
  uint64_t release(uint32_t f) const {
    uint64_t cost = 0;
    for (uint64_t s = 1; s < p_; s *= f) {
      cost += (f - 1) * os_ + latency(s) + or_;
    }
    return cost;
  }
  uint64_t combining_tree(uint32_t f) const {
    return gather(f) + (p_ - 1) * os_ + latency(p_ - 1) + or_;
  }
  uint64_t mcs() const {
    uint64_t down = 0;
    for (uint64_t s = 1; s < p_; s *= 2) {
      down += os_ + latency(s) + or_;
    }
    return gather(4) + down + (p_ > 2 ? os_ : 0);
  }
  uint64_t log_rounds(uint32_t rounds, uint64_t extra_per_round) const {
    uint64_t cost = 0;
    for (uint32_t k = 0; k < rounds; k++) {
      cost += hop(uint64_t{1} << k) + extra_per_round;
    }
    return cost;
  }
  uint64_t butterfly() const {
    const uint32_t rounds = slots::log2_ceil(p_);
    const bool power_of_two = (p_ & (p_ - 1)) == 0;
    // A rank that plays two virtual ranks sends and receives twice per round.
    return log_rounds(rounds, power_of_two ? 0 : os_ + or_);
  }
  uint64_t pairwise() const {
    const uint32_t rounds = slots::log2_floor(p_);
    const uint64_t m = uint64_t{1} << rounds;
    return log_rounds(rounds, 0) + (p_ > m ? 2 * hop(m) : 0);
  }
  uint64_t gather_broadcast() const {
    const TesseraShape& s = t_.shape;
    const uint64_t per_tile = tessera_threads_per_tile(&s);
    const uint64_t per_board = tessera_threads_per_board(&s);
    const uint64_t boards = (p_ + per_board - 1) / per_board;
    const uint64_t tiles = (p_ < per_board ? (p_ + per_tile - 1) : per_board) / per_tile;
    const uint64_t far = latency(p_ - 1);
    const uint64_t gather = os_ + far + (p_ - 1) * or_;
    const uint64_t to_leaders = boards > 1 ? (boards - 1) * os_ + far + or_ : 0;
    return gather + to_leaders + tiles * os_ + latency(per_tile) + or_;
  }

  uint64_t controller() const {
    // Every member's request reaches the controller; the last one releases them all.
    const TesseraMeshTiming mesh{t_.timing.tile_hop_cycles, t_.timing.board_hop_cycles};
    uint64_t farthest = 0;
    for (uint32_t r = 0; r < p_; r++) {
      uint32_t x, y;
      tessera_mesh_tile_of(&t_.shape, group_.member(r), &x, &y);
      const uint64_t l = tessera_mesh_latency(&t_.shape, &mesh, x, y, t_.timing.barrier_tile_x,
                                              t_.timing.barrier_tile_y);
      farthest = l > farthest ? l : farthest;
    }
    return 2 * farthest + uint64_t{ModelInstructions::kController} * t_.timing.cpi;
  }
  uint64_t reflex() const {
    // The root's flit round the ring, then the release round it: two hops per member.
    return 2 * uint64_t{p_} * t_.timing.reflex_hop_cycles +
           uint64_t{ModelInstructions::kReflex} * t_.timing.cpi;
  }
  uint64_t ocbus() const {
    return 3 * uint64_t{t_.timing.ocbus_settle_cycles} +
           uint64_t{ModelInstructions::kOcBus} * t_.timing.cpi;
  }
  uint64_t idle() const {
    // Detect, release, re-enable: three round trips of the master at the origin board.
    const uint64_t boards = uint64_t{t_.shape.boards_x} * t_.shape.boards_y;
    const uint64_t hops = boards > 1 ? t_.shape.boards_x + t_.shape.boards_y - 1 : 0;
    return 3 * 2 * uint64_t{t_.timing.board_hop_cycles} * hops +
           uint64_t{ModelInstructions::kIdle} * t_.timing.cpi;
  }

  uint64_t software(const char* name, uint32_t param) const {
    if (p_ == 1) {
      return episode_;
    }
    const uint32_t rounds = slots::log2_ceil(p_);
    uint64_t cost = 0;
    if (names_equal(name, "central")) {
      cost = central();
    } else if (names_equal(name, "combining-tree")) {
      cost = combining_tree(param);
    } else if (names_equal(name, "tournament") || names_equal(name, "binomial")) {
      cost = gather(2) + release(2);
    } else if (names_equal(name, "f-way-tournament")) {
      cost = gather(param) + release(param);
    } else if (names_equal(name, "mcs")) {
      cost = mcs();
    } else if (names_equal(name, "butterfly")) {
      cost = butterfly();
    } else if (names_equal(name, "pairwise")) {
      cost = pairwise();
    } else if (names_equal(name, "dissemination")) {
      cost = log_rounds(rounds, 0);
    } else if (names_equal(name, "gather-broadcast")) {
      cost = gather_broadcast();
    } else {
      return 0;
    }
    return episode_ + cost;
  }

 private:
  const Group& group_;
  const MachineTiming& t_;
  uint32_t p_;
  uint64_t os_;
  uint64_t or_;
  uint64_t episode_;
};

}  // namespace

uint64_t predict_cycles(const char* name, const Group& group, const MachineTiming& t) {
  if (group.size() == 0) {
    return 0;
  }
  const Model model(group, t);
  if (const SoftwareAlgorithm* a = find_software_algorithm(name); a != nullptr) {
    return model.software(a->name, a->param);
  }
  if (names_equal(name, "idle")) {
    return group.is_all() ? model.idle() : 0;
  }
  if (names_equal(name, "ocbus")) {
    return model.ocbus();
  }
  if (names_equal(name, "reflex")) {
    return model.reflex();
  }
  if (names_equal(name, "controller")) {
    return model.controller();
  }
  return 0;
}

const char* choose_barrier(const Group& group, const MachineTiming& t) {
  const char* best = kSoftwareAlgorithms[0].name;
  uint64_t best_cycles = UINT64_MAX;
  for (const SoftwareAlgorithm& a : kSoftwareAlgorithms) {
    const uint64_t cycles = predict_cycles(a.name, group, t);
    if (cycles != 0 && cycles < best_cycles) {
      best = a.name;
      best_cycles = cycles;
    }
  }
  return best;
}

const char* choose_barrier(const Group& group) {
  return choose_barrier(group, MachineTiming::of_this_machine());
}

}  // namespace tessera::barrier
