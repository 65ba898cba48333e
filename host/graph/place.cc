#include "tessera/graph/place.h"

#include <metis.h>

#include <algorithm>
#include <numeric>

namespace tessera::graph {

namespace {

// An undirected graph with weighted edges, in METIS's compressed form: the neighbours of v are
// adjncy[xadj[v] .. xadj[v + 1]), each with its weight in adjwgt.
struct Csr {
  std::vector<idx_t> xadj, adjncy, adjwgt;
  uint32_t vertices() const { return static_cast<uint32_t>(xadj.size() - 1); }
};

// Pairs of vertices joined by one or more edges, either way; self-loops dropped.
Csr undirected(const Graph& g) {
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  pairs.reserve(2 * g.edges.size());
  for (const Edge& e : g.edges) {
    if (e.from == e.to) continue;
    pairs.emplace_back(e.from, e.to);
    pairs.emplace_back(e.to, e.from);
  }
  std::sort(pairs.begin(), pairs.end());
  Csr c;
  c.xadj.assign(g.vertices + 1, 0);
  for (size_t i = 0; i < pairs.size();) {
    size_t j = i;
    while (j < pairs.size() && pairs[j] == pairs[i]) j++;
    c.adjncy.push_back(static_cast<idx_t>(pairs[i].second));
    c.adjwgt.push_back(static_cast<idx_t>(j - i));
    c.xadj[pairs[i].first + 1]++;
    i = j;
  }
  std::partial_sum(c.xadj.begin(), c.xadj.end(), c.xadj.begin());
  return c;
}

// The subgraph induced by `members` (global ids), renumbered 0..members-1 in their order.
// `local` maps global ids to local ones; it is all -1 before and after.
Csr induced(const Csr& g, const std::vector<uint32_t>& members, std::vector<idx_t>& local) {
  for (size_t i = 0; i < members.size(); i++) local[members[i]] = static_cast<idx_t>(i);
  Csr s;
  s.xadj.push_back(0);
  for (uint32_t v : members) {
    for (idx_t k = g.xadj[v]; k < g.xadj[v + 1]; k++) {
      const idx_t u = local[static_cast<size_t>(g.adjncy[k])];
      if (u < 0) continue;
      s.adjncy.push_back(u);
      s.adjwgt.push_back(g.adjwgt[k]);
    }
    s.xadj.push_back(static_cast<idx_t>(s.adjncy.size()));
  }
  for (uint32_t v : members) local[v] = -1;
  return s;
}

// Moves vertices out of parts above `capacity` into parts below it, most connected destination
// first, until none is above. The parts' total must fit (parts * capacity >= vertices).
void evenOut(const Csr& g, uint32_t parts, uint32_t capacity, std::vector<idx_t>& part) {
  std::vector<uint32_t> count(parts, 0);
  for (idx_t p : part) count[static_cast<size_t>(p)]++;
  const auto over = [&] {
    return std::any_of(count.begin(), count.end(), [&](uint32_t c) { return c > capacity; });
  };
  struct Move {
    int64_t gain;  // cut weight saved (negative: added)
    uint32_t vertex, to;
  };
  std::vector<int64_t> link(parts, 0);  // weight from one vertex to each part
  while (over()) {
    // The part with the most room takes vertices whose neighbours have none.
    const uint32_t roomiest =
        static_cast<uint32_t>(std::min_element(count.begin(), count.end()) - count.begin());
    std::vector<Move> moves;
    for (uint32_t v = 0; v < g.vertices(); v++) {
      const uint32_t from = static_cast<uint32_t>(part[v]);
      if (count[from] <= capacity) continue;
      for (idx_t k = g.xadj[v]; k < g.xadj[v + 1]; k++) {
        link[static_cast<size_t>(part[static_cast<size_t>(g.adjncy[k])])] += g.adjwgt[k];
      }
      Move best = {link[roomiest] - link[from], v, roomiest};
      for (idx_t k = g.xadj[v]; k < g.xadj[v + 1]; k++) {
        const uint32_t to = static_cast<uint32_t>(part[static_cast<size_t>(g.adjncy[k])]);
        if (to != from && count[to] < capacity && link[to] - link[from] > best.gain) {
          best = {link[to] - link[from], v, to};
        }
      }
      for (idx_t k = g.xadj[v]; k < g.xadj[v + 1]; k++) {
        link[static_cast<size_t>(part[static_cast<size_t>(g.adjncy[k])])] = 0;
      }
      moves.push_back(best);
    }
    std::stable_sort(moves.begin(), moves.end(),
                     [](const Move& a, const Move& b) { return a.gain > b.gain; });
    // Gains were counted before any move; the next round recounts for what is left.
    for (const Move& m : moves) {
      const uint32_t from = static_cast<uint32_t>(part[m.vertex]);
      if (count[from] <= capacity || count[m.to] >= capacity) continue;
      part[m.vertex] = static_cast<idx_t>(m.to);
      count[from]--;
      count[m.to]++;
    }
  }
}

// Cuts g into `parts` parts of at most `capacity` vertices each, fewest cut edges first; METIS
// keeps the best of `tries` cuts.
bool cut(Csr& g, uint32_t parts, uint32_t capacity, uint32_t tries, std::vector<idx_t>& part,
         std::string* error) {
  const uint32_t n = g.vertices();
  part.assign(n, 0);
  if (parts == 1 || n == 0) return true;
  if (n <= parts || g.adjncy.empty()) {
    // METIS wants more vertices than parts; and with no edges only balance matters.
    for (uint32_t v = 0; v < n; v++) part[v] = static_cast<idx_t>(uint64_t{v} * parts / n);
    evenOut(g, parts, capacity, part);
    return true;
  }
  idx_t nvtxs = static_cast<idx_t>(n), ncon = 1, nparts = static_cast<idx_t>(parts), objval = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 1;  // the same placement every run
  options[METIS_OPTION_NCUTS] = static_cast<idx_t>(tries);
  // Tinsel's placer found METIS_PartGraphKway poor when parts are nearly as many as vertices,
  // as they are at the thread level.
  const int status = METIS_PartGraphRecursive(&nvtxs, &ncon, g.xadj.data(), g.adjncy.data(),
                                              nullptr, nullptr, g.adjwgt.data(), &nparts, nullptr,
                                              nullptr, options, &objval, part.data());
  if (status != METIS_OK) {
    *error = "METIS_PartGraphRecursive failed (" + std::to_string(status) + ") on " +
             std::to_string(n) + " vertices into " + std::to_string(parts) + " parts";
    return false;
  }
  evenOut(g, parts, capacity, part);
  return true;
}

}  // namespace

uint32_t threadCapacity(uint32_t vertices, uint32_t threads) {
  const uint64_t even = (uint64_t{vertices} + threads - 1) / threads;
  return static_cast<uint32_t>(even + uint64_t{vertices} * 3 / (100 * uint64_t{threads}));
}

std::vector<uint32_t> placeBlocks(uint32_t vertices, const TesseraShape& shape) {
  const uint32_t threads = tessera_num_threads(&shape);
  const uint32_t perThread = (vertices + threads - 1) / threads;
  std::vector<uint32_t> threadOf(vertices);
  for (uint32_t v = 0; v < vertices; v++) threadOf[v] = v / perThread;
  return threadOf;
}

PlaceResult placeMetis(const Graph& g, const TesseraShape& shape) {
  PlaceResult r;
  if (2 * g.edges.size() > static_cast<size_t>(INT32_MAX)) {
    r.error = std::to_string(g.edges.size()) + " edges: more than METIS's 32-bit indices hold";
    return r;
  }
  const uint32_t threads = tessera_num_threads(&shape);
  const uint32_t capacity = threadCapacity(g.vertices, threads);
  Csr whole = undirected(g);
  // The levels, from the machine down: parts at each, the threads in one part, and METIS's tries.
  // Edges across boards cost the most, and that cut is one call on the whole graph: the best of
  // 8 cuts there takes 17 % fewer (20,000 vertices on 3 boards: 13,786 rather than 16,226).
  const uint32_t perTile = tessera_threads_per_tile(&shape);
  const uint32_t perBoard = tessera_threads_per_board(&shape);
  const uint32_t levels[3][3] = {{shape.boards_x * shape.boards_y, perBoard, 8},
                                 {perBoard / perTile, perTile, 1},
                                 {perTile, 1, 1}};

  // Groups of vertices still to cut, each with the dense index of its first thread.
  struct Group {
    std::vector<uint32_t> members;
    uint32_t firstThread;
  };
  std::vector<Group> groups(1);
  groups[0].members.resize(g.vertices);
  std::iota(groups[0].members.begin(), groups[0].members.end(), 0u);
  groups[0].firstThread = 0;
  std::vector<idx_t> local(g.vertices, -1), part;
  for (const auto& [parts, threadsPerPart, tries] : levels) {
    std::vector<Group> next;
    for (const Group& group : groups) {
      Csr sub = induced(whole, group.members, local);
      if (!cut(sub, parts, capacity * threadsPerPart, tries, part, &r.error)) return r;
      std::vector<Group> children(parts);
      for (uint32_t p = 0; p < parts; p++)
        children[p].firstThread = group.firstThread + p * threadsPerPart;
      for (size_t i = 0; i < group.members.size(); i++) {
        children[static_cast<size_t>(part[i])].members.push_back(group.members[i]);
      }
      for (Group& child : children) {
        if (!child.members.empty()) next.push_back(std::move(child));
      }
    }
    groups = std::move(next);
  }
  r.threadOf.assign(g.vertices, 0);
  for (const Group& group : groups) {
    for (uint32_t v : group.members) r.threadOf[v] = group.firstThread;
  }
  return r;
}

Cut cutOf(const Graph& g, const TesseraShape& shape, const std::vector<uint32_t>& threadOf) {
  const uint32_t perTile = tessera_threads_per_tile(&shape);
  const uint32_t perBoard = tessera_threads_per_board(&shape);
  Cut c;
  for (const Edge& e : g.edges) {
    const uint32_t a = threadOf[e.from], b = threadOf[e.to];
    c.edges[a == b ? 0 : a / perTile == b / perTile ? 1 : a / perBoard == b / perBoard ? 2 : 3]++;
  }
  return c;
}

}  // namespace tessera::graph
