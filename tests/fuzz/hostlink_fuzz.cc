// libFuzzer target: the host link codec of the model library
// (tessera/models/hostlink.h), both directions, into and out of the mailbox
// model, with the guest operations of mailbox_harness.h around it.
//
// Host to machine: arbitrary host bytes go through the model's parser, read
// either as the QEMU wrapper (tessera_mailbox.c) reads its chardev, never
// more than the parser's room, or all at once. Every event must be the one
// the documented rules (docs/mailbox.md, "Host link"), restated here over
// the bytes the parser took, give at exactly that byte. Whole frames go to
// tessera_mailbox_inject; one the network refuses stays held in the parser
// and is offered again after every operation, as the wrapper does after
// every CSR. Machine to host: messages the model gives the host are framed
// by the model's encoder and read back by the layout and by a parser.
// Throughout, the C++ host library (host/hostlink) must agree with
// the model on every frame and every bad header.
//
// Input: a machine (mailbox_harness.h, at most kMaxLinkHarts harts), then
// operations: raw host bytes, a well-formed frame, or a guest or host
// operation of the harness. At the end every accepted message must be
// delivered exactly once and the counts agree; the final tinselIdle round
// of the mailbox target is left to it (docs/fuzzing.md, "hostlink").
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "mailbox_harness.h"
#include "tessera/hostlink/hostlink.h"
#include "tessera/models/hostlink.h"

namespace {

namespace hostlink = tessera::hostlink;
using fuzz::FuzzInput;
using fuzz::MailboxHarness;

// Small machines keep an input cheap (docs/fuzzing.md, "hostlink"); the
// mailbox target drives the large ones.
constexpr int kMaxOperations = 2000;
constexpr uint32_t kMaxLinkHarts = 16;
// decode() throwing for a bad header is checked this often per input: a
// throw costs as much as the rest of the checks of a frame, and random bytes
// are mostly bad headers. The model's decode is checked on every one.
constexpr uint32_t kThrowChecks = 4;
// Host cycles stay in the range a modelled clock reaches.
constexpr uint64_t kCycleMask = (uint64_t{1} << 40) - 1;

uint64_t le(const uint8_t* bytes, int width) {
  uint64_t value = 0;
  for (int i = width - 1; i >= 0; i--) {
    value = value << 8 | bytes[i];
  }
  return value;
}

uint64_t le(const std::string& bytes, size_t at, int width) {
  return le(reinterpret_cast<const uint8_t*>(bytes.data()) + at, width);
}

const uint8_t* data_of(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

// TESSERA_FUZZ_TRACE=1: print the parser's events beside the harness's calls.
bool tracing() {
  static const bool on = getenv("TESSERA_FUZZ_TRACE") != nullptr;
  return on;
}

const char* event_name(TesseraHostlinkEvent e) {
  switch (e) {
    case TESSERA_HOSTLINK_NEED_MORE:
      return "need more";
    case TESSERA_HOSTLINK_FRAME:
      return "frame";
    case TESSERA_HOSTLINK_DROPPED_BAD_FLITS:
      return "bad flits";
    case TESSERA_HOSTLINK_DROPPED_NO_THREAD:
      return "no thread";
    case TESSERA_HOSTLINK_END_OF_INPUT_FRAME:
      return "end of input";
  }
  return "?";
}

// The rules of docs/mailbox.md for the stream into the machine, restated
// byte by byte: which event a byte completes, if any.
class Rules {
 public:
  explicit Rules(const TesseraShape& shape) : shape_(shape) {}

  // The event the byte ends (NEED_MORE if none); unit() then holds the bytes
  // of that frame or header.
  TesseraHostlinkEvent feed(uint8_t byte) {
    if (skip_ > 0) {
      skip_--;
      return TESSERA_HOSTLINK_NEED_MORE;
    }
    if (ended_) {
      unit_.clear();
      ended_ = false;
    }
    unit_.push_back(static_cast<char>(byte));
    const size_t header = TESSERA_HOSTLINK_HEADER_BYTES;
    if (unit_.size() < header) {
      return TESSERA_HOSTLINK_NEED_MORE;
    }
    const uint32_t thread = static_cast<uint32_t>(le(unit_, 0, 4));
    const uint32_t flits = static_cast<uint32_t>(le(unit_, 4, 4));
    if (unit_.size() == header) {
      if (thread == TESSERA_HOSTLINK_END_OF_INPUT && flits == 0) {
        ended_ = true;
        return TESSERA_HOSTLINK_END_OF_INPUT_FRAME;  // a header alone
      }
      if (flits < 1 || flits > TESSERA_MAX_FLITS) {
        ended_ = true;
        return TESSERA_HOSTLINK_DROPPED_BAD_FLITS;  // the next 16 bytes are a header
      }
      if (!tessera_thread_exists(&shape_, thread)) {
        ended_ = true;
        skip_ = flits * TESSERA_BYTES_PER_FLIT;
        return TESSERA_HOSTLINK_DROPPED_NO_THREAD;
      }
    }
    if (unit_.size() == header + flits * TESSERA_BYTES_PER_FLIT) {
      ended_ = true;
      return TESSERA_HOSTLINK_FRAME;
    }
    return TESSERA_HOSTLINK_NEED_MORE;
  }

  const std::string& unit() const { return unit_; }

 private:
  TesseraShape shape_;
  std::string unit_;  // bytes of the header or frame being read
  bool ended_ = false;
  uint32_t skip_ = 0;
};

// The C++ host library reads the frame or header the model's parser
// reported, and agrees (for a bad header: if check_throw).
void check_library_agrees(TesseraHostlinkEvent event, const std::string& unit,
                          const TesseraHostlinkHeader& header, const uint8_t* payload,
                          bool check_throw) {
  hostlink::Message m;
  TesseraHostlinkHeader decoded{};
  if (event == TESSERA_HOSTLINK_DROPPED_BAD_FLITS) {
    if (check_throw) {
      bool threw = false;
      try {
        (void)hostlink::decode(unit, m);
      } catch (const std::invalid_argument&) {
        threw = true;
      }
      FUZZ_CHECK(threw, "decode() took a header of %u flits", header.flits);
    }
    FUZZ_CHECK(
        tessera_hostlink_decode(data_of(unit), unit.size(), &decoded) == TESSERA_HOSTLINK_BAD_FLITS,
        "tessera_hostlink_decode() took a header of %u flits", header.flits);
    return;
  }
  if (event == TESSERA_HOSTLINK_END_OF_INPUT_FRAME) {
    // Whatever its cycle field holds; the library writes it as 0.
    FUZZ_CHECK(unit.substr(0, 8) == hostlink::encode_end_of_input().substr(0, 8),
               "the parser took a header the library does not write for end of input");
    return;
  }
  if (event == TESSERA_HOSTLINK_DROPPED_NO_THREAD) {
    // The library does not know the machine: to it this is a good header.
    FUZZ_CHECK(hostlink::decode(unit, m) == 0, "decode() of a bare header found a whole frame");
    return;
  }
  const size_t used = hostlink::decode(unit + "trailing", m);
  FUZZ_CHECK(used == unit.size() && m.thread == header.thread && m.flits == header.flits &&
                 m.cycle == header.cycle,
             "decode() read %zu bytes, thread 0x%x flits %u, of a %zu-byte frame to 0x%x", used,
             m.thread, m.flits, unit.size(), header.thread);
  for (uint32_t w = 0; w < m.flits * hostlink::kBytesPerFlit / 4; w++) {
    FUZZ_CHECK(m.words[w] == le(payload + 4 * w, 4), "decode() read payload word %u wrong", w);
  }
  FUZZ_CHECK(hostlink::encode(m) == unit, "encode() does not give back the frame decode() read");
  for (const size_t cut : {size_t{0}, size_t{TESSERA_HOSTLINK_HEADER_BYTES - 1},
                           size_t{TESSERA_HOSTLINK_HEADER_BYTES}, unit.size() - 1}) {
    FUZZ_CHECK(hostlink::decode(unit.substr(0, cut), m) == 0,
               "decode() took %zu bytes of a %zu-byte frame as whole", cut, unit.size());
  }
}

// The machine's end of the link, fed as the QEMU wrapper feeds it.
class HostToMachine {
 public:
  explicit HostToMachine(MailboxHarness& harness)
      : harness_(harness),
        parser_(tessera_hostlink_parser_new(&harness.shape())),
        rules_(harness.shape()) {
    FUZZ_CHECK(parser_ != nullptr, "tessera_hostlink_parser_new failed");
  }
  ~HostToMachine() { tessera_hostlink_parser_free(parser_); }
  HostToMachine(const HostToMachine&) = delete;
  HostToMachine& operator=(const HostToMachine&) = delete;

  // Bytes the host wrote, not yet read by the machine (a socket's buffer).
  void write(const std::string& bytes) { socket_ += bytes; }

  // Offers the held frame again, then reads the socket until it is empty or
  // a frame is held. `by_room`: as QEMU's chardev does, never more than
  // tessera_hostlink_parser_room(); otherwise everything at once.
  void pump(bool by_room) {
    offer();
    size_t at = 0;
    while (at < socket_.size() && !held_) {
      const size_t room = tessera_hostlink_parser_room(parser_);
      FUZZ_CHECK(room > 0, "room() is 0 with no frame held");
      const size_t len = by_room ? std::min(room, socket_.size() - at) : socket_.size() - at;
      size_t used = SIZE_MAX;
      TesseraHostlinkHeader header{};
      const TesseraHostlinkEvent event =
          tessera_hostlink_parser_push(parser_, data_of(socket_) + at, len, &used, &header);
      FUZZ_CHECK(used <= len && (event != TESSERA_HOSTLINK_NEED_MORE || used == len),
                 "push() of %zu bytes took %zu and said %s", len, used, event_name(event));
      FUZZ_CHECK(!by_room || used == len, "push() of room() = %zu bytes took only %zu", len, used);
      if (tracing()) {
        fprintf(stderr, "link push %zu of %zu bytes (%s): took %zu, %s thread 0x%x flits %u\n", len,
                socket_.size() - at, by_room ? "by room" : "at once", used, event_name(event),
                header.thread, header.flits);
      }
      check_event(event, header, at, used);
      at += used;
      if (event == TESSERA_HOSTLINK_FRAME) {
        held_ = true;
        offer();
      } else if (event == TESSERA_HOSTLINK_DROPPED_NO_THREAD) {
        // The model refuses a message to no thread too.
        const uint8_t zeros[TESSERA_BYTES_PER_SLOT] = {};
        FUZZ_CHECK(!harness_.inject(header.thread, header.flits, zeros, 0),
                   "inject to 0x%x, no thread, was taken", header.thread);
      }
    }
    socket_.erase(0, at);
  }

 private:
  // The bytes the parser took, fed to the rules one by one: the event the
  // parser reported must end at the last of them, and none before.
  void check_event(TesseraHostlinkEvent event, const TesseraHostlinkHeader& header, size_t at,
                   size_t used) {
    TesseraHostlinkEvent expected = TESSERA_HOSTLINK_NEED_MORE;
    for (size_t i = 0; i < used; i++) {
      FUZZ_CHECK(expected == TESSERA_HOSTLINK_NEED_MORE,
                 "the parser read on past a %s, %zu bytes before it stopped", event_name(expected),
                 used - i);
      expected = rules_.feed(static_cast<uint8_t>(socket_[at + i]));
    }
    FUZZ_CHECK(event == expected, "the parser said %s where the rules say %s", event_name(event),
               event_name(expected));
    if (event == TESSERA_HOSTLINK_NEED_MORE) {
      FUZZ_CHECK(tessera_hostlink_parser_frame(parser_, nullptr) == nullptr,
                 "a frame is held after 'need more'");
      return;
    }
    const std::string& unit = rules_.unit();
    FUZZ_CHECK(header.thread == le(unit, 0, 4) && header.flits == le(unit, 4, 4) &&
                   header.cycle == le(unit, 8, 8),
               "the parser reported thread 0x%x flits %u for a different header", header.thread,
               header.flits);
    const uint8_t* payload = nullptr;
    if (event == TESSERA_HOSTLINK_FRAME) {
      TesseraHostlinkHeader held{};
      payload = tessera_hostlink_parser_frame(parser_, &held);
      FUZZ_CHECK(payload != nullptr && held.thread == header.thread && held.flits == header.flits &&
                     held.cycle == header.cycle,
                 "the frame the parser holds is not the one it reported");
      FUZZ_CHECK(memcmp(payload, unit.data() + TESSERA_HOSTLINK_HEADER_BYTES,
                        header.flits * TESSERA_BYTES_PER_FLIT) == 0,
                 "the payload the parser holds differs from the frame's");
      FUZZ_CHECK(tessera_hostlink_parser_room(parser_) == 0, "room() is not 0 with a frame held");
    } else {
      char why[160];
      FUZZ_CHECK(tessera_hostlink_describe(event, &header, why, sizeof(why)) > 0,
                 "a %s event without a reason", event_name(event));
    }
    check_library_agrees(
        event, unit, header, payload,
        event == TESSERA_HOSTLINK_DROPPED_BAD_FLITS && throws_checked_++ < kThrowChecks);
  }

  // Hands the held frame to the network; one refused stays held.
  void offer() {
    if (!held_) {
      return;
    }
    TesseraHostlinkHeader h{};
    const uint8_t* payload = tessera_hostlink_parser_frame(parser_, &h);
    if (harness_.inject(h.thread, h.flits, payload, h.cycle & kCycleMask)) {
      tessera_hostlink_parser_release(parser_);
      held_ = false;
    } else {
      size_t used = SIZE_MAX;
      const uint8_t byte = 0;
      FUZZ_CHECK(tessera_hostlink_parser_push(parser_, &byte, 1, &used, nullptr) ==
                         TESSERA_HOSTLINK_FRAME &&
                     used == 0,
                 "a parser holding a frame took a byte");
    }
  }

  MailboxHarness& harness_;
  TesseraHostlinkParser* parser_;
  Rules rules_;
  std::string socket_;
  bool held_ = false;
  uint32_t throws_checked_ = 0;
};

// A message the machine gave the host: framed by the model, as the wrapper
// writes it, and read back by the layout, the C++ library and a parser.
class MachineToHost {
 public:
  explicit MachineToHost(const TesseraShape& shape) : parser_(tessera_hostlink_parser_new(&shape)) {
    FUZZ_CHECK(parser_ != nullptr, "tessera_hostlink_parser_new failed");
  }
  ~MachineToHost() { tessera_hostlink_parser_free(parser_); }
  MachineToHost(const MachineToHost&) = delete;
  MachineToHost& operator=(const MachineToHost&) = delete;

  void check(uint32_t src, const uint8_t* msg, uint32_t flits, uint64_t time) {
    const TesseraHostlinkHeader header{src, flits, time};
    uint8_t frame[TESSERA_HOSTLINK_MAX_FRAME_BYTES];
    const size_t size = tessera_hostlink_encode(&header, msg, frame);
    const size_t payload_bytes = flits * TESSERA_BYTES_PER_FLIT;
    FUZZ_CHECK(size == TESSERA_HOSTLINK_HEADER_BYTES + payload_bytes && le(frame, 4) == src &&
                   le(frame + 4, 4) == flits && le(frame + 8, 8) == time &&
                   memcmp(frame + TESSERA_HOSTLINK_HEADER_BYTES, msg, payload_bytes) == 0,
               "the frame of a message from 0x%x does not follow the layout", src);

    hostlink::Message m;
    m.thread = src;
    m.flits = flits;
    m.cycle = time;
    for (uint32_t w = 0; w < payload_bytes / 4; w++) {
      m.words[w] = static_cast<uint32_t>(le(msg + 4 * w, 4));
    }
    const std::string bytes(reinterpret_cast<const char*>(frame), size);
    FUZZ_CHECK(hostlink::encode(m) == bytes, "encode() and the model frame 0x%x differently", src);
    hostlink::Message back;
    FUZZ_CHECK(hostlink::decode(bytes, back) == size && back.thread == src && back.flits == flits &&
                   back.cycle == time && back.words == m.words,
               "decode() of the model's frame from 0x%x differs", src);

    // Both directions use one framing: a parser reads it as one frame.
    size_t used = 0;
    TesseraHostlinkHeader read{};
    FUZZ_CHECK(tessera_hostlink_parser_push(parser_, frame, size, &used, &read) ==
                       TESSERA_HOSTLINK_FRAME &&
                   used == size && read.thread == src && read.flits == flits && read.cycle == time,
               "the parser does not read the frame of a message from 0x%x back", src);
    FUZZ_CHECK(memcmp(tessera_hostlink_parser_frame(parser_, nullptr),
                      frame + TESSERA_HOSTLINK_HEADER_BYTES, payload_bytes) == 0,
               "the parser read the payload from 0x%x back changed", src);
    tessera_hostlink_parser_release(parser_);
  }

 private:
  TesseraHostlinkParser* parser_;
};

// A frame whose header a host would send: a thread (or not), 1..4 flits.
std::string well_formed_frame(FuzzInput& in, const MailboxHarness& harness) {
  hostlink::Message m;
  m.thread = in.below(4) < 3 ? tessera_thread_at(&harness.shape(), in.below(harness.num_harts()))
                             : in.u32();
  m.flits = 1 + in.below(hostlink::kMaxFlits);
  m.cycle = in.flag() ? 0 : in.u32();
  uint8_t bytes[hostlink::kMaxFlits * hostlink::kBytesPerFlit];
  in.take(bytes, m.flits * hostlink::kBytesPerFlit);
  for (uint32_t w = 0; w < m.flits * hostlink::kBytesPerFlit / 4; w++) {
    m.words[w] = static_cast<uint32_t>(le(bytes + 4 * w, 4));
  }
  return hostlink::encode(m);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  const fuzz::MailboxSetup setup = fuzz::decode_mailbox_setup(in, kMaxLinkHarts, kMaxLinkHarts);
  MailboxHarness harness(setup);
  MachineToHost to_host(harness.shape());
  harness.on_to_host = [&to_host](uint32_t src, const uint8_t* msg, uint32_t flits, uint64_t time) {
    to_host.check(src, msg, flits, time);
  };
  HostToMachine link(harness);
  for (int i = 0; i < kMaxOperations && !in.empty(); i++) {
    const uint8_t kind = in.byte();
    bool by_room = true;
    if (kind < 0x40) {
      // Raw bytes from the host: headers of any kind, split anywhere, read
      // by room() or all at once.
      uint8_t bytes[96];
      const size_t n = in.take(bytes, in.below(sizeof(bytes) + 1));
      link.write(std::string(reinterpret_cast<const char*>(bytes), n));
      by_room = (kind & 1) == 0;
    } else if (kind < 0x80) {
      link.write(well_formed_frame(in, harness));
    } else {
      harness.step(in);
    }
    (void)harness.take_inject_ready();  // the pump below offers again anyway
    link.pump(by_room);
  }
  // The host closes the link: bytes not yet taken are not owed.
  harness.finish_delivery();
  return 0;
}
