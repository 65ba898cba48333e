// The vertex runtime on the host machine (boards/hosted): PGraph builds every thread's image, each
// hart runs PThread::run on its own, and the finish messages reach the host. Results are checked
// against single-threaded references: SSSP (asynchronous, the paper's Fig. 4) exactly, and a
// synchronous integer recurrence exactly, step by step.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "tessera/host/machine.h"

#define TESSERA_POLITE_DEVICE
#include "POLite.h"
#include "POLite/PGraph.h"
#include "reference/sssp_reference.h"
#include "sssp.h"
#include "tessera/graph/geometric.h"

extern "C" void tessera_runtime_prepare_mailbox();  // firmware/tinsel/v2_start.cc

namespace {

using tessera::host::Hart;
using tessera::host::Machine;
using tessera::host::MachineParams;

// SSSP, asynchronous: the vertex of the paper's Fig. 4 is apps/vertex/sssp.h's.

// ---- A synchronous recurrence: x' = 3x + (sum of the in-neighbours' x) mod 2^32, per step ----

struct SumState {
  uint32_t id;
  uint32_t x;
  uint32_t sum;
  uint32_t steps;
};

struct SumMessage {
  uint32_t id;
  uint32_t x;
};

constexpr uint32_t kSumSteps = 6;

// Its send and finish take a plain SumMessage*, as many POLite programs' handlers do.
struct SumDevice : PDevice<SumState, None, SumMessage> {
  void init() { *readyToSend = Pin(0); }
  void send(SumMessage* msg) {
    msg->x = s->x;
    *readyToSend = No;
  }
  void recv(SumMessage* msg, None*) { s->sum += msg->x; }
  bool step() {
    s->x = 3 * s->x + s->sum;
    s->sum = 0;
    if (++s->steps == kSumSteps) return false;
    *readyToSend = Pin(0);
    return true;
  }
  bool finish(SumMessage* msg) {
    msg->id = s->id;
    msg->x = s->x;
    return true;
  }
};

using tessera::graph::Edge;

// A geometric random graph (nearby ids are neighbours, some edges go anywhere).
tessera::graph::Graph RandomGraph(uint32_t n, uint32_t seed) {
  tessera::graph::GeometricParams p;
  p.vertices = n;
  p.seed = seed;
  p.degree = 3;
  return tessera::graph::geometric(p);
}

struct Shape {
  const char* name;
  TesseraShape shape;
};

// A 3x1 mesh (board extents that are not powers of two) and one of a single board.
const Shape kShapes[] = {
    {"boards3x1_tiles2x2_cores2_threads2", {3, 1, 2, 2, 2, 2}},
    {"boards1x1_tiles2x1_cores4_threads4", {1, 1, 2, 1, 4, 4}},
};

PMachine MachineOf(const TesseraShape& shape) {
  return PMachine{shape, 64u << 10};
}

// Runs the images on every hart; returns the messages the host received.
template <typename Thread>
std::vector<tessera::host::HostMessage> RunThreads(
    const TesseraShape& shape, std::map<uint32_t, std::vector<uint64_t>>& images) {
  MachineParams params;
  params.partition_size = 64u << 10;
  Machine machine(shape, params);
  machine.run_on_all_harts([&](Hart&) {
    tessera_runtime_prepare_mailbox();
    reinterpret_cast<Thread*>(images.at(tinselId()).data())->run();
  });
  return machine.host_messages();
}

template <typename Graph>
std::map<uint32_t, std::vector<uint64_t>> Images(const Graph& graph) {
  std::map<uint32_t, std::vector<uint64_t>> images;
  for (const PThreadId id : graph.threadIds()) images[id] = graph.image(id);
  return images;
}

class Vertex : public ::testing::TestWithParam<Shape> {};

TEST_P(Vertex, AsynchronousSSSPEqualsDijkstra) {
  for (const uint32_t n : {40u, 700u}) {  // fewer vertices than threads, and many per thread
    const tessera::graph::Graph g = RandomGraph(n, 7 + n);
    const std::vector<Edge>& edges = g.edges;
    PGraph<SSSPVertex, SSSPState, int32_t, SSSPMessage> graph(MachineOf(GetParam().shape));
    for (uint32_t v = 0; v < n; v++) ASSERT_EQ(graph.newDevice(), v);
    for (const Edge& e : edges) graph.addLabelledEdge(e.weight, e.from, 0, e.to);
    graph.map();
    for (uint32_t v = 0; v < n; v++) {
      graph.devices[v]->state = SSSPState{v, INT32_MAX, v == 3};
    }
    graph.devices[3]->state.dist = 0;
    auto images = Images(graph);
    const auto messages =
        RunThreads<PThread<SSSPVertex, SSSPState, int32_t, SSSPMessage>>(GetParam().shape, images);

    const std::vector<int32_t> expected = vertex_reference::ssspDistances(g, 3);
    ASSERT_EQ(messages.size(), n) << "one finish message per vertex";
    std::vector<int> seen(n, 0);
    for (const auto& m : messages) {
      PMessage<SSSPMessage> msg;
      memcpy(&msg, m.bytes.data(), sizeof msg);
      ASSERT_LT(msg.payload.id, n);
      seen[msg.payload.id]++;
      EXPECT_EQ(msg.payload.dist, expected[msg.payload.id]) << "vertex " << msg.payload.id;
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long>(n));
  }
}

TEST_P(Vertex, SynchronousStepsEqualTheReference) {
  const uint32_t n = 300;
  const std::vector<Edge> edges = RandomGraph(n, 99).edges;
  PGraph<SumDevice, SumState, None, SumMessage> graph(MachineOf(GetParam().shape));
  for (uint32_t v = 0; v < n; v++) graph.newDevice();
  for (const Edge& e : edges) graph.addEdge(e.from, 0, e.to);
  graph.map();
  std::vector<uint32_t> x(n);
  for (uint32_t v = 0; v < n; v++) {
    x[v] = v * 2654435761u;
    graph.devices[v]->state = SumState{v, x[v], 0, 0};
  }
  auto images = Images(graph);
  const auto messages =
      RunThreads<PThread<SumDevice, SumState, None, SumMessage>>(GetParam().shape, images);

  for (uint32_t step = 0; step < kSumSteps; step++) {
    std::vector<uint32_t> sum(n, 0);
    for (const Edge& e : edges) sum[e.to] += x[e.from];
    for (uint32_t v = 0; v < n; v++) x[v] = 3 * x[v] + sum[v];
  }
  ASSERT_EQ(messages.size(), n);
  for (const auto& m : messages) {
    PMessage<SumMessage> msg;
    memcpy(&msg, m.bytes.data(), sizeof msg);
    ASSERT_LT(msg.payload.id, n);
    EXPECT_EQ(msg.payload.x, x[msg.payload.id]) << "vertex " << msg.payload.id;
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, Vertex, ::testing::ValuesIn(kShapes),
                         [](const ::testing::TestParamInfo<Shape>& info) {
                           return std::string(info.param.name);
                         });

TEST(VertexPlacement, DirectKeepsConsecutiveDevicesOnAThreadAndEdgesAreGroupedByTile) {
  const TesseraShape shape = {2, 1, 2, 1, 2, 2};  // 16 threads, 4 per tile
  PGraph<SumDevice, SumState, None, SumMessage> graph(MachineOf(shape));
  graph.placer = decltype(graph)::Placer::Direct;
  for (int v = 0; v < 64; v++) graph.newDevice();  // 4 per thread
  // Device 0 to one device on each of the 4 threads of tile 1, and to device 1 on its thread.
  for (PDeviceId to : {16u, 20u, 24u, 28u, 1u}) graph.addEdge(0, 0, to);
  graph.map();
  EXPECT_EQ(graph.threadOf(0), graph.threadOf(3));
  EXPECT_NE(graph.threadOf(0), graph.threadOf(4));
  EXPECT_EQ(graph.fanOut(0), 5u);
  const std::vector<uint64_t> words = graph.image(graph.threadOf(0));
  PThreadImage head;
  memcpy(&head, words.data(), sizeof head);
  EXPECT_EQ(head.magic, kPThreadMagic);
  EXPECT_EQ(head.numDevices, 4u);
  // Two multicasts (tile 0 for device 1, tile 1 for the four), then the end of the pin.
  POutEdge out[3];
  memcpy(out, reinterpret_cast<const char*>(words.data()) + head.outEdgesOffset, sizeof out);
  EXPECT_EQ(out[0].threadMaskLow, 1u);  // thread 0 of tile 0: device 1's thread
  EXPECT_EQ(out[1].threadMaskLow, 0xfu);
  EXPECT_EQ(out[2].key, InvalidKey);
}

// A key indexes the receiving thread's table: with every device of a tile multicasting to the
// same tile, each thread's table holds just the groups that reach it, since groups with
// disjoint receivers share key numbers.
TEST(VertexPlacement, AThreadsKeysIndexOnlyTheGroupsItReceives) {
  const TesseraShape shape = {1, 1, 2, 1, 1, 16};  // 2 tiles of 16 threads
  PGraph<SumDevice, SumState, None, SumMessage> graph(MachineOf(shape));
  graph.placer = decltype(graph)::Placer::Direct;
  for (int v = 0; v < 64; v++) graph.newDevice();  // 2 per thread
  // Every device of tile 0 sends to one device of tile 1: 32 groups on tile 1, two per thread.
  for (PDeviceId v = 0; v < 32; v++) graph.addEdge(v, 0, 32 + v);
  graph.map();
  for (PDeviceId v = 32; v < 64; v += 2) {
    const std::vector<uint64_t> words = graph.image(graph.threadOf(v));
    PThreadImage head;
    memcpy(&head, words.data(), sizeof head);
    EXPECT_EQ(head.numKeys, 2u) << "thread of device " << v;
    PInRange ranges[2];
    memcpy(ranges, reinterpret_cast<const char*>(words.data()) + head.inRangesOffset,
           sizeof ranges);
    EXPECT_EQ(ranges[0].count, 1u);
    EXPECT_EQ(ranges[1].count, 1u);
    EXPECT_EQ(ranges[1].first, ranges[0].first + 1);
  }
}

// A multicast's key is the first entry free on every thread it reaches: a thread that had fewer
// groups before gets an empty entry below the key, which a later group that reaches it alone
// fills; the sender's out-edge carries the key.
TEST(VertexPlacement, AMulticastKeyIsFreeOnEveryReceiver) {
  const TesseraShape shape = {1, 1, 2, 1, 1, 16};
  PGraph<SumDevice, SumState, None, SumMessage> graph(MachineOf(shape));
  graph.placer = decltype(graph)::Placer::Direct;
  for (int v = 0; v < 64; v++) graph.newDevice();  // devices 32, 33 on thread 16; 34 on 17
  graph.addEdge(0, 0, 32);  // thread 0 -> thread 16 alone: key 0 there
  graph.addEdge(2, 0, 33);  // thread 1 -> threads 16 and 17: key 1, thread 17 pads key 0
  graph.addEdge(2, 0, 34);
  graph.addEdge(4, 0, 35);  // thread 2 -> thread 17 alone: key 0, the hole
  graph.map();
  const auto headOf = [&](PDeviceId v, std::vector<uint64_t>& words) {
    words = graph.image(graph.threadOf(v));
    PThreadImage head;
    memcpy(&head, words.data(), sizeof head);
    return head;
  };
  std::vector<uint64_t> words;
  PThreadImage head = headOf(2, words);
  POutEdge out;
  memcpy(&out, reinterpret_cast<const char*>(words.data()) + head.outEdgesOffset, sizeof out);
  EXPECT_EQ(out.key, 1u);
  EXPECT_EQ(out.threadMaskLow, 3u);
  head = headOf(34, words);
  ASSERT_EQ(head.numKeys, 2u);
  PInRange ranges[2];
  memcpy(ranges, reinterpret_cast<const char*>(words.data()) + head.inRangesOffset,
         sizeof ranges);
  EXPECT_EQ(ranges[1].count, 1u);
  EXPECT_EQ(ranges[0].count, 1u) << "the hole, filled";
  PInEdge<None> in[2];
  memcpy(in, reinterpret_cast<const char*>(words.data()) + head.inEdgesOffset, sizeof in);
  EXPECT_EQ(ranges[1].first, 0u);
  EXPECT_EQ(in[0].devId, 0u) << "device 34 is the first of thread 17";
  EXPECT_EQ(ranges[0].first, 1u);
  EXPECT_EQ(in[1].devId, 1u) << "device 35 is its second";
  head = headOf(4, words);
  memcpy(&out, reinterpret_cast<const char*>(words.data()) + head.outEdgesOffset, sizeof out);
  EXPECT_EQ(out.key, 0u);
}

// A geometric graph with its ids shuffled, as PGraph devices: placement by id cuts most edges,
// METIS finds the locality anyway.
template <typename Graph>
void AddShuffledGeometric(Graph& graph, uint32_t n) {
  tessera::graph::GeometricParams p;
  p.vertices = n;
  const tessera::graph::Graph g = tessera::graph::geometric(p);
  std::mt19937 rng(3);
  std::vector<uint32_t> id(n);
  for (uint32_t v = 0; v < n; v++) id[v] = v;
  for (uint32_t v = n; v > 1; v--) std::swap(id[v - 1], id[rng() % v]);
  for (uint32_t v = 0; v < n; v++) graph.newDevice();
  for (const auto& e : g.edges) graph.addEdge(id[e.from], 0, id[e.to]);
}

TEST(VertexPlacement, DefaultIsMetisForLargeGraphsAndCutsFewerEdgesAcrossBoards) {
  const TesseraShape shape = kShapes[0].shape;  // 3 boards of 16 threads
  using Graph = PGraph<SumDevice, SumState, None, SumMessage>;
  Graph metis(MachineOf(shape)), direct(MachineOf(shape));
  direct.placer = Graph::Placer::Direct;
  AddShuffledGeometric(metis, 2000);
  AddShuffledGeometric(direct, 2000);
  metis.map();
  direct.map();
  EXPECT_EQ(metis.placement.placer, Graph::Placer::Metis);
  EXPECT_EQ(direct.placement.placer, Graph::Placer::Direct);
  EXPECT_EQ(metis.placement.threadsUsed, 48u);
  EXPECT_LE(metis.placement.mostOnAThread, tessera::graph::threadCapacity(2000, 48));
  printf("across boards: direct %llu, METIS %llu\n",
         static_cast<unsigned long long>(direct.placement.edges[3]),
         static_cast<unsigned long long>(metis.placement.edges[3]));
  EXPECT_LT(metis.placement.edges[3] * 4, direct.placement.edges[3]);
  // Each device's thread is the one whose image lists it.
  uint32_t listed = 0;
  for (const PThreadId id : metis.threadIds()) {
    PThreadImage head;
    memcpy(&head, metis.image(id).data(), sizeof head);
    listed += head.numDevices;
  }
  EXPECT_EQ(listed, 2000u);
}

TEST(VertexPlacement, DefaultIsDirectWhenMetisCannotHelp) {
  const TesseraShape shape = kShapes[0].shape;  // 4 threads a tile
  using Graph = PGraph<SumDevice, SumState, None, SumMessage>;
  Graph oneTile(MachineOf(shape)), noEdges(MachineOf(shape));
  for (int v = 0; v < 4; v++) oneTile.newDevice();
  for (PDeviceId v = 0; v < 4; v++) oneTile.addEdge(v, 0, (v + 1) % 4);
  for (int v = 0; v < 100; v++) noEdges.newDevice();
  oneTile.map();
  noEdges.map();
  EXPECT_EQ(oneTile.placement.placer, Graph::Placer::Direct);
  EXPECT_EQ(oneTile.placement.edges[1], 4u);  // all within the first tile
  EXPECT_EQ(noEdges.placement.placer, Graph::Placer::Direct);
}

TEST(VertexPlacement, PolitePlacerChoosesWhenTheProgramDoesNot) {
  const TesseraShape shape = kShapes[0].shape;
  using Graph = PGraph<SumDevice, SumState, None, SumMessage>;
  Graph byEnv(MachineOf(shape)), byProgram(MachineOf(shape));
  byProgram.placer = Graph::Placer::Metis;
  AddShuffledGeometric(byEnv, 500);
  AddShuffledGeometric(byProgram, 500);
  setenv("POLITE_PLACER", "direct", 1);
  byEnv.map();
  byProgram.map();
  unsetenv("POLITE_PLACER");
  EXPECT_EQ(byEnv.placement.placer, Graph::Placer::Direct);
  EXPECT_EQ(byProgram.placement.placer, Graph::Placer::Metis);
}

// GALS programs ask fanIn() (a vertex waits for that many messages a round) and need every edge
// both ways: the first fanIn() on a graph with an edge that has no reverse warns, once.
TEST(VertexGraph, FanInWarnsOnceWhenAnEdgeHasNoReverse) {
  const TesseraShape shape = kShapes[0].shape;
  using Graph = PGraph<SumDevice, SumState, None, SumMessage>;
  Graph ring(MachineOf(shape)), twoWayRing(MachineOf(shape)), unasked(MachineOf(shape));
  for (PDeviceId v = 0; v < 4; v++) {
    ring.newDevice();
    twoWayRing.newDevice();
    unasked.newDevice();
  }
  for (PDeviceId v = 0; v < 4; v++) {
    ring.addEdge(v, 0, (v + 1) % 4);
    unasked.addEdge(v, 0, (v + 1) % 4);
    twoWayRing.addEdge(v, 0, (v + 1) % 4);
    twoWayRing.addEdge((v + 1) % 4, 0, v);
  }
  ring.addEdge(0, 0, 0);  // a self-loop is its own reverse
  const std::string warning =
      "PGraph: warning: fanIn() on a graph where 4 of 5 edges have no reverse edge; a GALS "
      "program (one that waits for fanIn messages a round) then gives results that depend on "
      "timing and placement: give it an undirected graph (tessera-graph convert --undirected)\n";

  testing::internal::CaptureStderr();
  for (PDeviceId v = 0; v < 4; v++) EXPECT_EQ(ring.fanIn(v), v == 0 ? 2u : 1u);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), warning);

  testing::internal::CaptureStderr();
  for (PDeviceId v = 0; v < 4; v++) EXPECT_EQ(twoWayRing.fanIn(v), 2u);
  EXPECT_EQ(unasked.fanOut(0), 1u);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

using VertexDeathTest = ::testing::Test;

TEST_F(VertexDeathTest, BadGraphsAreRefusedWithTheirReason) {
  const TesseraShape shape = {1, 1, 1, 1, 1, 2};
  using Graph = PGraph<SumDevice, SumState, None, SumMessage>;
  EXPECT_EXIT(
      {
        Graph g(MachineOf(shape));
        g.map();
      },
      ::testing::ExitedWithCode(EXIT_FAILURE), "PGraph: map\\(\\): the graph has no devices");
  EXPECT_EXIT(
      {
        Graph g(MachineOf(shape));
        g.newDevice();
        g.addEdge(0, 0, 5);
      },
      ::testing::ExitedWithCode(EXIT_FAILURE),
      "PGraph: addEdge: device 5 does not exist \\(the graph has 1\\)");
  EXPECT_EXIT(
      {
        Graph g(MachineOf(shape));
        g.newDevice();
        g.addEdge(0, 1, 0);
      },
      ::testing::ExitedWithCode(EXIT_FAILURE),
      "PGraph: addEdge: pin 1 of device 0 is out of range \\(POLITE_NUM_PINS is 1\\)");
  EXPECT_EXIT(
      {
        Graph g(PMachine{shape, 16u << 10});  // 4 KiB of heap per thread
        for (int v = 0; v < 1000; v++) g.newDevice();
        g.map();
        (void)g.image(g.threadOf(0));
      },
      ::testing::ExitedWithCode(EXIT_FAILURE),
      "PGraph: thread 0x0 needs [0-9]+ bytes for its 500 devices and their edges, but a "
      "thread's heap holds 4096 \\(partition-kib=16\\): raise partition-kib");
  EXPECT_EXIT(
      {
        setenv("POLITE_PLACER", "bfs", 1);
        Graph g(MachineOf(shape));
        g.newDevice();
        g.map();
      },
      ::testing::ExitedWithCode(EXIT_FAILURE),
      "PGraph: POLITE_PLACER=bfs: Tessera places with metis, direct or default");
}

}  // namespace
