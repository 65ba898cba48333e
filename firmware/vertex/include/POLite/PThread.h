// The per-thread vertex runtime: PThread<DeviceType, S, E, M>::run() drives the handlers of the
// devices whose image the host wrote at the thread's tinselHeapBaseSRAM() (PGraph::write).
//
//   typedef PThread<SSSPDevice, SSSPState, int32_t, int32_t> SSSPThread;
//   int main() { ((SSSPThread*)tinselHeapBaseSRAM())->run(); return 0; }
//
// The loop, until termination:
//   1. send: one destination tile at a time of the message in the send slot (a multicast to the
//      threads of that tile that hold receivers), else call send() of the next queued device;
//   2. receive: every waiting message goes to recv() of each device its key lists (the key
//      indexes the thread's table), with the label of that in-edge;
//   3. with nothing to send: tinselIdle(vote). When it detects termination, step() runs on every
//      device (a time step); when every thread voted "no step asked for more", the loop ends.
// Then finish() runs on every device and each true result sends the message to the host.
//
// Only tinsel.h and the mailbox driver core it includes are used, so the runtime runs on the host
// machine (boards/hosted) in unit tests too.
#ifndef TESSERA_POLITE_PTHREAD_H
#define TESSERA_POLITE_PTHREAD_H

#include "POLite/PDevice.h"
#include "tinsel.h"

// How the runtime reaches the mailbox and detects termination: the interface of a
// tessera::termination detector (tessera/termination/detector.h). PTinselMailbox is tinselIdle
// and the plain mailbox through tinsel.h, the default. A build that defines
// TESSERA_TERMINATION_METHOD (tessera/termination/select.h) runs every PThread on that detector
// instead, the software ones included, with the same results (docs/vertex-api.md).
struct PTinselMailbox {
  static constexpr uint32_t kReservedWords = 0;
  // PThread drives this mailbox with fewer CSR operations than the calls below (PCombinedOps).
  static constexpr bool kCombinedOps = true;
  int idle(bool vote) { return tinselIdle(vote); }
  bool can_recv() { return tinselCanRecv() != 0; }
  volatile void* recv() { return tinselRecv(); }
  void free(volatile void* msg) { tinselFree(msg); }
  void send(uint32_t dest, volatile void* msg, uint32_t flits) {
    tinselSetLen(static_cast<int>(flits - 1));
    tinselSend(static_cast<int>(dest), msg);
  }
  void multicast(uint32_t mailbox, uint32_t maskHigh, uint32_t maskLow, volatile void* msg,
                 uint32_t flits) {
    tinselSetLen(static_cast<int>(flits - 1));
    tinselMulticast(mailbox, maskHigh, maskLow, msg);
  }
};

// A mailbox that is the plain one (PTinselMailbox): PThread then writes SEND_PTR and SEND_LEN
// once (a multicast writes only the mask and the mailbox), and each step of its receive loop is one
// RECV_FREE, which frees the slot the step before took, takes the next message and says whether a
// send may start (docs/vertex-api.md). Detectors with their own wire format keep the calls of the
// interface.
template <typename Mailbox>
concept PCombinedOps = requires {
  requires Mailbox::kCombinedOps;
};

#ifdef TESSERA_TERMINATION_METHOD
#include "tessera/termination/select.h"
typedef tessera::termination::Selected PDefaultMailbox;
#else
typedef PTinselMailbox PDefaultMailbox;
#endif

// A message between threads: the detector's reserved word, if it has one, then the PMessage.
template <typename M, uint32_t ReservedWords>
struct PWire {
  uint32_t reserved[ReservedWords];
  PMessage<M> message;
};
template <typename M>
struct PWire<M, 0> {
  PMessage<M> message;
};

template <typename DeviceType, typename S, typename E, typename M,
          typename Mailbox = PDefaultMailbox>
struct PThread : PThreadImage {
  typedef PWire<M, Mailbox::kReservedWords> Wire;
  static_assert(sizeof(Wire) <= TESSERA_MAX_FLITS * TESSERA_BYTES_PER_FLIT,
                "a POLite message (2 bytes of key, then M; with a software termination "
                "detector, a word before them) must fit in 4 flits");
  static constexpr uint32_t kWireFlits = (sizeof(Wire) - 1) / TESSERA_BYTES_PER_FLIT + 1;
  static constexpr uint32_t kHostFlits = (sizeof(PMessage<M>) - 1) / TESSERA_BYTES_PER_FLIT + 1;

  void run() {
    // A thread the host wrote no image for holds no devices, but still takes part in
    // termination detection.
    if (magic != kPThreadMagic) numDevices = 0;
    PState<S>* const states = at<PState<S>>(devicesOffset);
    const POutEdge* const outEdges = at<POutEdge>(outEdgesOffset);
    const PInRange* const inRanges = at<PInRange>(inRangesOffset);
    PInEdge<E>* const inEdges = at<PInEdge<E>>(inEdgesOffset);
    PLocalDeviceId* const senders = at<PLocalDeviceId>(sendersOffset);
    uint32_t queued = 0;  // senders[0 .. queued) want to send; the last one goes first
    Mailbox mailbox;
    volatile Wire* const wire = static_cast<volatile Wire*>(tinselSendSlot());
    // Messages to the host are plain PMessages (the host link is outside termination detection).
    volatile PMessage<M>* const toHost = static_cast<volatile PMessage<M>*>(tinselSendSlot());

    const auto device = [&](uint32_t i) {
      DeviceType d;
      d.s = &states[i].state;
      d.readyToSend = &states[i].readyToSend;
      d.numVertices = numVertices;
      d.time = static_cast<uint16_t>(time);
      return d;
    };
    // A device that is ready joins the queue once, however often it says so.
    const auto enqueueIfReady = [&](uint32_t i) {
      if (states[i].readyToSend != No && !states[i].isMarkedRTS) {
        states[i].isMarkedRTS = 1;
        senders[queued++] = static_cast<PLocalDeviceId>(i);
      }
    };

    for (uint32_t i = 0; i < numDevices; i++) {
      states[i].isMarkedRTS = 0;
      device(i).init();
      enqueueIfReady(i);
    }

    // The combined path: the send registers written once, and what the last RECV_FREE said.
    constexpr bool kCombined = PCombinedOps<Mailbox>;
    static_assert(!kCombined || kWireFlits == kHostFlits,
                  "the combined path sends every message with one SEND_LEN");
    bool canSend = false;
    if constexpr (kCombined) {
      tessera_mbox_set_send_ptr(tessera_mbox_bus_address(wire));
      tinselSetLen(static_cast<int>(kWireFlits - 1));
      canSend = tinselCanSend() != 0;
    }

    const POutEdge* multicast = nullptr;  // the next destination tile of the slot's message
    bool active = true;                   // did the last step() round ask for another?
    for (;;) {
      if (multicast != nullptr && multicast->key == InvalidKey) multicast = nullptr;
      if (multicast != nullptr || queued > 0) {
        if (kCombined ? !canSend : !tinselCanSend()) {
          // Keep receiving while the network is full, or two busy threads could wait on
          // each other forever.
          blockedSends++;
          tinselWaitUntil(TINSEL_CAN_SEND | TINSEL_CAN_RECV);
        } else if (multicast != nullptr) {
          wire->message.destKey = multicast->key;
          if constexpr (kCombined) {
            tessera_mbox_set_mask_hi(multicast->threadMaskHigh);
            tessera_mbox_set_mask_lo(multicast->threadMaskLow);
            tessera_mbox_multicast_masked(multicast->mbox);
          } else {
            mailbox.multicast(multicast->mbox, multicast->threadMaskHigh, multicast->threadMaskLow,
                              wire, kWireFlits);
          }
          msgsSent++;
          multicast++;
        } else {
          const uint32_t src = senders[--queued];
          states[src].isMarkedRTS = 0;
          const PPin pin = states[src].readyToSend;
          // A device may have changed its mind since it was queued.
          if (pin == HostPin) {
            DeviceType d = device(src);
            d.send(payloadOf(toHost));
            enqueueIfReady(src);
            toHost->destKey = PHostKey;
            PTinselMailbox().send(tinselHostId(), toHost, kHostFlits);
            msgsSent++;
          } else if (pin != No) {
            DeviceType d = device(src);
            d.send(payloadOf(&wire->message));
            enqueueIfReady(src);
            multicast = &outEdges[states[src].pinBase[pin - 2]];
          }
        }
      } else {
        const int idle = mailbox.idle(!active);
        if (idle > 1) break;
        if (idle == 1) {
          active = false;
          for (uint32_t i = 0; i < numDevices; i++) {
            DeviceType d = device(i);
            active = d.step() || active;
            enqueueIfReady(i);
          }
          time++;
        }
      }

      // Receive: on the combined path each step frees the slot of the step before, and the
      // last one, finding no message, says whether the next send may start. (One loop body for
      // both paths, in line: a lambda for it costs the edge loop registers.)
      uint32_t got = 0;
      if constexpr (kCombined) got = tessera_mbox_recv_free(0);
      for (;;) {
        volatile void* received;
        uint32_t slot = 0;
        if constexpr (kCombined) {
          slot = tessera_mbox_recv_free_slot(got);
          if (slot == 0) break;
          received = tessera_mbox_pointer(slot);
        } else {
          if (!mailbox.can_recv()) break;
          received = mailbox.recv();
        }
        PMessage<M>* const in =
            const_cast<PMessage<M>*>(&static_cast<volatile Wire*>(received)->message);
        const PInRange range = rangeOf(inRanges, numKeys, in->destKey);
        for (uint32_t e = range.first; e < range.first + range.count; e++) {
          DeviceType d = device(inEdges[e].devId);
          d.recv(&in->payload, &inEdges[e].edge);
          enqueueIfReady(inEdges[e].devId);
          msgsReceived++;
        }
        if constexpr (kCombined) {
          got = tessera_mbox_recv_free(slot);
        } else {
          mailbox.free(received);
        }
      }
      if constexpr (kCombined) canSend = tessera_mbox_recv_free_can_send(got) != 0;
    }

#ifdef POLITE_DUMP_STATS
    dumpStats();
#endif
    for (uint32_t i = 0; i < numDevices; i++) {
      tinselWaitUntil(TINSEL_CAN_SEND);
      DeviceType d = device(i);
      if (d.finish(payloadOf(toHost))) {
        toHost->destKey = PHostKey;
        PTinselMailbox().send(tinselHostId(), toHost, kHostFlits);
      }
    }
#ifdef TESSERA_POLITE_REPORT
    report();
#endif
  }

#ifdef TESSERA_POLITE_REPORT
  void report() {
    // The two halves of one count: if the high half moved while the low one was read, the low
    // one wrapped, and a fresh read belongs to the new high half.
    const uint32_t before = tinselCycleCountU();
    uint32_t low = tinselCycleCount();
    const uint32_t high = tinselCycleCountU();
    if (high != before) low = tinselCycleCount();
    tinselWaitUntil(TINSEL_CAN_SEND);
    volatile PThreadReport* const r = static_cast<volatile PThreadReport*>(tinselSendSlot());
    r->key = PReportKey;
    r->threadId = tinselId();
    r->devices = numDevices;
    r->steps = time;
    r->sent = msgsSent;
    r->delivered = msgsReceived;
    r->blockedSends = blockedSends;
    r->cyclesLow = low;
    r->cyclesHigh = high;
    PTinselMailbox().send(tinselHostId(), r,
                          (sizeof(PThreadReport) - 1) / TESSERA_BYTES_PER_FLIT + 1);
  }
#endif

#ifdef POLITE_DUMP_STATS
  // Tinsel's statistics lines, which politeSaveStats on the host collects: per core its cycles
  // and idle cycles (first thread of the core), per thread its message counts.
  void dumpStats() {
    tinselPerfCountStop();
    const uint32_t me = tinselId();
    if ((me & (tinselThreadsPerCore() - 1)) == 0) {
      printf("C:%x %x,I:%x %x\n", tinselCycleCountU(), tinselCycleCount(), tinselCPUIdleCountU(),
             tinselCPUIdleCount());
    }
#ifdef POLITE_COUNT_MSGS
    printf("MS:%x,MR:%x,PR:0,PRI:0,BL:%x\n", msgsSent, msgsReceived, blockedSends);
#endif
  }
#endif

 private:
  // The receivers of a key on this thread: one entry of the table the key indexes. A key
  // beyond the table (which the host's tables never send this thread) gives none.
  static PInRange rangeOf(const PInRange* ranges, uint32_t count, uint32_t key) {
    if (key < count) return ranges[key];
    return PInRange{0, 0, 0};
  }

  // The send slot's payload for send() and finish(), which may take M* (as many POLite programs
  // do) or volatile M* (as PDevice declares).
  static M* payloadOf(volatile PMessage<M>* slot) {
    return const_cast<M*>(&slot->payload);
  }

  template <typename T>
  T* at(uint32_t offset) {
    return reinterpret_cast<T*>(reinterpret_cast<char*>(static_cast<PThreadImage*>(this)) + offset);
  }
};

#endif
