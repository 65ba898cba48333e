#include "tessera/shake/ring.h"

#include <algorithm>
#include <cstdlib>

namespace tessera::shake {

namespace {

std::vector<std::vector<uint32_t>> neighbours(const Molecule& m) {
  std::vector<std::vector<uint32_t>> adj(m.particles.size());
  for (const Constraint& c : m.constraints) {
    adj[c.i].push_back(c.j);
    adj[c.j].push_back(c.i);
  }
  return adj;
}

// Breadth-first order of the part holding `start`, neighbours by rising degree (Cuthill-McKee);
// `level` receives each reached particle's distance from start.
std::vector<uint32_t> cuthillMcKee(const std::vector<std::vector<uint32_t>>& adj, uint32_t start,
                                   std::vector<uint32_t>* level) {
  std::vector<uint32_t> order{start};
  std::vector<bool> seen(adj.size(), false);
  seen[start] = true;
  (*level)[start] = 0;
  for (size_t head = 0; head < order.size(); head++) {
    const uint32_t p = order[head];
    std::vector<uint32_t> next;
    for (uint32_t q : adj[p]) {
      if (!seen[q]) seen[q] = true, next.push_back(q);
    }
    std::sort(next.begin(), next.end(), [&](uint32_t a, uint32_t b) {
      return adj[a].size() != adj[b].size() ? adj[a].size() < adj[b].size() : a < b;
    });
    for (uint32_t q : next) (*level)[q] = (*level)[p] + 1, order.push_back(q);
  }
  return order;
}

}  // namespace

std::vector<uint32_t> reverseCuthillMcKee(const Molecule& m) {
  const uint32_t n = static_cast<uint32_t>(m.particles.size());
  const auto adj = neighbours(m);
  std::vector<bool> placed(n, false);
  std::vector<uint32_t> level(n, 0), order;
  order.reserve(n);
  for (uint32_t root = 0; root < n; root++) {
    if (placed[root]) continue;
    // A pseudo-peripheral start (George and Liu): move to a particle of least degree among the
    // farthest from the current start while that lengthens the eccentricity.
    uint32_t start = root;
    std::vector<uint32_t> part = cuthillMcKee(adj, start, &level);
    for (;;) {
      const uint32_t depth = level[part.back()];
      uint32_t best = part.back();
      for (uint32_t p : part) {
        if (level[p] == depth && adj[p].size() < adj[best].size()) best = p;
      }
      std::vector<uint32_t> tried = cuthillMcKee(adj, best, &level);
      if (level[tried.back()] <= depth) break;
      start = best;
      part = std::move(tried);
    }
    for (uint32_t p : part) placed[p] = true;
    order.insert(order.end(), part.begin(), part.end());
  }
  std::vector<uint32_t> newIndex(n);
  for (uint32_t k = 0; k < n; k++) newIndex[order[k]] = n - 1 - k;
  return newIndex;
}

Molecule renumber(const Molecule& m, const std::vector<uint32_t>& newIndex) {
  Molecule out;
  out.name = m.name;
  out.particles.resize(m.particles.size());
  for (size_t p = 0; p < m.particles.size(); p++) out.particles[newIndex[p]] = m.particles[p];
  out.constraints = m.constraints;
  for (Constraint& c : out.constraints) c.i = newIndex[c.i], c.j = newIndex[c.j];
  return out;
}

uint32_t bandwidth(const Molecule& m) {
  uint32_t b = 0;
  for (const Constraint& c : m.constraints) b = std::max(b, c.i > c.j ? c.i - c.j : c.j - c.i);
  return b;
}

uint32_t threadOf(uint32_t p, uint32_t n, uint32_t threads) {
  // The largest t with floor(t n / P) <= p.
  return static_cast<uint32_t>((uint64_t{p + 1} * threads - 1) / n);
}

RingLayout layOnRing(const Molecule& m, uint32_t threads) {
  RingLayout r;
  const uint32_t n = static_cast<uint32_t>(m.particles.size());
  if (threads == 0 || n == 0) {
    r.error = errorAt(m.name, 0,
                      "a ring of " + std::to_string(threads) + " threads for " + std::to_string(n) +
                          " particles");
    return r;
  }
  r.threads.resize(threads);
  for (uint32_t t = 0; t < threads; t++) {
    const uint32_t first = static_cast<uint32_t>(uint64_t{t} * n / threads);
    const uint32_t end = static_cast<uint32_t>(uint64_t{t + 1} * n / threads);
    r.threads[t].first = first;
    r.threads[t].count = end - first;
  }
  const Constraint* refused = nullptr;
  uint32_t refusedFrom = 0, refusedTo = 0, refusedApart = 0;
  for (uint32_t k = 0; k < m.constraints.size(); k++) {
    const Constraint& c = m.constraints[k];
    uint32_t a = threadOf(c.i, n, threads), b = threadOf(c.j, n, threads);
    if (a > b) std::swap(a, b);
    const uint32_t apart = std::min(b - a, threads - (b - a));
    r.maxCrossing = std::max(r.maxCrossing, apart);
    if (apart == 0) {
      r.threads[a].lci.push_back(k);
    } else if (apart == 1) {
      // From `low` to its positive neighbour: a to b, or around the ring from P-1 to 0.
      const bool around = b - a != 1;
      const uint32_t low = around ? b : a, high = around ? a : b;
      r.threads[low].pcci.push_back(k);
      r.threads[high].ncci.push_back(k);
    } else if (!refused) {
      refused = &c, refusedFrom = a, refusedTo = b, refusedApart = apart;
    }
  }
  if (refused) {
    r.error = errorAt(
        m.name, refused->line,
        "the constraint between particles " + std::to_string(refused->i) + " and " +
            std::to_string(refused->j) + " joins threads " + std::to_string(refusedFrom) + " and " +
            std::to_string(refusedTo) + " of a ring of " + std::to_string(threads) +
            ", which are not neighbours (crossing distance " + std::to_string(refusedApart) +
            "): renumber the particles or use fewer threads");
    r.threads.clear();
  }
  return r;
}

}  // namespace tessera::shake
