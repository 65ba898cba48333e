// The host side of the vertex API: a graph of devices, its placement onto the machine's threads,
// and the memory image each thread's runtime (PThread.h) reads.
//
//   PGraph<SSSPDevice, SSSPState, int32_t, int32_t> graph;
//   PDeviceId a = graph.newDevice(), b = graph.newDevice();
//   graph.addLabelledEdge(7, a, 0, b);        // weight 7 on pin 0 of a, to b
//   graph.map();                              // place devices on threads, build the tables
//   graph.devices[a]->state.dist = 0;         // initial states, after map()
//   graph.write(&hostLink);                   // the images go to the machine at boot()
//
// Placement (`placer`, docs/vertex-api.md) cuts the graph with METIS into boards, tiles and
// threads (tessera/graph/place.h), or keeps devices of consecutive ids on the same thread, filling
// threads in the machine's dense order; map() prints (on stderr) how many edges stay on a thread,
// a tile, a board and how many cross boards. A pin's out-edges are grouped
// by destination tile: one multicast per tile reaches every thread there that has a receiver, and
// each receiving thread finds its receivers under the message's key.
//
// Bad use (an edge to a device that does not exist, a pin out of range, an empty graph, a
// thread whose image does not fit its memory) prints one line starting "PGraph:" on stderr and
// exits, before anything is written.
#ifndef TESSERA_POLITE_PGRAPH_H
#define TESSERA_POLITE_PGRAPH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "POLite/PDevice.h"
#include "tessera/graph/place.h"
#include "tessera/graph/reverse.h"
#include "tessera/hw/regs.h"

// A Tinsel program's config.h gives PGraph() its machine. POLite programs include POLite.h before
// HostLink.h (which includes config.h too), so PGraph.h includes it itself.
#if __has_include(<config.h>)
#include <config.h>
#endif

typedef uint32_t PDeviceId;

// Where a graph runs: the machine's shape and the bytes of each thread's partition, whose
// "SRAM" heap (a quarter of it, from the middle; tinsel.h) holds the thread's image.
struct PMachine {
  TesseraShape shape;
  uint32_t partitionBytes;
};

template <typename DeviceType, typename S, typename E, typename M>
class PGraph {
 public:
  // Devices so far; their states, valid from map() on.
  uint32_t numDevices = 0;
  std::vector<PState<S>*> devices;

#ifdef TesseraConfigProperties
  // The machine of the program's config.h (one Tinsel box: the whole mesh).
  PGraph() : PGraph(configMachine()) {}
  PGraph(uint32_t numBoxesX, uint32_t numBoxesY) : PGraph(configMachine()) {
    if (numBoxesX != 1 || numBoxesY != 1) {
      fail("this program was built for one box (config.h); " + std::to_string(numBoxesX) + "x" +
           std::to_string(numBoxesY) + " boxes requested");
    }
  }
#endif
  explicit PGraph(const PMachine& machine) : machine_(machine) {
    const uint32_t perTile = tessera_threads_per_tile(&machine_.shape);
    if (perTile > 64) {
      fail("tiles of " + std::to_string(perTile) +
           " threads: a multicast reaches at most 64 threads of a tile");
    }
  }

  PDeviceId newDevice() {
    if (mapped_) fail("newDevice() after map()");
    edges_.emplace_back(POLITE_NUM_PINS);
    fanIn_.push_back(0);
    return numDevices++;
  }

  void addEdge(PDeviceId from, uint32_t pin, PDeviceId to) {
    static_assert(std::is_same<E, None>::value,
                  "addEdge is for unlabelled edges (E = None); use addLabelledEdge");
    add(from, pin, to, E());
  }

  void addLabelledEdge(E edge, PDeviceId from, uint32_t pin, PDeviceId to) {
    add(from, pin, to, edge);
  }

  // Out-edges of a device, on every pin.
  uint32_t fanOut(PDeviceId id) const {
    check(id, "fanOut");
    uint32_t n = 0;
    for (const auto& pin : edges_[id]) n += static_cast<uint32_t>(pin.size());
    return n;
  }

  // In-edges of a device, on every pin of every device. A program that asks is counting the
  // messages of a round, as GALS programs do (docs/vertex-api.md); those need every edge both
  // ways, so the first call on a graph where some edge has no reverse warns, once, on stderr.
  uint32_t fanIn(PDeviceId id) const {
    check(id, "fanIn");
    if (!reverseWarned_) warnIfEdgesLackReverse();
    return fanIn_[id];
  }

  // Tinsel's choices between on-chip SRAM and DRAM for each table. Tessera's threads keep their
  // whole image in their DRAM partition, so these are accepted and change nothing.
  bool mapVerticesToDRAM = false;
  bool mapInEdgeHeadersToDRAM = true;
  bool mapInEdgeRestToDRAM = true;
  bool mapOutEdgesToDRAM = true;

  // How map() places devices, by the names of Tinsel's placer (whose POLITE_PLACER environment
  // variable chooses when the program leaves this at Default: metis, direct or default).
  //   Metis    boards, then tiles, then threads cut with METIS, fewest edges cut at each level
  //   Direct   consecutive ids on one thread, threads filled in dense order
  //   Default  Metis when it can matter: the graph has edges and more devices than a tile has
  //            threads (fewer all go to one tile either way); Direct otherwise
  // Either way no thread gets more than tessera::graph::threadCapacity() devices.
  enum class Placer { Default, Metis, Direct };
  Placer placer = Placer::Default;

  // Places the devices and builds the routing tables; devices[] then holds zeroed states.
  void map() {
    if (numDevices == 0) fail("map(): the graph has no devices");
    if (mapped_) fail("map() called twice");
    const uint32_t threads = tessera_num_threads(&machine_.shape);
    const uint32_t capacity = tessera::graph::threadCapacity(numDevices, threads);
    if (capacity > 0xffff) {
      fail(std::to_string(numDevices) + " devices need up to " + std::to_string(capacity) +
           " per thread, more than 65,535");
    }
    // Every thread gets an image, an empty one if it holds no device: all of them run the
    // runtime's loop and take part in termination detection.
    threads_.assign(threads, Thread());
    for (uint32_t t = 0; t < threads; t++) threads_[t].id = tessera_thread_at(&machine_.shape, t);
    placement.placer = chosenPlacer();
    if (placement.placer == Placer::Metis) {
      tessera::graph::PlaceResult r = tessera::graph::placeMetis(asGraph(), machine_.shape);
      if (!r.ok()) fail("map(): " + r.error);
      thread_of_ = std::move(r.threadOf);
    } else {
      thread_of_ = tessera::graph::placeBlocks(numDevices, machine_.shape);
    }
    local_of_.resize(numDevices);
    for (PDeviceId d = 0; d < numDevices; d++) {
      const uint32_t t = thread_of_[d];
      local_of_[d] = static_cast<PLocalDeviceId>(threads_[t].devices.size());
      threads_[t].devices.push_back(d);
    }
    states_.assign(numDevices, PState<S>());
    devices.resize(numDevices);
    for (PDeviceId d = 0; d < numDevices; d++) devices[d] = &states_[d];
    buildTables();
    mapped_ = true;
    printPlacement();
  }

  // Where map() put the edges: edges[0] within a thread, [1] within a tile, [2] within a board,
  // [3] across boards; how many threads hold devices, the most one holds, and the placer used.
  struct Placement {
    uint64_t edges[4] = {0, 0, 0, 0};
    uint32_t threadsUsed = 0;
    uint32_t mostOnAThread = 0;
    Placer placer = Placer::Default;
  } placement;

  // Threads of the machine: each runs the runtime, and sends a report in builds that ask for
  // one (PResults.h).
  uint32_t numThreads() const {
    return tessera_num_threads(&machine_.shape);
  }

  // Thread id of the thread a device was placed on (after map()).
  PThreadId threadOf(PDeviceId id) const {
    check(id, "threadOf");
    return threads_.at(thread_of_[id]).id;
  }

  // Every thread of the machine, and the image of one, with the current states (after map()).
  // 8-byte words, so that the image is aligned like the heap it goes to.
  std::vector<PThreadId> threadIds() const {
    std::vector<PThreadId> ids;
    for (const Thread& t : threads_) ids.push_back(t.id);
    return ids;
  }

  std::vector<uint64_t> image(PThreadId threadId) const {
    for (const Thread& t : threads_) {
      if (t.id == threadId) return serialise(t);
    }
    fail("image(): no thread 0x" + hex(threadId) + " (before map(), or not in the machine)");
    return {};
  }

  // Gives every thread's image to the host link, which writes it at the thread's
  // tinselHeapBaseSRAM() when the machine boots. Every image is built and checked first.
  template <typename Link>
  void write(Link* hostLink) {
    if (!mapped_) fail("write() before map()");
    std::vector<std::vector<uint64_t>> images;
    for (const Thread& t : threads_) images.push_back(serialise(t));
    for (size_t i = 0; i < threads_.size(); i++) {
      hostLink->tesseraLoadHeapSRAM(threads_[i].id, images[i].data(),
                                    static_cast<uint32_t>(images[i].size() * 8));
    }
  }

 private:
  struct Edge {
    PDeviceId to;
    E label;
  };
  struct Thread {
    PThreadId id;
    std::vector<PDeviceId> devices;
    std::vector<POutEdge> outEdges;
    std::vector<uint32_t> pinBase;  // [local device * POLITE_NUM_PINS + pin]
    std::vector<PInRange> inRanges;
    std::vector<PInEdge<E>> inEdges;
  };

  [[noreturn]] static void fail(const std::string& why) {
    fprintf(stderr, "PGraph: %s\n", why.c_str());
    exit(EXIT_FAILURE);
  }

  static std::string hex(uint32_t x) {
    char text[16];
    snprintf(text, sizeof text, "%x", x);
    return text;
  }

  void check(PDeviceId id, const char* what) const {
    if (id >= numDevices) {
      fail(std::string(what) + ": device " + std::to_string(id) +
           " does not exist (the graph has " + std::to_string(numDevices) + ")");
    }
  }

  void warnIfEdgesLackReverse() const {
    reverseWarned_ = true;
    tessera::graph::Graph g;
    g.vertices = numDevices;
    for (PDeviceId d = 0; d < numDevices; d++) {
      for (const auto& pin : edges_[d]) {
        for (const Edge& e : pin) g.edges.push_back({d, e.to, 0});
      }
    }
    const uint64_t missing = tessera::graph::edgesWithoutReverse(g);
    if (missing == 0) return;
    fprintf(stderr,
            "PGraph: warning: fanIn() on a graph where %llu of %zu edges have no reverse edge; a "
            "GALS program (one that waits for fanIn messages a round) then gives results that "
            "depend on timing and placement: give it an undirected graph (tessera-graph convert "
            "--undirected)\n",
            static_cast<unsigned long long>(missing), g.edges.size());
  }

  void add(PDeviceId from, uint32_t pin, PDeviceId to, const E& label) {
    if (mapped_) fail("an edge added after map()");
    check(from, "addEdge");
    check(to, "addEdge");
    if (pin >= POLITE_NUM_PINS) {
      fail("addEdge: pin " + std::to_string(pin) + " of device " + std::to_string(from) +
           " is out of range (POLITE_NUM_PINS is " + std::to_string(POLITE_NUM_PINS) + ")");
    }
    edges_[from][pin].push_back(Edge{to, label});
    fanIn_[to]++;
  }

  // The placer map() uses: the program's, else POLITE_PLACER's, else by the graph's size.
  Placer chosenPlacer() const {
    Placer p = placer;
    const char* env = getenv("POLITE_PLACER");
    if (p == Placer::Default && env != nullptr && *env != '\0') {
      const std::string name = env;
      if (name == "metis") {
        p = Placer::Metis;
      } else if (name == "direct") {
        p = Placer::Direct;
      } else if (name != "default") {
        fail("POLITE_PLACER=" + name + ": Tessera places with metis, direct or default");
      }
    }
    if (p != Placer::Default) return p;
    uint64_t edges = 0;
    for (PDeviceId d = 0; d < numDevices; d++) edges += fanOut(d);
    return edges > 0 && numDevices > tessera_threads_per_tile(&machine_.shape) ? Placer::Metis
                                                                               : Placer::Direct;
  }

  // The devices and edges as the placement library sees them (every edge weighs 1).
  tessera::graph::Graph asGraph() const {
    tessera::graph::Graph g;
    g.vertices = numDevices;
    for (PDeviceId d = 0; d < numDevices; d++) {
      for (const auto& pin : edges_[d]) {
        for (const Edge& e : pin) g.edges.push_back({d, e.to, 1});
      }
    }
    return g;
  }

#ifdef TesseraConfigProperties
  static PMachine configMachine() {
    PMachine m;
    m.shape = {TesseraConfigBoardsX, TesseraConfigBoardsY,      TesseraConfigTilesX,
               TesseraConfigTilesY,  TesseraConfigCoresPerTile, TesseraConfigThreadsPerCore};
    m.partitionBytes = TesseraConfigPartitionBytes;
    return m;
  }
#endif

  uint32_t tileOf(PThreadId id) const {
    return id >> tessera_tile_shift(&machine_.shape);
  }

  // Out-edge lists and in-edge tables: per pin, the destinations grouped by tile. A group's key
  // is an index into the key table of each receiving thread there: the first entry free on all
  // of them. A receive then finds its receivers in one load, not by a search. Groups that reach
  // different threads share key numbers, and a later group fills the entries a thread left
  // empty below an earlier group's key (keys always past the receivers' last entries left five
  // empty entries for every used one on heat's graphs). Tinsel's in-tables are first-fit too,
  // over the in-edge array itself.
  void buildTables() {
    const uint32_t laneBits = tessera_tile_shift(&machine_.shape);
    std::vector<std::vector<uint64_t>> taken(threads_.size());  // [thread] keys in use, a bit each
    std::vector<uint32_t> receivers;                             // indices into threads_
    for (Thread& t : threads_) {
      t.pinBase.assign(t.devices.size() * POLITE_NUM_PINS, 0);
      for (size_t local = 0; local < t.devices.size(); local++) {
        for (uint32_t pin = 0; pin < POLITE_NUM_PINS; pin++) {
          std::vector<Edge> out = edges_[t.devices[local]][pin];
          std::stable_sort(out.begin(), out.end(), [&](const Edge& a, const Edge& b) {
            return threads_[thread_of_[a.to]].id < threads_[thread_of_[b.to]].id;
          });
          t.pinBase[local * POLITE_NUM_PINS + pin] = static_cast<uint32_t>(t.outEdges.size());
          for (size_t i = 0; i < out.size();) {
            const uint32_t tile = tileOf(threads_[thread_of_[out[i].to]].id);
            size_t end = i;
            receivers.clear();
            for (; end < out.size() && tileOf(threads_[thread_of_[out[end].to]].id) == tile;
                 end++) {
              if (receivers.empty() || receivers.back() != thread_of_[out[end].to])
                receivers.push_back(thread_of_[out[end].to]);
            }
            const uint32_t key = firstFreeKey(taken, receivers);
            if (key >= InvalidKey) {
              fail("thread 0x" + hex(threads_[receivers.front()].id) +
                   " needs more than 65,534 keys (in-edge groups)");
            }
            for (uint32_t r : receivers) {
              std::vector<uint64_t>& bits = taken[r];
              if (bits.size() <= key / 64) bits.resize(key / 64 + 1, 0);
              bits[key / 64] |= uint64_t{1} << (key % 64);
              Thread& thread = threads_[r];
              if (thread.inRanges.size() <= key) thread.inRanges.resize(key + 1, PInRange{});
              thread.inRanges[key] = PInRange{0, 0, static_cast<uint32_t>(thread.inEdges.size())};
            }
            POutEdge edge = {};
            edge.mbox = tile;
            edge.key = static_cast<uint16_t>(key);
            for (; i < end; i++) {
              Thread& r = threads_[thread_of_[out[i].to]];
              const uint32_t lane = r.id & ((1u << laneBits) - 1);
              if (lane < 32)
                edge.threadMaskLow |= 1u << lane;
              else
                edge.threadMaskHigh |= 1u << (lane - 32);
              PInRange& range = r.inRanges[key];
              if (range.count == 0xffff) {
                fail("a message from device " + std::to_string(t.devices[local]) +
                     " reaches more than 65,535 devices of thread 0x" + hex(r.id));
              }
              PInEdge<E> in;
              memset(&in, 0, sizeof in);
              in.devId = local_of_[out[i].to];
              copyLabel(in, out[i].label);
              r.inEdges.push_back(in);
              range.count++;
            }
            t.outEdges.push_back(edge);
          }
          POutEdge end = {};
          end.key = InvalidKey;
          t.outEdges.push_back(end);
        }
      }
    }
  }

  // The lowest key no thread of `receivers` uses yet: 64 keys at a time.
  static uint32_t firstFreeKey(const std::vector<std::vector<uint64_t>>& taken,
                               const std::vector<uint32_t>& receivers) {
    for (size_t word = 0;; word++) {
      uint64_t used = 0;
      for (uint32_t r : receivers) {
        if (word < taken[r].size()) used |= taken[r][word];
      }
      if (~used != 0) return static_cast<uint32_t>(word * 64 + __builtin_ctzll(~used));
    }
  }

  static void copyLabel(PInEdge<E>& in, const E& label) {
    if constexpr (!std::is_same<E, None>::value) in.edge = label;
  }

  static uint32_t align8(uint32_t n) {
    return (n + 7) & ~7u;
  }

  std::vector<uint64_t> serialise(const Thread& t) const {
    PThreadImage head = {};
    head.magic = kPThreadMagic;
    head.numDevices = static_cast<uint32_t>(t.devices.size());
    head.numVertices = numDevices;
    head.numKeys = static_cast<uint32_t>(t.inRanges.size());
    uint32_t at = align8(sizeof(PThreadImage));
    head.devicesOffset = at;
    at = align8(at + static_cast<uint32_t>(t.devices.size() * sizeof(PState<S>)));
    head.outEdgesOffset = at;
    at = align8(at + static_cast<uint32_t>(t.outEdges.size() * sizeof(POutEdge)));
    head.inRangesOffset = at;
    at = align8(at + static_cast<uint32_t>(t.inRanges.size() * sizeof(PInRange)));
    head.inEdgesOffset = at;
    at = align8(at + static_cast<uint32_t>(t.inEdges.size() * sizeof(PInEdge<E>)));
    head.sendersOffset = at;
    at = align8(at + static_cast<uint32_t>(t.devices.size() * sizeof(PLocalDeviceId)));
    head.imageBytes = at;

    const uint32_t capacity = machine_.partitionBytes / 4;
    if (at > capacity) {
      fail("thread 0x" + hex(t.id) + " needs " + std::to_string(at) + " bytes for its " +
           std::to_string(t.devices.size()) +
           " devices and their edges, but a thread's heap holds " + std::to_string(capacity) +
           " (partition-kib=" + std::to_string(machine_.partitionBytes / 1024) +
           "): raise partition-kib in the machine's shape");
    }
    std::vector<uint64_t> words(at / 8, 0);
    char* base = reinterpret_cast<char*>(words.data());
    memcpy(base, &head, sizeof head);
    for (size_t local = 0; local < t.devices.size(); local++) {
      PState<S> state = states_[t.devices[local]];
      for (uint32_t pin = 0; pin < POLITE_NUM_PINS; pin++) {
        state.pinBase[pin] = t.pinBase[local * POLITE_NUM_PINS + pin];
      }
      state.readyToSend = No;
      state.isMarkedRTS = 0;
      memcpy(base + head.devicesOffset + local * sizeof(PState<S>), &state, sizeof state);
    }
    copyOut(base + head.outEdgesOffset, t.outEdges);
    copyOut(base + head.inRangesOffset, t.inRanges);
    copyOut(base + head.inEdgesOffset, t.inEdges);
    return words;
  }

  template <typename T>
  static void copyOut(char* to, const std::vector<T>& from) {
    if (!from.empty()) memcpy(to, from.data(), from.size() * sizeof(T));
  }

  // Edges by where they stay: on one thread, one tile, one board, or across boards.
  void printPlacement() {
    uint64_t* const level = placement.edges;
    const uint32_t boardShift = tessera_board_shift(&machine_.shape);
    for (PDeviceId d = 0; d < numDevices; d++) {
      const PThreadId from = threads_[thread_of_[d]].id;
      for (const auto& pin : edges_[d]) {
        for (const Edge& e : pin) {
          const PThreadId to = threads_[thread_of_[e.to]].id;
          level[from == to                                   ? 0
                : tileOf(from) == tileOf(to)                 ? 1
                : (from >> boardShift) == (to >> boardShift) ? 2
                                                             : 3]++;
        }
      }
    }
    placement.threadsUsed = 0;
    placement.mostOnAThread = 0;
    for (const Thread& t : threads_) {
      const uint32_t held = static_cast<uint32_t>(t.devices.size());
      placement.threadsUsed += held > 0;
      placement.mostOnAThread = std::max(placement.mostOnAThread, held);
    }
    fprintf(stderr,
            "PGraph: %u devices on %u of %zu threads (%s, at most %u on one); edges within a "
            "thread %llu, a tile %llu, a board %llu, across boards %llu\n",
            numDevices, placement.threadsUsed, threads_.size(),
            placement.placer == Placer::Metis ? "METIS" : "direct", placement.mostOnAThread,
            static_cast<unsigned long long>(level[0]), static_cast<unsigned long long>(level[1]),
            static_cast<unsigned long long>(level[2]), static_cast<unsigned long long>(level[3]));
  }

  PMachine machine_;
  bool mapped_ = false;
  std::vector<std::vector<std::vector<Edge>>> edges_;  // [device] -> [pin] -> edges
  std::vector<uint32_t> fanIn_;                        // [device] -> in-edges
  mutable bool reverseWarned_ = false;                 // fanIn()'s check of reverse edges ran
  std::vector<Thread> threads_;
  std::vector<uint32_t> thread_of_;  // device -> index into threads_
  std::vector<PLocalDeviceId> local_of_;
  std::vector<PState<S>> states_;
};

// Tinsel's politeSaveStats: with POLITE_DUMP_STATS defined, copies the statistics lines the
// threads print when they finish (PThread.h: one per core, and with POLITE_COUNT_MSGS one per
// thread) from the console to `filename`; without it, does nothing. Call it after go(), before
// reading the finish messages.
template <typename Link>
void politeSaveStats(Link* hostLink, const char* filename) {
#ifdef POLITE_DUMP_STATS
#ifndef TesseraConfigProperties
  static_assert(sizeof(Link) == 0, "politeSaveStats needs the program's config.h");
  (void)hostLink;  // clang checks the parameters' use even in a template never instantiated
  (void)filename;
#else
  FILE* statsFile = fopen(filename, "wt");
  if (statsFile == nullptr) {
    fprintf(stderr, "politeSaveStats: cannot create %s\n", filename);
    exit(EXIT_FAILURE);
  }
  const uint32_t cores = TesseraConfigBoardsX * TesseraConfigBoardsY * TesseraConfigTilesX *
                         TesseraConfigTilesY * TesseraConfigCoresPerTile;
  uint32_t lines = cores;
#ifdef POLITE_COUNT_MSGS
  lines += cores * TesseraConfigThreadsPerCore;
#endif
  hostLink->dumpStdOut(statsFile, lines);
  fclose(statsFile);
#endif
#else
  (void)hostLink;
  (void)filename;
#endif
}

#endif
