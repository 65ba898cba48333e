// libFuzzer target: the host link, both directions, into and out of the
// mailbox model (models/mailbox.c), with the guest operations of
// mailbox_harness.h around it.
//
// The framing (docs/mailbox.md, "Host link") is not in the model: the QEMU
// wrapper (qemu/overlay/hw/riscv/tessera/tessera_mailbox.c) parses it in C
// and the host library (boards/tessera/hostlink/hostlink.cc) in C++. This
// target feeds arbitrary host bytes through the host library's decode(),
// applies the wrapper's rules for bad headers and back-pressure as
// documented, and offers the frames to the model's inject path; messages
// the model gives the host go through encode() and decode() again. Once the
// framing moves into the model (issue #9), this target should drive the
// model's parser instead.
//
// Input: a machine (mailbox_harness.h), then operations: raw host bytes, a
// well-formed frame, or a guest or host operation of the harness.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "mailbox_harness.h"
#include "tessera/hostlink/hostlink.h"

namespace {

namespace hostlink = tessera::hostlink;
using fuzz::FuzzInput;
using fuzz::MailboxHarness;

constexpr int kMaxOperations = 2000;
// Host cycles stay in the range a modelled clock reaches.
constexpr uint64_t kCycleMask = (uint64_t{1} << 40) - 1;

uint64_t le(const std::string& bytes, size_t at, int width) {
  uint64_t value = 0;
  for (int i = width - 1; i >= 0; i--) {
    value = value << 8 | static_cast<uint8_t>(bytes[at + i]);
  }
  return value;
}

// The machine's end of the link, as the QEMU wrapper reads it.
class HostToMachine {
 public:
  explicit HostToMachine(MailboxHarness& harness) : harness_(harness) {}

  void write(const std::string& bytes) { stream_ += bytes; }

  // Offers every complete frame, oldest first, until the network refuses
  // one: that frame is held (the wrapper stops reading) and offered again
  // on the next call, which the wrapper makes after every CSR.
  void pump() {
    for (;;) {
      if (stream_.size() < hostlink::kHeaderBytes) {
        return;
      }
      hostlink::Message m;
      size_t used;
      try {
        used = hostlink::decode(stream_, m);
      } catch (const std::invalid_argument&) {
        // Flits outside 1..4: the frame's length is unknown, so the next 16
        // bytes are read as a new header.
        const uint32_t flits = static_cast<uint32_t>(le(stream_, 4, 4));
        FUZZ_CHECK(flits < 1 || flits > hostlink::kMaxFlits,
                   "decode() refused a header of %u flits", flits);
        stream_.erase(0, hostlink::kHeaderBytes);
        continue;
      }
      if (used == 0) {
        return;  // not a whole frame yet
      }
      check_frame(m, used);
      if (!tessera_thread_exists(&harness_.shape(), m.thread)) {
        // No such thread: the payload is skipped. The model refuses it too.
        FUZZ_CHECK(!harness_.inject(m.thread, m.flits, frame_payload(), 0),
                   "inject to 0x%x, no thread, was taken", m.thread);
        stream_.erase(0, used);
        continue;
      }
      if (!harness_.inject(m.thread, m.flits, frame_payload(), m.cycle & kCycleMask)) {
        return;  // held until the mailbox has room
      }
      stream_.erase(0, used);
    }
  }

 private:
  // What decode() made of the frame at the front of the stream agrees with
  // the framing of docs/mailbox.md, read here byte by byte.
  void check_frame(const hostlink::Message& m, size_t used) const {
    FUZZ_CHECK(used == hostlink::kHeaderBytes + m.flits * hostlink::kBytesPerFlit &&
                   m.thread == le(stream_, 0, 4) && m.flits == le(stream_, 4, 4) &&
                   m.cycle == le(stream_, 8, 8),
               "decode() read thread 0x%x flits %u cycle %llu from a different header",
               m.thread, m.flits, static_cast<unsigned long long>(m.cycle));
    for (uint32_t w = 0; w < m.flits * hostlink::kBytesPerFlit / 4; w++) {
      FUZZ_CHECK(m.words[w] == le(stream_, hostlink::kHeaderBytes + 4 * w, 4),
                 "decode() read payload word %u wrong", w);
    }
    FUZZ_CHECK(hostlink::encode(m) == stream_.substr(0, used),
               "encode() does not give back the frame decode() read");
  }

  const uint8_t* frame_payload() {
    memset(payload_, 0, sizeof(payload_));
    const size_t n = std::min(stream_.size() - hostlink::kHeaderBytes, sizeof(payload_));
    memcpy(payload_, stream_.data() + hostlink::kHeaderBytes, n);
    return payload_;
  }

  MailboxHarness& harness_;
  std::string stream_;
  uint8_t payload_[TESSERA_BYTES_PER_SLOT];
};

// A message the machine gave the host, through the host library's framing
// and back.
void check_to_host(uint32_t src, const uint8_t* msg, uint32_t flits, uint64_t time) {
  hostlink::Message m;
  m.thread = src;
  m.flits = flits;
  m.cycle = time;
  memcpy(m.words.data(), msg, flits * hostlink::kBytesPerFlit);  // little-endian host
  const std::string frame = hostlink::encode(m);
  FUZZ_CHECK(frame.size() == hostlink::kHeaderBytes + flits * hostlink::kBytesPerFlit &&
                 le(frame, 0, 4) == src && le(frame, 4, 4) == flits && le(frame, 8, 8) == time &&
                 memcmp(frame.data() + hostlink::kHeaderBytes, msg,
                        flits * hostlink::kBytesPerFlit) == 0,
             "encode() of a message from 0x%x does not follow the framing", src);
  for (size_t cut = 0; cut < frame.size(); cut += 7) {
    hostlink::Message partial;
    FUZZ_CHECK(hostlink::decode(frame.substr(0, cut), partial) == 0,
               "decode() took %zu bytes of a %zu-byte frame as whole", cut, frame.size());
  }
  hostlink::Message back;
  FUZZ_CHECK(hostlink::decode(frame + "trailing", back) == frame.size() && back.thread == src &&
                 back.flits == flits && back.cycle == time &&
                 memcmp(back.words.data(), msg, flits * hostlink::kBytesPerFlit) == 0,
             "decode(encode()) of a message from 0x%x differs", src);
}

// A frame whose header a host would send: a thread (or not), 1..4 flits.
std::string well_formed_frame(FuzzInput& in, const MailboxHarness& harness) {
  hostlink::Message m;
  m.thread = in.below(4) < 3 ? tessera_thread_at(&harness.shape(), in.below(harness.num_harts()))
                             : in.u32();
  m.flits = 1 + in.below(hostlink::kMaxFlits);
  m.cycle = in.flag() ? 0 : in.u32();
  uint8_t bytes[hostlink::kMaxFlits * hostlink::kBytesPerFlit];
  in.take(bytes, m.flits * hostlink::kBytesPerFlit);
  memcpy(m.words.data(), bytes, m.flits * hostlink::kBytesPerFlit);
  return hostlink::encode(m);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  fuzz::MailboxSetup setup = fuzz::decode_mailbox_setup(in);
  MailboxHarness harness(setup);
  harness.on_to_host = check_to_host;
  HostToMachine link(harness);
  for (int i = 0; i < kMaxOperations && !in.empty(); i++) {
    const uint8_t kind = in.byte();
    if (kind < 0x40) {
      // Raw bytes from the host: headers of any kind, split anywhere.
      uint8_t bytes[96];
      const size_t n = in.take(bytes, in.below(sizeof(bytes) + 1));
      link.write(std::string(reinterpret_cast<const char*>(bytes), n));
    } else if (kind < 0x80) {
      link.write(well_formed_frame(in, harness));
    } else {
      harness.step(in);
    }
    (void)harness.take_inject_ready();  // the pump below retries anyway
    link.pump();
  }
  // The host closes the link: bytes not yet taken are not owed.
  harness.finish();
  return 0;
}
