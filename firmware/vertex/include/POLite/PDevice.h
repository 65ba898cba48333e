// The vertex-centric API (POLite's, DESIGN 1.3): a vertex type derives from PDevice<S, E, M>
// (also spelt PVertex, its name in the termination-detection paper) and defines the handlers
//
//   void init();                    once, before anything is sent
//   void send(volatile M* msg);     fill the message for the pin readyToSend names
//   void recv(M* msg, E* edge);     a message arrived on an in-edge with label `edge`
//   bool step();                    termination was detected: start a new time step?
//   bool finish(volatile M* msg);   after a step round that all returned false: one message to
//                                   the host, if true
//
// and sets *readyToSend to No, Pin(p) (send on pin p, a set of out-edges) or HostPin.
//
// This header also has the layout the host (PGraph, PGraph.h) writes into each thread's memory
// and the per-thread runtime (PThread.h) reads: plain structs of fixed-width fields, and offsets
// instead of pointers, so that the 64-bit host and the 32-bit harts agree on every byte. State,
// edge and message types must be made of fixed-width fields for the same reason.
#ifndef TESSERA_POLITE_PDEVICE_H
#define TESSERA_POLITE_PDEVICE_H

#include <stddef.h>
#include <stdint.h>

// The number of pins a device may have (a program may define it before including POLite.h).
#ifndef POLITE_NUM_PINS
#define POLITE_NUM_PINS 1
#endif

// A device's index on its thread, and a thread id.
typedef uint16_t PLocalDeviceId;
typedef uint32_t PThreadId;

// What a device is ready to send on.
typedef uint8_t PPin;
#define No 0
#define HostPin 1
#define Pin(n) ((n) + 2)

// For an unused type argument (an unlabelled edge, say).
struct None {};

template <typename S, typename E, typename M>
struct PDevice {
  S* s;
  PPin* readyToSend;
  // Devices in the whole graph.
  uint32_t numVertices;
  // Time steps so far (calls of step).
  uint16_t time;

  // The handlers, which a vertex type hides with its own.
  void init() {}
  void send(volatile M*) {}
  void recv(M*, E*) {}
  bool step() { return false; }
  bool finish(volatile M*) { return false; }
};

// The paper's name for the same type.
template <typename S, typename E, typename M>
using PVertex = PDevice<S, E, M>;

// ---- The layout of a thread's memory image ----

// A device's slot: where each of its pins' out-edges start, its ready-to-send pin, whether it
// is on the thread's queue of senders, and its state.
template <typename S>
struct PState {
  uint32_t pinBase[POLITE_NUM_PINS];  // index into the thread's out-edges
  PPin readyToSend;
  uint8_t isMarkedRTS;
  S state;
};

// A message on the wire: the receiving tile's key for the edge set it travels, and the payload.
template <typename M>
struct PMessage {
  uint16_t destKey;
  M payload;
};

// Key that ends a pin's list of out-edges.
#define InvalidKey 0xffff

// Keys of the messages threads send to the host: a finish() or HostPin message, and a thread's
// report (PThreadReport).
#define PHostKey 0xfffe
#define PReportKey 0xfffd

// What each thread sends the host after its finish messages, in builds that define
// TESSERA_POLITE_REPORT (Tessera's vertex apps do): how its run went, for benchmarks and tests.
struct PThreadReport {
  uint16_t key;  // PReportKey
  uint16_t reserved;
  uint32_t threadId;
  uint32_t devices;
  uint32_t steps;                  // time steps (step() rounds)
  uint32_t sent;                   // messages to other threads (one per destination tile of a pin)
  uint32_t delivered;              // recv() calls: one per in-edge a message reached
  uint32_t blockedSends;           // times the thread found the network full
  uint32_t cyclesLow, cyclesHigh;  // modelled cycles when the run ended on this thread
};

// One destination tile of a pin: a multicast to the threads of mask in tile mbox, which find
// their receiving devices under key.
struct POutEdge {
  uint32_t mbox;
  uint16_t key;
  uint16_t reserved;
  uint32_t threadMaskLow;
  uint32_t threadMaskHigh;
};

// A receiving device of a key, and the label of its in-edge.
template <typename E>
struct PInEdge {
  PLocalDeviceId devId;
  E edge;
};

// The in-edges of one key on one thread: inEdges[first .. first + count). A message's key
// indexes the receiving thread's table of these directly; a key the host gave to another
// thread's group, where this one had none, holds an empty range.
struct PInRange {
  uint16_t count;
  uint16_t reserved;
  uint32_t first;
};

// The header at the base of a thread's image (tinselHeapBaseSRAM()). Offsets are in bytes from
// the header. The runtime (PThread.h) adds the handlers' loop to this layout.
struct PThreadImage {
  uint32_t magic;  // kPThreadMagic: the host wrote this image
  uint32_t numDevices;
  uint32_t numVertices;
  uint32_t time;
  uint32_t devicesOffset;   // PState<S>[numDevices]
  uint32_t outEdgesOffset;  // POutEdge[], each pin's list ended by an InvalidKey entry
  uint32_t numKeys;
  uint32_t inRangesOffset;  // PInRange[numKeys], indexed by key
  uint32_t inEdgesOffset;   // PInEdge<E>[]
  uint32_t sendersOffset;   // PLocalDeviceId[numDevices], the queue of senders
  uint32_t imageBytes;      // the whole image
  // Counts (POLITE_COUNT_MSGS), printed with the statistics (POLITE_DUMP_STATS).
  uint32_t msgsSent;
  uint32_t msgsReceived;
  uint32_t blockedSends;
};

#define kPThreadMagic 0x504c5431u /* "1TLP" */

#endif
