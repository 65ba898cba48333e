// The host link codec on its own: frames laid out as docs/mailbox.md says,
// and the parser's rules for bad headers, missing threads, partial and held
// frames.
#include "tessera/models/hostlink.h"

#include <gtest/gtest.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "tessera/hw/regs.h"

namespace {

using Bytes = std::vector<uint8_t>;

void Put(Bytes& out, uint64_t value, int width) {
  for (int i = 0; i < width; i++) {
    out.push_back(static_cast<uint8_t>(value >> (8 * i)));
  }
}

// A header written out byte by byte, as the table of docs/mailbox.md has it.
Bytes Header(uint32_t thread, uint32_t flits, uint64_t cycle) {
  Bytes out;
  Put(out, thread, 4);
  Put(out, flits, 4);
  Put(out, cycle, 8);
  return out;
}

// A header and `flits` flits of payload counting up from `fill`.
Bytes Frame(uint32_t thread, uint32_t flits, uint64_t cycle, uint8_t fill) {
  Bytes out = Header(thread, flits, cycle);
  for (uint32_t i = 0; i < flits * TESSERA_BYTES_PER_FLIT; i++) {
    out.push_back(static_cast<uint8_t>(fill + i));
  }
  return out;
}

Bytes Concat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& part : parts) {
    out.insert(out.end(), part.begin(), part.end());
  }
  return out;
}

TEST(HostlinkLayout, ConstantsAreTheDocumentedOnes) {
  EXPECT_EQ(TESSERA_HOSTLINK_HEADER_BYTES, 16u);
  EXPECT_EQ(TESSERA_HOSTLINK_MAX_FRAME_BYTES, 16u + 4 * 16);
  EXPECT_EQ(tessera_hostlink_frame_bytes(1), 32u);
  EXPECT_EQ(tessera_hostlink_frame_bytes(4), 80u);
  EXPECT_FALSE(tessera_hostlink_flits_valid(0));
  EXPECT_TRUE(tessera_hostlink_flits_valid(1));
  EXPECT_TRUE(tessera_hostlink_flits_valid(4));
  EXPECT_FALSE(tessera_hostlink_flits_valid(5));
  EXPECT_FALSE(tessera_hostlink_flits_valid(UINT32_MAX));
}

TEST(HostlinkEncode, LaysTheFrameOutLittleEndian) {
  Bytes payload(2 * TESSERA_BYTES_PER_FLIT);
  for (size_t i = 0; i < payload.size(); i++) {
    payload[i] = static_cast<uint8_t>(0x40 + i);
  }
  const TesseraHostlinkHeader h{0x01020304, 2, 0x1122334455667788};
  uint8_t out[TESSERA_HOSTLINK_MAX_FRAME_BYTES + 1];
  memset(out, 0xee, sizeof(out));
  ASSERT_EQ(tessera_hostlink_encode(&h, payload.data(), out), 48u);
  EXPECT_EQ(Bytes(out, out + 48), Frame(0x01020304, 2, 0x1122334455667788, 0x40));
  EXPECT_EQ(out[48], 0xee);
}

TEST(HostlinkEncode, RefusesFlitCountsOutsideOneToFour) {
  uint8_t payload[TESSERA_BYTES_PER_SLOT] = {};
  uint8_t out[TESSERA_HOSTLINK_MAX_FRAME_BYTES];
  memset(out, 0xee, sizeof(out));
  for (uint32_t flits : {0u, 5u, 0xffffffffu}) {
    const TesseraHostlinkHeader h{1, flits, 0};
    EXPECT_EQ(tessera_hostlink_encode(&h, payload, out), 0u) << flits;
  }
  EXPECT_EQ(out[0], 0xee);
}

TEST(HostlinkDecode, PartialUntilWholeThenWhole) {
  const Bytes frame = Frame(7, 3, 99, 0);
  TesseraHostlinkHeader h{};
  for (size_t len = 0; len < frame.size(); len++) {
    EXPECT_EQ(tessera_hostlink_decode(frame.data(), len, &h), TESSERA_HOSTLINK_PARTIAL) << len;
  }
  Bytes longer = Concat({frame, Frame(1, 1, 0, 0)});
  ASSERT_EQ(tessera_hostlink_decode(longer.data(), longer.size(), &h), TESSERA_HOSTLINK_WHOLE);
  EXPECT_EQ(h.thread, 7u);
  EXPECT_EQ(h.flits, 3u);
  EXPECT_EQ(h.cycle, 99u);
}

TEST(HostlinkDecode, BadFlitsAsSoonAsTheHeaderIsWhole) {
  const Bytes header = Header(7, 5, 0);
  TesseraHostlinkHeader h{};
  EXPECT_EQ(tessera_hostlink_decode(header.data(), 15, &h), TESSERA_HOSTLINK_PARTIAL);
  EXPECT_EQ(tessera_hostlink_decode(header.data(), 16, &h), TESSERA_HOSTLINK_BAD_FLITS);
  EXPECT_EQ(h.flits, 5u);
  const Bytes zero = Header(7, 0, 0);
  EXPECT_EQ(tessera_hostlink_decode(zero.data(), zero.size(), &h), TESSERA_HOSTLINK_BAD_FLITS);
}

// One event of the parser, with the bytes it took.
struct Step {
  TesseraHostlinkEvent event;
  size_t used;
  TesseraHostlinkHeader header;
};

class HostlinkParserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // 2x1 boards of 2x2 tiles, 2 cores of 2 threads: ids 0x00..0x1f all
    // exist; 0x20 (board row 1) is the host id, no thread.
    shape_ = {2, 1, 2, 2, 2, 2};
    parser_ = tessera_hostlink_parser_new(&shape_);
    ASSERT_NE(parser_, nullptr);
  }
  void TearDown() override { tessera_hostlink_parser_free(parser_); }

  Step Push(const Bytes& bytes, size_t from = 0, size_t len = SIZE_MAX) {
    Step s{};
    len = std::min(len, bytes.size() - from);
    s.header = {0xdead, 0xbeef, 0};
    s.event = tessera_hostlink_parser_push(parser_, bytes.data() + from, len, &s.used, &s.header);
    return s;
  }

  // Pushes all of `bytes`, as often as it takes, and lists the events.
  std::vector<Step> PushAll(const Bytes& bytes) {
    std::vector<Step> steps;
    size_t at = 0;
    while (at < bytes.size()) {
      Step s = Push(bytes, at);
      at += s.used;
      steps.push_back(s);
      if (s.event == TESSERA_HOSTLINK_FRAME) {
        tessera_hostlink_parser_release(parser_);
      }
    }
    return steps;
  }

  Bytes HeldPayload() {
    TesseraHostlinkHeader h{};
    const uint8_t* payload = tessera_hostlink_parser_frame(parser_, &h);
    if (payload == nullptr) {
      return {};
    }
    return Bytes(payload, payload + h.flits * TESSERA_BYTES_PER_FLIT);
  }

  static Bytes PayloadOf(const Bytes& frame) {
    return Bytes(frame.begin() + TESSERA_HOSTLINK_HEADER_BYTES, frame.end());
  }

  TesseraShape shape_;
  TesseraHostlinkParser* parser_ = nullptr;
};

TEST_F(HostlinkParserTest, AWholeFrameIsHeldUntilReleased) {
  const Bytes frame = Frame(0x13, 2, 0, 0x10);
  const Bytes next = Frame(0x01, 1, 0, 0x80);
  const Bytes stream = Concat({frame, next});

  Step s = Push(stream);
  EXPECT_EQ(s.event, TESSERA_HOSTLINK_FRAME);
  EXPECT_EQ(s.used, frame.size()) << "bytes after the frame are not taken";
  EXPECT_EQ(s.header.thread, 0x13u);
  EXPECT_EQ(s.header.flits, 2u);
  EXPECT_EQ(HeldPayload(), PayloadOf(frame));

  // Held: nothing is taken, the same frame is reported again.
  EXPECT_EQ(tessera_hostlink_parser_room(parser_), 0u);
  s = Push(stream, frame.size());
  EXPECT_EQ(s.event, TESSERA_HOSTLINK_FRAME);
  EXPECT_EQ(s.used, 0u);
  EXPECT_EQ(s.header.thread, 0x13u);

  tessera_hostlink_parser_release(parser_);
  EXPECT_EQ(tessera_hostlink_parser_frame(parser_, nullptr), nullptr);
  s = Push(stream, frame.size());
  EXPECT_EQ(s.event, TESSERA_HOSTLINK_FRAME);
  EXPECT_EQ(s.used, next.size());
  EXPECT_EQ(s.header.thread, 0x01u);
  EXPECT_EQ(HeldPayload(), PayloadOf(next));
}

TEST_F(HostlinkParserTest, APartialFrameWaitsForMoreBytes) {
  const Bytes frame = Frame(0x05, 4, 0, 0x20);
  // One byte at a time: every byte but the last is taken with NEED_MORE.
  for (size_t i = 0; i + 1 < frame.size(); i++) {
    const Step s = Push(frame, i, 1);
    ASSERT_EQ(s.event, TESSERA_HOSTLINK_NEED_MORE) << i;
    ASSERT_EQ(s.used, 1u) << i;
    ASSERT_EQ(tessera_hostlink_parser_frame(parser_, nullptr), nullptr);
  }
  const Step s = Push(frame, frame.size() - 1, 1);
  EXPECT_EQ(s.event, TESSERA_HOSTLINK_FRAME);
  EXPECT_EQ(HeldPayload(), PayloadOf(frame));
}

TEST_F(HostlinkParserTest, NothingOfferedIsNeedMore) {
  const Bytes none;
  const Step s = Push(none);
  EXPECT_EQ(s.event, TESSERA_HOSTLINK_NEED_MORE);
  EXPECT_EQ(s.used, 0u);
}

TEST_F(HostlinkParserTest, BadFlitsDropsTheHeaderOnlyAndSaysWhy) {
  // The bad header's "payload" is not skipped: its next 16 bytes are a header.
  const Bytes good = Frame(0x02, 1, 0, 0x30);
  const Bytes stream = Concat({Header(0x07, 5, 0), good});

  std::vector<Step> steps = PushAll(stream);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].event, TESSERA_HOSTLINK_DROPPED_BAD_FLITS);
  EXPECT_EQ(steps[0].used, 16u);
  EXPECT_EQ(steps[0].header.thread, 0x07u);
  EXPECT_EQ(steps[0].header.flits, 5u);
  EXPECT_EQ(steps[1].event, TESSERA_HOSTLINK_FRAME);
  EXPECT_EQ(steps[1].header.thread, 0x02u);

  char why[128];
  const int n = tessera_hostlink_describe(steps[0].event, &steps[0].header, why, sizeof(why));
  EXPECT_STREQ(why, "frame to thread 0x7 claims 5 flits (1..4 allowed); header dropped");
  EXPECT_EQ(n, static_cast<int>(strlen(why)));
}

TEST_F(HostlinkParserTest, ZeroFlitsIsABadHeaderToo) {
  const Bytes stream = Concat({Header(0x01, 0, 0), Header(0x01, 0xffffffff, 0)});
  std::vector<Step> steps = PushAll(stream);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].event, TESSERA_HOSTLINK_DROPPED_BAD_FLITS);
  EXPECT_EQ(steps[1].event, TESSERA_HOSTLINK_DROPPED_BAD_FLITS);
  EXPECT_EQ(steps[1].header.flits, 0xffffffffu);
}

TEST_F(HostlinkParserTest, NoSuchThreadSkipsThePayloadAndSaysWhy) {
  // Thread ids: 1 bit each for thread, core, tile x, tile y and board x,
  // then board y: 0x20 is board row 1, which this machine lacks.
  ASSERT_FALSE(tessera_thread_exists(&shape_, 0x20));
  ASSERT_TRUE(tessera_thread_exists(&shape_, 0x1f));
  const Bytes missing = Frame(0x20, 3, 0, 0);
  const Bytes good = Frame(0x1f, 1, 0, 0x50);
  const Bytes stream = Concat({missing, good});

  Step s = Push(stream);
  EXPECT_EQ(s.event, TESSERA_HOSTLINK_DROPPED_NO_THREAD);
  EXPECT_EQ(s.used, 16u) << "reported as soon as the header is whole";
  EXPECT_EQ(s.header.thread, 0x20u);
  EXPECT_EQ(s.header.flits, 3u);
  EXPECT_EQ(tessera_hostlink_parser_room(parser_), 3 * TESSERA_BYTES_PER_FLIT);

  char why[128];
  tessera_hostlink_describe(s.event, &s.header, why, sizeof(why));
  EXPECT_STREQ(why, "no thread 0x20 in this machine; frame of 3 flits dropped");

  // The skipped payload, split, then the next frame.
  s = Push(stream, 16, 20);
  EXPECT_EQ(s.event, TESSERA_HOSTLINK_NEED_MORE);
  EXPECT_EQ(s.used, 20u);
  EXPECT_EQ(tessera_hostlink_parser_room(parser_), 28u);
  s = Push(stream, 36);
  EXPECT_EQ(s.event, TESSERA_HOSTLINK_FRAME);
  EXPECT_EQ(s.used, 28 + good.size());
  EXPECT_EQ(s.header.thread, 0x1fu);
  EXPECT_EQ(HeldPayload(), PayloadOf(good));
}

TEST_F(HostlinkParserTest, RoomNeverReachesPastTheNextEvent) {
  // A reader that cannot give bytes back (QEMU's chardev) offers at most
  // room() bytes; every push of that many must take them all.
  const Bytes stream = Concat({Frame(0x01, 1, 0, 0), Frame(0x07, 9, 0, 0), Frame(0x20, 2, 0, 0),
                               Frame(0x02, 4, 0, 0), Frame(0x03, 2, 0, 0)});
  size_t at = 0;
  std::vector<TesseraHostlinkEvent> events;
  while (at < stream.size()) {
    const size_t room = tessera_hostlink_parser_room(parser_);
    ASSERT_GT(room, 0u);
    const Step s = Push(stream, at, room);
    ASSERT_EQ(s.used, std::min(room, stream.size() - at)) << "at " << at;
    at += s.used;
    if (s.event != TESSERA_HOSTLINK_NEED_MORE) {
      events.push_back(s.event);
    }
    if (s.event == TESSERA_HOSTLINK_FRAME) {
      EXPECT_EQ(tessera_hostlink_parser_room(parser_), 0u);
      tessera_hostlink_parser_release(parser_);
    }
  }
  // Frame(0x07, 9, ...) is a bad header, and its 144 "payload" bytes are
  // read as 9 more headers, all with huge flit counts.
  std::vector<TesseraHostlinkEvent> expected{TESSERA_HOSTLINK_FRAME};
  expected.insert(expected.end(), 10, TESSERA_HOSTLINK_DROPPED_BAD_FLITS);
  expected.insert(expected.end(), {TESSERA_HOSTLINK_DROPPED_NO_THREAD, TESSERA_HOSTLINK_FRAME,
                                   TESSERA_HOSTLINK_FRAME});
  EXPECT_EQ(events, expected);
}

TEST_F(HostlinkParserTest, ReleaseWithoutAFrameDoesNothing) {
  const Bytes frame = Frame(0x01, 2, 0, 0);
  EXPECT_EQ(Push(frame, 0, 20).event, TESSERA_HOSTLINK_NEED_MORE);
  tessera_hostlink_parser_release(parser_);
  const Step s = Push(frame, 20);
  EXPECT_EQ(s.event, TESSERA_HOSTLINK_FRAME);
  EXPECT_EQ(HeldPayload(), PayloadOf(frame));
}

TEST(HostlinkDescribe, OtherEventsAreEmptyAndTruncationIsSafe) {
  const TesseraHostlinkHeader h{0x20, 3, 0};
  char why[8];
  EXPECT_EQ(tessera_hostlink_describe(TESSERA_HOSTLINK_FRAME, &h, why, sizeof(why)), 0);
  EXPECT_STREQ(why, "");
  EXPECT_GT(tessera_hostlink_describe(TESSERA_HOSTLINK_DROPPED_NO_THREAD, &h, why, sizeof(why)), 7);
  EXPECT_STREQ(why, "no thre");
}

}  // namespace

namespace {

TEST(HostlinkEndOfInput, TheControlFrameIsAHeaderOfZeroFlitsToAllOnes) {
  uint8_t out[TESSERA_HOSTLINK_HEADER_BYTES];
  ASSERT_EQ(tessera_hostlink_encode_end_of_input(out), TESSERA_HOSTLINK_HEADER_BYTES);
  EXPECT_EQ(Bytes(out, out + sizeof(out)), Header(0xffffffff, 0, 0));
}

TEST_F(HostlinkParserTest, EndOfInputIsAnEventBetweenFrames) {
  uint8_t control[TESSERA_HOSTLINK_HEADER_BYTES];
  const Bytes end(control, control + tessera_hostlink_encode_end_of_input(control));
  const Bytes before = Frame(0x03, 1, 0, 0x10);
  const Bytes after = Frame(0x04, 1, 0, 0x20);
  const std::vector<Step> steps = PushAll(Concat({before, end, after}));
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].event, TESSERA_HOSTLINK_FRAME);
  EXPECT_EQ(steps[1].event, TESSERA_HOSTLINK_END_OF_INPUT_FRAME);
  EXPECT_EQ(steps[1].used, TESSERA_HOSTLINK_HEADER_BYTES);
  EXPECT_EQ(steps[2].event, TESSERA_HOSTLINK_FRAME);
  EXPECT_EQ(steps[2].header.thread, 0x04u);
  // Zero flits to any other thread is still a bad header.
  EXPECT_EQ(Push(Header(0x03, 0, 0)).event, TESSERA_HOSTLINK_DROPPED_BAD_FLITS);
}

}  // namespace
