// The host library's encode() and decode(): the model's codec behind the
// C++ API that tessera-host uses, words little-endian, exceptions for what
// no machine would send.
#include "tessera/hostlink/hostlink.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace {

using tessera::hostlink::decode;
using tessera::hostlink::encode;
using tessera::hostlink::kHeaderBytes;
using tessera::hostlink::Message;

TEST(HostlinkLibrary, EncodesTheDocumentedLayout) {
  Message m;
  m.thread = 0x0a0b0c0d;
  m.flits = 1;
  m.cycle = 0x0102030405060708;
  m.words = {0x11223344, 2, 3, 4, 0xdead};  // words past the flits are not sent
  const uint8_t expected[] = {0x0d, 0x0c, 0x0b, 0x0a, 1, 0, 0, 0, 8, 7, 6, 5, 4, 3, 2, 1,
                              0x44, 0x33, 0x22, 0x11, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};
  EXPECT_EQ(encode(m), std::string(reinterpret_cast<const char*>(expected), sizeof(expected)));
}

TEST(HostlinkLibrary, EncodeThrowsForFlitsOutsideOneToFour) {
  Message m;
  m.flits = 0;
  EXPECT_THROW(encode(m), std::invalid_argument);
  m.flits = 5;
  EXPECT_THROW(encode(m), std::invalid_argument);
}

TEST(HostlinkLibrary, DecodeGivesBackWhatEncodeWrote) {
  Message m;
  m.thread = 7;
  m.flits = 4;
  m.cycle = 1234;
  for (uint32_t w = 0; w < m.words.size(); w++) {
    m.words[w] = 0x01010101u * w;
  }
  const std::string frame = encode(m);
  ASSERT_EQ(frame.size(), kHeaderBytes + 64);
  Message back;
  EXPECT_EQ(decode(frame + "next", back), frame.size());
  EXPECT_EQ(back.thread, 7u);
  EXPECT_EQ(back.flits, 4u);
  EXPECT_EQ(back.cycle, 1234u);
  EXPECT_EQ(back.words, m.words);
}

TEST(HostlinkLibrary, DecodeWaitsForAWholeFrame) {
  Message m;
  m.flits = 2;
  const std::string frame = encode(m);
  Message out;
  for (size_t len = 0; len < frame.size(); len++) {
    EXPECT_EQ(decode(frame.substr(0, len), out), 0u) << len;
  }
}

TEST(HostlinkLibrary, DecodeThrowsForABadHeaderOnceItIsWhole) {
  std::string header(kHeaderBytes, '\0');
  header[4] = 9;  // flits
  Message out;
  EXPECT_EQ(decode(header.substr(0, kHeaderBytes - 1), out), 0u);
  EXPECT_THROW(decode(header, out), std::invalid_argument);
  header[4] = 0;
  EXPECT_THROW(decode(header, out), std::invalid_argument);
}

}  // namespace
