#include "tessera/drivers/ocbus.h"

#include "tessera/drivers/sysinfo.h"
#include "tessera/hal/csr.h"
#include "tessera/hal/mmio.h"

namespace tessera::drivers {
namespace {

uint32_t reg(uint32_t offset) {
  return hal::mmio_read32(TESSERA_OCBUS_BASE + offset);
}

void set_reg(uint32_t offset, uint32_t value) {
  hal::mmio_write32(TESSERA_OCBUS_BASE + offset, value);
}

constexpr uint32_t bit(uint32_t line) {
  return 1u << line;
}

}  // namespace

OcBus::OcBus() : lines_(reg(TESSERA_OCBUS_LINES)) {}

uint32_t OcBus::local() const {
  return reg(TESSERA_OCBUS_LOCAL);
}

void OcBus::drive(uint32_t local) const {
  set_reg(TESSERA_OCBUS_LOCAL, local);
}

void OcBus::set_line(uint32_t line, bool released) const {
  set_reg(TESSERA_OCBUS_LINE(line), released ? 1 : 0);
}

uint32_t OcBus::global() const {
  return reg(TESSERA_OCBUS_GLOBAL);
}

uint32_t OcBus::wait_until(uint32_t mask, uint32_t value) const {
  return hal::csr_swap<TESSERA_CSR_OCBUS_WAIT>(mask | (value & mask) << 8);
}

OcBusProtocols::OcBusProtocols() {
  const Sysinfo sysinfo;
  index_ = sysinfo.hart_index();
  index_bits_ = tessera_log2_ceil(sysinfo.num_harts());
}

// One assignment of DESIGN 1.6 ("l_x := v"): one store of the whole local value.
void OcBusProtocols::assign(uint32_t line, bool released) {
  local_ = released ? local_ | bit(line) : local_ & ~bit(line);
  bus_.drive(local_);
}

// DESIGN 1.6, in its order, with the data lines carrying `data`:
//   l_data := local; l_accepted := false; l_valid := true; wait g_valid; result := g_data;
//   l_next := false; l_accepted := true; wait g_accepted;
//   l_valid := false; l_next := true; wait g_next.
// l_valid starts false: the lines reset clamped, and every call ends with it false again.
uint32_t OcBusProtocols::handshake(uint32_t data) {
  const uint32_t data_mask = bus_.all_lines() & ~(bit(TESSERA_OCBUS_DATA) - 1);
  local_ = (local_ & ~data_mask) | (data << TESSERA_OCBUS_DATA & data_mask);
  bus_.drive(local_);
  assign(TESSERA_OCBUS_ACCEPTED, false);
  assign(TESSERA_OCBUS_VALID, true);
  const uint32_t global = bus_.wait_until(bit(TESSERA_OCBUS_VALID), bit(TESSERA_OCBUS_VALID));
  const uint32_t result = (global & data_mask) >> TESSERA_OCBUS_DATA;
  assign(TESSERA_OCBUS_NEXT, false);
  assign(TESSERA_OCBUS_ACCEPTED, true);
  (void)bus_.wait_until(bit(TESSERA_OCBUS_ACCEPTED), bit(TESSERA_OCBUS_ACCEPTED));
  assign(TESSERA_OCBUS_VALID, false);
  assign(TESSERA_OCBUS_NEXT, true);
  (void)bus_.wait_until(bit(TESSERA_OCBUS_NEXT), bit(TESSERA_OCBUS_NEXT));
  return result;
}

bool OcBusProtocols::all(bool local) {
  // Only line DATA carries the vote: the other data lines stay released.
  const uint32_t others = (bus_.all_lines() >> TESSERA_OCBUS_DATA) & ~1u;
  return (handshake(others | (local ? 1u : 0u)) & 1u) != 0;
}

// Bit-serial, MSB first, over the key number:index (unique per hart). In each round every hart
// still in the running drives the inverse of its bit, so the AND is 0 exactly when some runner
// has a 1; a runner with a 0 then drops out. Harts out of the running vote true. Each round is
// one ACWT, so the rounds inherit its delay insensitivity: a round's outcome is the AND over
// every hart, whatever the timing, and every hart sees the same outcomes.
bool OcBusProtocols::arbitrate(uint32_t number) {
  bool running = true;
  for (uint32_t i = 32 + index_bits_; i-- > 0;) {
    const bool one = i >= index_bits_ ? (number >> (i - index_bits_) & 1u) != 0
                                      : (index_ >> i & 1u) != 0;
    const bool nobody_has_one = all(!running || !one);
    if (running && !nobody_has_one && !one) {
      running = false;
    }
  }
  return running;
}

uint32_t OcBusProtocols::broadcast(uint32_t value, bool sender, uint32_t bits) {
  if (bits == 0 || bits > 32) {
    bits = 32;
  }
  const uint32_t width = data_lines();
  const uint32_t released = (1u << width) - 1;
  uint32_t result = 0;
  for (uint32_t at = 0; at < bits; at += width) {
    const uint32_t beat = sender ? (value >> at) & released : released;
    result |= (handshake(beat) & released) << at;
  }
  return bits == 32 ? result : result & ((1u << bits) - 1);
}

}  // namespace tessera::drivers
