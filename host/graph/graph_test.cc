// The graph library: the geometric generator's promises (deterministic, connected, local, ids
// that follow space), every reader error with its file and line, Matrix Market's variants, the
// writers read back (ours and Tinsel's format), reverse edges, Tinsel's EdgeList over them, and
// placement (balance, METIS against blocks).
#include <EdgeList.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <queue>
#include <random>

#include "tessera/graph/geometric.h"
#include "tessera/graph/place.h"
#include "tessera/graph/read.h"
#include "tessera/graph/reverse.h"

namespace {

using tessera::graph::Edge;
using tessera::graph::GeometricParams;
using tessera::graph::Graph;

bool SameEdges(const Graph& a, const Graph& b) {
  if (a.vertices != b.vertices || a.edges.size() != b.edges.size()) return false;
  for (size_t i = 0; i < a.edges.size(); i++) {
    if (a.edges[i].from != b.edges[i].from || a.edges[i].to != b.edges[i].to ||
        a.edges[i].weight != b.edges[i].weight) {
      return false;
    }
  }
  return true;
}

TEST(Geometric, TheSameSeedGivesTheSameGraphAndAnotherSeedAnother) {
  GeometricParams p;
  p.vertices = 2000;
  p.seed = 5;
  const Graph a = tessera::graph::geometric(p), b = tessera::graph::geometric(p);
  EXPECT_TRUE(SameEdges(a, b));
  p.seed = 6;
  EXPECT_FALSE(SameEdges(a, tessera::graph::geometric(p)));
}

TEST(Geometric, EveryVertexReachesEveryOther) {
  GeometricParams p;
  p.vertices = 3000;
  const Graph g = tessera::graph::geometric(p);
  ASSERT_EQ(g.vertices, 3000u);
  const auto out = g.outEdges();
  std::vector<bool> seen(g.vertices, false);
  std::queue<uint32_t> frontier;
  frontier.push(1234);
  seen[1234] = true;
  uint32_t reached = 1;
  while (!frontier.empty()) {
    const uint32_t v = frontier.front();
    frontier.pop();
    for (const Edge& e : out[v]) {
      if (!seen[e.to]) {
        seen[e.to] = true;
        reached++;
        frontier.push(e.to);
      }
    }
  }
  EXPECT_EQ(reached, g.vertices);
}

// Mean |from - to| of the edges other than the ring's.
double MeanIdDistance(const Graph& g) {
  double total = 0;
  uint64_t n = 0;
  for (const Edge& e : g.edges) {
    if (e.to == (e.from + 1) % g.vertices) continue;
    total += e.from > e.to ? e.from - e.to : e.to - e.from;
    n++;
  }
  return total / static_cast<double>(n);
}

TEST(Geometric, LocalityKeepsEdgesBetweenNearbyIds) {
  GeometricParams p;
  p.vertices = 10000;
  p.localityPerMille = 1000;
  const double local = MeanIdDistance(tessera::graph::geometric(p));
  p.localityPerMille = 0;
  const double random = MeanIdDistance(tessera::graph::geometric(p));
  // A random edge spans a third of the ids on average; a local one, along the Z-order curve,
  // a small fraction of that.
  EXPECT_GT(random, 3000);
  EXPECT_LT(local, random / 10) << "local " << local << ", random " << random;
}

TEST(Geometric, DegreeWeightsAndDirection) {
  GeometricParams p;
  p.vertices = 1000;
  p.degree = 6;
  p.maxWeight = 7;
  const Graph g = tessera::graph::geometric(p);
  EXPECT_GE(g.edges.size(), 1000u * 6);  // the ring, and 6 more less the self-loops skipped
  EXPECT_LE(g.edges.size(), 1000u * 7);
  for (const Edge& e : g.edges) {
    EXPECT_NE(e.from, e.to);
    EXPECT_GE(e.weight, 1);
    EXPECT_LE(e.weight, 7);
  }
  p.undirected = true;
  const Graph u = tessera::graph::geometric(p);
  ASSERT_EQ(u.edges.size() % 2, 0u);
  for (size_t i = 0; i < u.edges.size(); i += 2) {
    EXPECT_EQ(u.edges[i].from, u.edges[i + 1].to);
    EXPECT_EQ(u.edges[i].to, u.edges[i + 1].from);
  }
}

TEST(Geometric, ImpossibleParametersGiveNoGraph) {
  GeometricParams p;
  p.vertices = 0;
  EXPECT_EQ(tessera::graph::geometric(p).vertices, 0u);
  p.vertices = 10;
  p.localityPerMille = 1001;
  EXPECT_EQ(tessera::graph::geometric(p).vertices, 0u);
}

// The shapes the vertex apps run on (apps/vertex/mesh-3x1.props) and Tinsel's six boards
// (boards/tessera/cluster-3x2.props).
const TesseraShape kMesh3x1 = {3, 1, 2, 2, 2, 4};      // 96 threads, 8 per tile
const TesseraShape kCluster3x2 = {3, 2, 4, 4, 4, 16};  // 6,144 threads, 64 per tile
const TesseraShape kOddShape = {5, 3, 2, 1, 1, 2};     // 60 threads, 2 per tile

// The same graph with its ids in a random order: what blocks cannot use and METIS does not need.
Graph Shuffled(const Graph& g, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> id(g.vertices);
  for (uint32_t v = 0; v < g.vertices; v++) id[v] = v;
  for (uint32_t v = g.vertices; v > 1; v--) std::swap(id[v - 1], id[rng() % v]);
  Graph s = g;
  for (Edge& e : s.edges) e = {id[e.from], id[e.to], e.weight};
  return s;
}

// Checks a placement holds every vertex on a thread of the shape, none above threadCapacity.
void ExpectBalanced(const std::vector<uint32_t>& threadOf, uint32_t vertices,
                    const TesseraShape& shape) {
  const uint32_t threads = tessera_num_threads(&shape);
  ASSERT_EQ(threadOf.size(), vertices);
  std::vector<uint32_t> count(threads, 0);
  for (uint32_t t : threadOf) {
    ASSERT_LT(t, threads);
    count[t]++;
  }
  const uint32_t most = *std::max_element(count.begin(), count.end());
  EXPECT_LE(most, tessera::graph::threadCapacity(vertices, threads))
      << vertices << " vertices on " << threads << " threads";
}

TEST(Placement, ThreadCapacityIsTheEvenShareAndThreePerCentAbove33) {
  EXPECT_EQ(tessera::graph::threadCapacity(96, 96), 1u);
  EXPECT_EQ(tessera::graph::threadCapacity(97, 96), 2u);
  EXPECT_EQ(tessera::graph::threadCapacity(3000, 96), 32u);     // 31.25: no slack yet
  EXPECT_EQ(tessera::graph::threadCapacity(20000, 6144), 4u);   // 3.26
  EXPECT_EQ(tessera::graph::threadCapacity(96000, 96), 1030u);  // 1000 and 3 %
  EXPECT_EQ(tessera::graph::threadCapacity(5, 96), 1u);
}

TEST(Placement, BlocksFillThreadsInDenseOrder) {
  const std::vector<uint32_t> t = tessera::graph::placeBlocks(200, kMesh3x1);  // 3 a thread
  ExpectBalanced(t, 200, kMesh3x1);
  EXPECT_EQ(t[0], 0u);
  EXPECT_EQ(t[2], 0u);
  EXPECT_EQ(t[3], 1u);
  EXPECT_EQ(t[199], 66u);
}

TEST(Placement, MetisKeepsEveryThreadWithinItsCapacity) {
  GeometricParams p;
  for (const TesseraShape& shape : {kMesh3x1, kOddShape, kCluster3x2}) {
    const uint32_t threads = tessera_num_threads(&shape);
    // Fewer vertices than threads, exactly one a thread, an even multiple, and an uneven one.
    for (uint32_t n : {threads / 3, threads, threads * 2, threads * 3 + 5}) {
      p.vertices = n;
      const auto r = tessera::graph::placeMetis(Shuffled(tessera::graph::geometric(p), 2), shape);
      ASSERT_TRUE(r.ok()) << r.error;
      ExpectBalanced(r.threadOf, n, shape);
    }
  }
  // A graph without edges is only balanced.
  Graph none;
  none.vertices = 500;
  const auto r = tessera::graph::placeMetis(none, kMesh3x1);
  ASSERT_TRUE(r.ok()) << r.error;
  ExpectBalanced(r.threadOf, 500, kMesh3x1);
}

TEST(Placement, MetisGivesTheSamePlacementEveryTime) {
  GeometricParams p;
  p.vertices = 3000;
  const Graph g = Shuffled(tessera::graph::geometric(p), 4);
  EXPECT_EQ(tessera::graph::placeMetis(g, kMesh3x1).threadOf,
            tessera::graph::placeMetis(g, kMesh3x1).threadOf);
}

std::string Figures(const tessera::graph::Cut& c) {
  return std::to_string(c.edges[0]) + " / " + std::to_string(c.edges[1]) + " / " +
         std::to_string(c.edges[2]) + " / " + std::to_string(c.edges[3]);
}

// The figures docs/vertex-api.md quotes: a 20,000-vertex geometric graph (degree 4, undirected,
// 200,000 edges, as ./tessera demo runs) with its ids shuffled and as generated, on the apps'
// shape and on Tinsel's six boards.
TEST(Placement, MetisCutsFewerEdgesAcrossBoardsThanBlocks) {
  GeometricParams p;
  p.vertices = 20000;
  p.undirected = true;
  const Graph generated = tessera::graph::geometric(p);
  const Graph shuffled = Shuffled(generated, 7);
  for (const TesseraShape& shape : {kMesh3x1, kCluster3x2}) {
    for (const Graph* g : {&shuffled, &generated}) {
      const auto metis = tessera::graph::placeMetis(*g, shape);
      ASSERT_TRUE(metis.ok()) << metis.error;
      ExpectBalanced(metis.threadOf, g->vertices, shape);
      const auto m = tessera::graph::cutOf(*g, shape, metis.threadOf);
      const auto b =
          tessera::graph::cutOf(*g, shape, tessera::graph::placeBlocks(g->vertices, shape));
      printf(
          "%u threads, %s ids; edges within a thread / a tile / a board / across boards: "
          "blocks %s, METIS %s\n",
          tessera_num_threads(&shape), g == &shuffled ? "shuffled" : "generated",
          Figures(b).c_str(), Figures(m).c_str());
      uint64_t total = 0;
      for (uint64_t level : m.edges) total += level;
      EXPECT_EQ(total, g->edges.size());
      if (g == &shuffled) {
        // Blocks of shuffled ids cut nearly every edge; METIS keeps most within a board.
        EXPECT_LT(m.edges[3] * 4, b.edges[3]);
        EXPECT_LT(m.edges[2] + m.edges[3], b.edges[2] + b.edges[3]);
      }
      // Ids along the Z-order curve already give blocks good cuts, and a tenth of the edges go
      // anywhere (on 3 boards about 10,700 of them cross, however the vertices lie): METIS comes
      // close, within a tenth.
      EXPECT_LT(m.edges[3] * 10, b.edges[3] * 11);
    }
  }
}

TEST(EdgeListReader, ReadsPairsWeightsAndComments) {
  const auto r =
      tessera::graph::readEdgeList("# a comment\n0 1\n\n% another\n1 2 -5\n7 0 3\n", "g");
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.graph.vertices, 8u);
  ASSERT_EQ(r.graph.edges.size(), 3u);
  EXPECT_EQ(r.graph.edges[0].weight, 1);
  EXPECT_EQ(r.graph.edges[1].weight, -5);
  EXPECT_EQ(r.graph.edges[2].from, 7u);
}

TEST(EdgeListReader, RefusesBadLinesWithFileAndLine) {
  const auto error = [](const std::string& text) {
    return tessera::graph::readEdgeList(text, "edges.txt").error;
  };
  EXPECT_EQ(error("0 1\n2\n"), "edges.txt:2: expected \"src dst [weight]\", found 1 fields");
  EXPECT_EQ(error("0 1 2 3\n"), "edges.txt:1: expected \"src dst [weight]\", found 4 fields");
  EXPECT_EQ(error("0 1\n-1 2\n"), "edges.txt:2: source '-1' is not a vertex id (0..4294967294)");
  EXPECT_EQ(error("0 x\n"), "edges.txt:1: destination 'x' is not a vertex id (0..4294967294)");
  EXPECT_EQ(error("0 4294967295\n"),
            "edges.txt:1: destination '4294967295' is not a vertex id (0..4294967294)");
  EXPECT_EQ(error("0 1 2.5\n"), "edges.txt:1: weight '2.5' is not a 32-bit integer");
  EXPECT_EQ(error("0 1 3000000000\n"), "edges.txt:1: weight '3000000000' is not a 32-bit integer");
  EXPECT_EQ(error("# nothing\n\n"), "edges.txt:2: no edges");
  EXPECT_EQ(error(""), "edges.txt:0: no edges");
}

TEST(MatrixMarketReader, GeneralSymmetricPatternAndReal) {
  const auto general = tessera::graph::readMatrixMarket(
      "%%MatrixMarket matrix coordinate integer general\n% c\n3 3 2\n1 2 5\n3 1 -2\n", "m");
  ASSERT_TRUE(general.ok()) << general.error;
  EXPECT_EQ(general.graph.vertices, 3u);
  ASSERT_EQ(general.graph.edges.size(), 2u);
  EXPECT_EQ(general.graph.edges[0].from, 0u);
  EXPECT_EQ(general.graph.edges[0].to, 1u);
  EXPECT_EQ(general.graph.edges[1].weight, -2);

  const auto symmetric = tessera::graph::readMatrixMarket(
      "%%MatrixMarket matrix coordinate pattern symmetric\n4 4 3\n2 1\n3 3\n4 2\n", "m");
  ASSERT_TRUE(symmetric.ok()) << symmetric.error;
  EXPECT_EQ(symmetric.graph.edges.size(), 5u);  // the diagonal entry once

  const auto real = tessera::graph::readMatrixMarket(
      "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 2.5\n2 1 -0.4\n", "m");
  ASSERT_TRUE(real.ok()) << real.error;
  EXPECT_EQ(real.graph.edges[0].weight, 2);  // rounded to the nearest, ties to even
  EXPECT_EQ(real.graph.edges[1].weight, 0);
}

TEST(MatrixMarketReader, RefusesBadFilesWithFileAndLine) {
  const auto error = [](const std::string& text) {
    return tessera::graph::readMatrixMarket(text, "m.mtx").error;
  };
  const std::string head = "%%MatrixMarket matrix coordinate integer general\n";
  EXPECT_EQ(error("%%MatrixMarket matrix array real general\n"),
            "m.mtx:1: expected \"%%MatrixMarket matrix coordinate <field> <symmetry>\"");
  EXPECT_EQ(error("%%MatrixMarket matrix coordinate complex general\n"),
            "m.mtx:1: field 'complex' is not pattern, integer or real");
  EXPECT_EQ(error("%%MatrixMarket matrix coordinate real hermitian\n"),
            "m.mtx:1: symmetry 'hermitian' is not general or symmetric");
  EXPECT_EQ(error(head + "3 4 1\n"),
            "m.mtx:2: a 3x4 matrix is not a graph's adjacency: it must be square");
  EXPECT_EQ(error(head + "% only comments\n"), "m.mtx:2: no size line");
  EXPECT_EQ(error(head + "3 3\n"), "m.mtx:2: expected the size line \"rows columns entries\"");
  EXPECT_EQ(error(head + "0 0 0\n"), "m.mtx:2: a graph of 0 vertices");
  EXPECT_EQ(error(head + "3 3 1\n4 1 1\n"), "m.mtx:3: row '4' is not in 1..3");
  EXPECT_EQ(error(head + "3 3 1\n1 0 1\n"), "m.mtx:3: column '0' is not in 1..3");
  EXPECT_EQ(error(head + "3 3 1\n1 2\n"),
            "m.mtx:3: expected \"i j value\" (integer), found 2 fields");
  EXPECT_EQ(error(head + "3 3 1\n1 2 x\n"), "m.mtx:3: value 'x' is not a 32-bit integer");
  EXPECT_EQ(error(head + "3 3 1\n1 2 1\n2 3 1\n"),
            "m.mtx:4: more entries than the 1 the size line gives");
  EXPECT_EQ(error(head + "3 3 2\n1 2 1\n"),
            "m.mtx:3: the size line gives 2 entries, the file has 1");
  EXPECT_EQ(error("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 inf\n"),
            "m.mtx:3: value 'inf' is not a finite number within 32 bits");
}

TEST(GraphFiles, TheWriterIsReadBackAndAMissingFileIsNamed) {
  GeometricParams p;
  p.vertices = 300;
  const Graph g = tessera::graph::geometric(p);
  const std::string path = testing::TempDir() + "graph_test_edges.txt";
  std::ofstream(path) << tessera::graph::edgeListText(g);
  const auto r = tessera::graph::readGraphFile(path);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_TRUE(SameEdges(g, r.graph));
  remove(path.c_str());
  EXPECT_EQ(tessera::graph::readGraphFile("/no/such/graph").error,
            "/no/such/graph: No such file or directory");
}

TEST(GraphFiles, TinselsFormatIsBarePairsAndReadsBackWeighingOne) {
  Graph g;
  g.vertices = 3;
  g.edges = {{0, 1, 5}, {2, 0, -3}};
  const std::string text = tessera::graph::tinselEdgeListText(g);
  EXPECT_EQ(text, "0 1\n2 0\n");
  const auto r = tessera::graph::readEdgeList(text, "tinsel.txt");
  ASSERT_TRUE(r.ok()) << r.error;
  for (Edge& e : g.edges) e.weight = 1;
  EXPECT_TRUE(SameEdges(g, r.graph));
}

TEST(ReverseEdges, CountedAndAddedOncePerMissingPair) {
  Graph g;
  g.vertices = 4;
  g.edges = {{0, 1, 5}, {0, 1, 6}, {1, 2, 1}, {2, 1, 1}, {3, 3, 2}, {3, 0, 4}};
  EXPECT_EQ(tessera::graph::edgesWithoutReverse(g), 3u);  // both 0 -> 1, and 3 -> 0
  const Graph both = tessera::graph::withReverseEdges(g);
  ASSERT_EQ(both.edges.size(), 8u);
  EXPECT_TRUE(std::equal(g.edges.begin(), g.edges.end(), both.edges.begin(),
                         [](const Edge& a, const Edge& b) {
                           return a.from == b.from && a.to == b.to && a.weight == b.weight;
                         }));
  EXPECT_EQ(both.edges[6].from, 1u);
  EXPECT_EQ(both.edges[6].to, 0u);
  EXPECT_EQ(both.edges[6].weight, 5);  // the first edge it mirrors
  EXPECT_EQ(both.edges[7].from, 0u);
  EXPECT_EQ(both.edges[7].to, 3u);
  EXPECT_EQ(tessera::graph::edgesWithoutReverse(both), 0u);

  GeometricParams p;
  p.vertices = 500;
  EXPECT_GT(tessera::graph::edgesWithoutReverse(tessera::graph::geometric(p)), 0u);
  p.undirected = true;
  EXPECT_EQ(tessera::graph::edgesWithoutReverse(tessera::graph::geometric(p)), 0u);
}

TEST(TinselEdgeList, NeighbourListsAndFanOuts) {
  const std::string path = testing::TempDir() + "graph_test_tinsel.txt";
  std::ofstream(path) << "0 1\n0 2\n2 0\n3 1\n";
  EdgeList net;
  net.read(path.c_str());
  remove(path.c_str());
  EXPECT_EQ(net.numNodes, 4u);
  EXPECT_EQ(net.numEdges, 4u);
  ASSERT_EQ(net.neighbours[0][0], 2u);
  EXPECT_EQ(net.neighbours[0][1], 2u);  // Tinsel's order: the file's, reversed
  EXPECT_EQ(net.neighbours[0][2], 1u);
  EXPECT_EQ(net.neighbours[1][0], 0u);
  EXPECT_EQ(net.maxFanOut(), 2u);
  EXPECT_EQ(net.minFanOut(), 0u);
}

TEST(TinselEdgeListDeathTest, AMalformedFileEndsTheProgramWithItsLine) {
  const std::string path = testing::TempDir() + "graph_test_bad.txt";
  std::ofstream(path) << "0 1\n1 two\n";
  EXPECT_EXIT(
      {
        EdgeList net;
        net.read(path.c_str());
      },
      testing::ExitedWithCode(EXIT_FAILURE),
      "EdgeList: .*graph_test_bad.txt:2: destination 'two' is not a vertex id");
  remove(path.c_str());
}

}  // namespace
