#include "ring_link.h"

#include "tinsel.h"

namespace tessera::shake::ring {
namespace {

constexpr uint32_t kWords = sizeof(Message) / 4;

const TinselWakeupCond kSendOrRecv =
    static_cast<TinselWakeupCond>(TINSEL_CAN_SEND | TINSEL_CAN_RECV);

// The flits a message needs: the 16-byte header alone for the all-reduce's tokens and votes,
// and 12 bytes per entry after it otherwise.
uint32_t flitsOf(const Message& m) {
  switch (m.kind) {
    case Kind::kCollect:
    case Kind::kVerdict:
    case Kind::kVote:
      return 1;
    case Kind::kStartPositions:
    case Kind::kPositions:
    case Kind::kDisplacements:
      return 1 + (m.count * sizeof(fixed::Vec) + 15) / 16;
    default:
      return sizeof(Message) / 16;
  }
}

// Copies a message into the send slot (volatile: the mailbox reads it) and sends it.
void transmit(uint32_t dest, const Message& m) {
  const uint32_t flits = flitsOf(m);
  uint32_t words[kWords];
  __builtin_memcpy(words, &m, sizeof words);
  volatile uint32_t* slot = static_cast<volatile uint32_t*>(tinselSendSlot());
  for (uint32_t w = 0; w < flits * 4; w++) slot[w] = words[w];
  tinselSetLen(static_cast<int>(flits) - 1);
  tinselSend(static_cast<int>(dest), slot);
}

// Copies the next message out of its slot (the header, then as many words as it has) and frees
// the slot.
Message take() {
  volatile uint32_t* slot = static_cast<volatile uint32_t*>(tinselRecv());
  uint32_t words[kWords] = {};
  for (uint32_t w = 0; w < 4; w++) words[w] = slot[w];
  Message m;
  __builtin_memcpy(&m, words, 16);
  const uint32_t flits = m.count <= kEntriesPerMessage ? flitsOf(m) : 1;
  for (uint32_t w = 4; w < flits * 4; w++) words[w] = slot[w];
  tinselFree(slot);
  __builtin_memcpy(&m, words, sizeof m);
  return m;
}

uint32_t threadAt(uint32_t position) {
  const TesseraShape shape = tessera_tinsel_shape_();
  return tessera_thread_at(&shape, position);
}

}  // namespace

RingLink::RingLink(const Header& h, Sum* sums, const uint32_t* exports, fixed::Vec* incoming,
                   Forward* forwards)
    : h_(h),
      previous_(threadAt((h.position + h.ringSize - 1) % h.ringSize)),
      next_(threadAt((h.position + 1) % h.ringSize)),
      sums_(sums),
      exports_(exports),
      incoming_(incoming),
      forwards_(forwards) {}

void RingLink::send(uint32_t dest, const Message& m) {
  // A thread that only waited to send could hold up the neighbour waiting on it: receive
  // meanwhile.
  while (!tinselCanSend()) {
    tinselWaitUntil(kSendOrRecv);
    if (tinselCanRecv()) file(take());
  }
  transmit(dest, m);
  sent_++;
}

void RingLink::sendValue(uint32_t dest, Kind kind, uint32_t round, uint32_t first, uint32_t value) {
  Message m{};
  m.kind = kind;
  m.round = round;
  m.first = first;
  m.count = value;
  send(dest, m);
}

void RingLink::sendToHost(const Message& m) {
  while (!tinselCanSend()) {
    tinselWaitUntil(kSendOrRecv);
    if (tinselCanRecv()) file(take());
  }
  transmit(tinselHostId(), m);
}

void RingLink::progress() {
  if (forwardCount_ > 0 && tinselCanSend()) {
    const Forward f = forwards_[forwardHead_];
    forwardHead_ = (forwardHead_ + 1) % (2 * h_.ringSize);
    forwardCount_--;
    Message m{};
    m.kind = Kind::kVote;
    m.round = f.round;
    m.first = f.voterAndValue >> 1;
    m.count = f.voterAndValue & 1;
    transmit(next_, m);
    sent_++;
    return;
  }
  tinselWaitUntil(forwardCount_ > 0 ? kSendOrRecv : TINSEL_CAN_RECV);
  if (tinselCanRecv()) file(take());
}

void RingLink::file(const Message& m) {
  switch (m.kind) {
    case Kind::kStartPositions:
    case Kind::kPositions:
      if (ghostEntries_ == 0) {
        ghostKind_ = m.kind;
        ghostRound_ = m.round;
      }
      if (m.kind != ghostKind_ || m.round != ghostRound_ || m.first > h_.ghosts ||
          m.count > h_.ghosts - m.first) {
        protocolError_ = true;
        return;
      }
      for (uint32_t e = 0; e < m.count; e++) incoming_[m.first + e] = m.entries[e];
      ghostEntries_ += m.count;
      return;
    case Kind::kDisplacements:
      if (exportEntries_ == 0) exportRound_ = m.round;
      if (m.round != exportRound_ || m.first > h_.exports || m.count > h_.exports - m.first) {
        protocolError_ = true;
        return;
      }
      for (uint32_t e = 0; e < m.count; e++) {
        sums_[exports_[m.first + e]].add(m.entries[e]);
      }
      exportEntries_ += m.count;
      return;
    case Kind::kCollect:
    case Kind::kVerdict: {
      const bool collect = m.kind == Kind::kCollect;
      bool& have = collect ? haveCollect_ : haveVerdict_;
      if (have) protocolError_ = true;
      have = true;
      (collect ? collectRound_ : verdictRound_) = m.round;
      (collect ? collectValue_ : verdictValue_) = m.count != 0;
      return;
    }
    case Kind::kVote: {
      const uint32_t parity = m.round & 1;
      votes_[parity]++;
      voteAnd_[parity] = voteAnd_[parity] && m.count != 0;
      // Once around: the voter's predecessor is the last to hear it.
      if ((h_.position + 1) % h_.ringSize != m.first) {
        if (forwardCount_ == 2 * h_.ringSize) {
          protocolError_ = true;
          return;
        }
        forwards_[(forwardHead_ + forwardCount_) % (2 * h_.ringSize)] = {
            m.round, m.first << 1 | (m.count != 0 ? 1u : 0u)};
        forwardCount_++;
      }
      return;
    }
    default:
      protocolError_ = true;
      return;
  }
}

void RingLink::awaitGhosts(Kind kind, uint32_t round) {
  if (h_.ghosts == 0) return;
  while (ghostEntries_ < h_.ghosts) progress();
  if (ghostKind_ != kind || ghostRound_ != round) protocolError_ = true;
  ghostEntries_ = 0;
}

void RingLink::awaitExportSums(uint32_t round) {
  if (h_.exports == 0) return;
  while (exportEntries_ < h_.exports) progress();
  if (exportRound_ != round) protocolError_ = true;
  exportEntries_ = 0;
}

bool RingLink::awaitToken(Kind kind, uint32_t round) {
  const bool collect = kind == Kind::kCollect;
  bool& have = collect ? haveCollect_ : haveVerdict_;
  while (!have) progress();
  have = false;
  if ((collect ? collectRound_ : verdictRound_) != round) protocolError_ = true;
  return collect ? collectValue_ : verdictValue_;
}

bool RingLink::awaitVotes(uint32_t round) {
  const uint32_t parity = round & 1;
  while (votes_[parity] < h_.ringSize - 1) progress();
  const bool all = voteAnd_[parity];
  votes_[parity] = 0;
  voteAnd_[parity] = true;
  return all;
}

void RingLink::flushForwards() {
  while (forwardCount_ > 0) progress();
}

}  // namespace tessera::shake::ring
