// A ring thread's messages (docs/shake.md, "On the machine"): sends to its two neighbours and
// to the host, and receives whatever arrives, filing each message where the thread will look
// for it. Neighbours run at most one round apart (each round ends in an all-reduce), so one
// place per kind of message is enough, except for ringp's votes, which are kept per round
// parity and whose forwarding waits in a queue until the thread can send.
//
// Waiting is always tinselWaitUntil: the thread sleeps until it can send or has a message.
#ifndef TESSERA_SHAKE_RING_LINK_H
#define TESSERA_SHAKE_RING_LINK_H

#include <stdint.h>

#include "tessera/shake/ring_image.h"

namespace tessera::shake::ring {

class RingLink {
 public:
  // `incoming` has room for the ghosts' positions; `sums` are the thread's summed
  // displacements, to which its exports' sums from the previous thread are added as they come;
  // `exports` lists those particles; `forwards` has room for 2 * ringSize votes.
  RingLink(const Header& h, Sum* sums, const uint32_t* exports, fixed::Vec* incoming,
           Forward* forwards);

  uint32_t previous() const { return previous_; }
  uint32_t next() const { return next_; }
  uint32_t sent() const { return sent_; }

  // Sends to a thread (receiving meanwhile, so that waiting to send holds nobody up).
  void send(uint32_t dest, const Message& m);
  void sendValue(uint32_t dest, Kind kind, uint32_t round, uint32_t first, uint32_t value);
  void sendToHost(const Message& m);

  // Waits for the next thread's positions of this kind and round (all ghosts), in `incoming`.
  void awaitGhosts(Kind kind, uint32_t round);
  // Waits until the previous thread's displacements of this round are all added to `sums`.
  void awaitExportSums(uint32_t round);
  // Waits for a ring2 token of this kind and round; returns its value.
  bool awaitToken(Kind kind, uint32_t round);
  // ringp: waits for every other thread's vote of this round, forwarding each on; returns
  // their AND.
  bool awaitVotes(uint32_t round);
  // Sends every forward still queued.
  void flushForwards();

  // A message that fits no exchange in progress: a bug, reported as such.
  bool protocolError() const { return protocolError_; }

 private:
  // Sleeps until a message arrives (or, with forwards queued, until one can be sent), then
  // files the message or sends a forward.
  void progress();
  void file(const Message& m);

  const Header& h_;
  uint32_t previous_, next_;
  Sum* sums_;
  const uint32_t* exports_;
  fixed::Vec* incoming_;
  Forward* forwards_;  // ringp votes to pass on, a queue of 2 * ringSize
  uint32_t forwardHead_ = 0, forwardCount_ = 0;

  // Positions from the next thread.
  Kind ghostKind_ = Kind::kPositions;
  uint32_t ghostRound_ = 0, ghostEntries_ = 0;
  // Displacements from the previous thread.
  uint32_t exportRound_ = 0, exportEntries_ = 0;
  // ring2 tokens.
  uint32_t collectRound_ = 0, verdictRound_ = 0;
  bool haveCollect_ = false, haveVerdict_ = false, collectValue_ = false, verdictValue_ = false;
  // ringp votes by round parity.
  uint32_t votes_[2] = {0, 0};
  bool voteAnd_[2] = {true, true};

  uint32_t sent_ = 0;
  bool protocolError_ = false;
};

}  // namespace tessera::shake::ring

#endif
