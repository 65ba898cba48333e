// Multi-source shortest paths on an unweighted graph: for each of kMSSPSources sources, every
// vertex learns how many hops away it is, and reports the sum of those distances and how many
// sources reach it. A vertex keeps one bit per source that has reached it and passes the bits
// on; a bit that first arrives in time step t means a distance of t + 1.
//
//   MSSPSyncVertex: sends only when it learnt new bits in the last step; the run ends when a
//                   step teaches nobody anything.
//   MSSPGalsVertex: no global steps. A vertex sends its bits once per round of its own and
//                   moves to the next round once it has every in-neighbour's message of this one;
//                   it stops after the round in which the last source reached it. Rounds are
//                   told apart by the time in each message; a neighbour is at most one round
//                   ahead, which holds on an undirected graph (every out-neighbour is also an
//                   in-neighbour), so GALS runs need one, and the source set must reach every
//                   vertex.
//
// Both compute the same distances: round t of the GALS vertex is step t of the synchronous one.
#ifndef TESSERA_APPS_VERTEX_MSSP_H
#define TESSERA_APPS_VERTEX_MSSP_H

#include <POLite.h>

#define kMSSPWords 2
#define kMSSPSources (32 * kMSSPWords)

struct MSSPMessage {
  uint32_t time;                  // GALS: the sender's round. finish: the vertex id
  uint32_t reaching[kMSSPWords];  // finish: [0] the sum of distances, [1] the sources reached
};

static inline uint32_t msspBitCount(uint32_t x) {
  uint32_t n = 0;
  for (; x != 0; x &= x - 1) n++;
  return n;
}

struct MSSPSyncState {
  uint32_t id;
  uint32_t sum;  // of the distances to the sources that reached this vertex
  uint32_t reached;
  uint32_t reaching[kMSSPWords];  // sources known to reach this vertex
  uint32_t offered[kMSSPWords];   // sources the neighbours reported this step
};

struct MSSPSyncVertex : PVertex<MSSPSyncState, None, MSSPMessage> {
  // A source starts with its own bit (set by the host).
  void init() {
    uint32_t any = 0;
    for (uint32_t i = 0; i < kMSSPWords; i++) any |= s->reaching[i];
    s->reached = 0;
    for (uint32_t i = 0; i < kMSSPWords; i++) s->reached += msspBitCount(s->reaching[i]);
    *readyToSend = any != 0 ? Pin(0) : No;
  }
  void send(volatile MSSPMessage* msg) {
    for (uint32_t i = 0; i < kMSSPWords; i++) msg->reaching[i] = s->reaching[i];
    *readyToSend = No;
  }
  void recv(MSSPMessage* msg, None*) {
    for (uint32_t i = 0; i < kMSSPWords; i++) s->offered[i] |= msg->reaching[i];
  }
  bool step() {
    uint32_t learnt = 0;
    for (uint32_t i = 0; i < kMSSPWords; i++) {
      const uint32_t fresh = s->offered[i] & ~s->reaching[i];
      s->reaching[i] |= fresh;
      s->offered[i] = 0;
      learnt += msspBitCount(fresh);
    }
    s->sum += learnt * (time + 1u);
    s->reached += learnt;
    if (learnt == 0) return false;
    *readyToSend = Pin(0);
    return true;
  }
  bool finish(volatile MSSPMessage* msg) {
    msg->time = s->id;
    msg->reaching[0] = s->sum;
    msg->reaching[1] = s->reached;
    return true;
  }
};

struct MSSPGalsState {
  uint32_t id;
  uint32_t sum;
  uint32_t reached;
  uint32_t round;
  uint32_t fanIn;                   // set by the host
  uint32_t received, receivedNext;  // this round's messages, and next round's that came early
  uint8_t sent;                     // this round's message has gone
  uint8_t done;
  uint32_t reaching[kMSSPWords];
  uint32_t offered[kMSSPWords], offeredNext[kMSSPWords];
};

struct MSSPGalsVertex : PVertex<MSSPGalsState, None, MSSPMessage> {
  void init() {
    s->reached = 0;
    for (uint32_t i = 0; i < kMSSPWords; i++) s->reached += msspBitCount(s->reaching[i]);
    *readyToSend = Pin(0);
  }
  void send(volatile MSSPMessage* msg) {
    msg->time = s->round;
    for (uint32_t i = 0; i < kMSSPWords; i++) msg->reaching[i] = s->reaching[i];
    s->sent = 1;
    *readyToSend = No;
    advance();
  }
  void recv(MSSPMessage* msg, None*) {
    if (msg->time == s->round) {
      for (uint32_t i = 0; i < kMSSPWords; i++) s->offered[i] |= msg->reaching[i];
      s->received++;
      advance();
    } else {
      for (uint32_t i = 0; i < kMSSPWords; i++) s->offeredNext[i] |= msg->reaching[i];
      s->receivedNext++;
    }
  }
  bool step() { return false; }
  bool finish(volatile MSSPMessage* msg) {
    msg->time = s->id;
    msg->reaching[0] = s->sum;
    msg->reaching[1] = s->reached;
    return true;
  }

 private:
  // After this round's message went out and every in-neighbour's arrived: fold in what they
  // offered (distance round + 1) and start the next round, unless every source has arrived.
  void advance() {
    if (s->done || !s->sent || s->received < s->fanIn) return;
    if (s->reached == kMSSPSources) {
      s->done = 1;
      return;
    }
    uint32_t learnt = 0;
    for (uint32_t i = 0; i < kMSSPWords; i++) {
      const uint32_t fresh = s->offered[i] & ~s->reaching[i];
      s->reaching[i] |= fresh;
      learnt += msspBitCount(fresh);
      s->offered[i] = s->offeredNext[i];
      s->offeredNext[i] = 0;
    }
    s->sum += learnt * (s->round + 1);
    s->reached += learnt;
    s->received = s->receivedNext;
    s->receivedNext = 0;
    s->round++;
    s->sent = 0;
    *readyToSend = Pin(0);
  }
};

#endif
