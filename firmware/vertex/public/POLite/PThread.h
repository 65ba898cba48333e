// The per-thread vertex runtime: PThread<DeviceType, S, E, M>::run() drives the handlers of the
// devices whose image the host wrote at the thread's tinselHeapBaseSRAM() (PGraph::write).
//
//   typedef PThread<SSSPDevice, SSSPState, int32_t, int32_t> SSSPThread;
//   int main() { ((SSSPThread*)tinselHeapBaseSRAM())->run(); return 0; }
//
// The loop, until termination:
//   1. send: one destination tile at a time of the message in the send slot (a multicast to the
//      threads of that tile that hold receivers), else call send() of the next queued device;
//   2. receive: every waiting message goes to recv() of each device its key lists, with the
//      label of that in-edge;
//   3. with nothing to send: tinselIdle(vote). When it detects termination, step() runs on every
//      device (a time step); when every thread voted "no step asked for more", the loop ends.
// Then finish() runs on every device and each true result sends the message to the host.
//
// Only tinsel.h is used, so the runtime runs on the host backend's machine in unit tests too.
#ifndef TESSERA_POLITE_PTHREAD_H
#define TESSERA_POLITE_PTHREAD_H

#include "POLite/PDevice.h"
#include "tinsel.h"

template <typename DeviceType, typename S, typename E, typename M>
struct PThread : PThreadImage {
  static_assert(sizeof(PMessage<M>) <= TESSERA_MAX_FLITS * TESSERA_BYTES_PER_FLIT,
                "a POLite message (2 bytes of key, then M) must fit in 4 flits");

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
    tinselSetLen(static_cast<int>((sizeof(PMessage<M>) - 1) / TESSERA_BYTES_PER_FLIT));

    const POutEdge* multicast = nullptr;  // the next destination tile of the slot's message
    bool active = true;                   // did the last step() round ask for another?
    for (;;) {
      volatile PMessage<M>* const slot = static_cast<volatile PMessage<M>*>(tinselSendSlot());
      if (multicast != nullptr && multicast->key == InvalidKey) multicast = nullptr;
      if (multicast != nullptr || queued > 0) {
        if (!tinselCanSend()) {
          blockedSends++;
          tinselWaitUntil(TINSEL_CAN_SEND | TINSEL_CAN_RECV);
        } else if (multicast != nullptr) {
          slot->destKey = multicast->key;
          tinselMulticast(multicast->mbox, multicast->threadMaskHigh, multicast->threadMaskLow,
                          slot);
          msgsSent++;
          multicast++;
        } else {
          const uint32_t src = senders[--queued];
          states[src].isMarkedRTS = 0;
          const PPin pin = states[src].readyToSend;
          // A device may have changed its mind since it was queued.
          if (pin != No) {
            DeviceType d = device(src);
            d.send(payloadOf(slot));
            enqueueIfReady(src);
            if (pin == HostPin) {
              tinselSend(static_cast<int>(tinselHostId()), slot);
              msgsSent++;
            } else {
              multicast = &outEdges[states[src].pinBase[pin - 2]];
            }
          }
        }
      } else {
        const int idle = tinselIdle(!active);
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

      while (tinselCanRecv()) {
        PMessage<M>* const in =
            const_cast<PMessage<M>*>(static_cast<volatile PMessage<M>*>(tinselRecv()));
        const PInRange range = inRanges[in->destKey];
        for (uint32_t e = range.first; e < range.first + range.count; e++) {
          DeviceType d = device(inEdges[e].devId);
          d.recv(&in->payload, &inEdges[e].edge);
          enqueueIfReady(inEdges[e].devId);
          msgsReceived++;
        }
        tinselFree(in);
      }
    }

#ifdef POLITE_DUMP_STATS
    dumpStats();
#endif
    for (uint32_t i = 0; i < numDevices; i++) {
      tinselWaitUntil(TINSEL_CAN_SEND);
      volatile PMessage<M>* const slot = static_cast<volatile PMessage<M>*>(tinselSendSlot());
      DeviceType d = device(i);
      if (d.finish(payloadOf(slot))) tinselSend(static_cast<int>(tinselHostId()), slot);
    }
  }

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
