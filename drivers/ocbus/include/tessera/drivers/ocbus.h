// Open-collector bus driver and the protocols on it (docs/ocbus.md, DESIGN 1.6).
//
// The bus is 4..8 wired-AND lines that span every hart of the machine: each hart drives its local
// value per line (1 releases, 0 clamps) and every hart reads the same global value, the AND of
// them all. Lines reset clamped. OcBus is the raw device; OcBusProtocols runs the protocols of
// DESIGN 1.6 on lines VALID, ACCEPTED, NEXT and DATA (regs.h) and up:
//
//   OcBusProtocols bus;                             // on every hart of the machine
//   bool all_ok = bus.all(my_constraints_ok);       // ACWT: the AND over every hart
//   bus.barrier();                                  // nobody leaves before everyone arrived
//   bool mine = bus.arbitrate(my_number);           // true on exactly one hart: the highest
//   uint32_t v = bus.broadcast(value, i_send, 12);  // the sender's 12 bits, on every hart
//
// Every call is a collective: every hart of the machine makes the same calls in the same order
// (the lines span the machine; a hart that stays away holds everyone in the next wait, and the
// machine then reports a deadlock). Waiting is always the OCBUS_WAIT CSR: never a spin.
//
// Objects read the machine's facts: construct them on the hart that uses them.
#pragma once

#include <stdint.h>

#include "tessera/hw/regs.h"

namespace tessera::drivers {

// The calling hart's side of the lines.
class OcBus {
 public:
  OcBus();  // reads the machine's line count

  uint32_t lines() const { return lines_; }
  uint32_t all_lines() const { return (1u << lines_) - 1; }

  // What this hart drives (bit i = line i).
  uint32_t local() const;
  void drive(uint32_t local) const;
  // Drives line `line` alone: released (1) or clamped (0).
  void set_line(uint32_t line, bool released) const;
  // The AND over every hart; the hart moves on to when that value settled.
  uint32_t global() const;
  // Sleeps until (global & mask) == (value & mask); returns the global value that satisfied it.
  uint32_t wait_until(uint32_t mask, uint32_t value) const;

 private:
  uint32_t lines_;
};

class OcBusProtocols {
 public:
  OcBusProtocols();

  // ACWT, the delay-insensitive all-reduce: the AND of every hart's `local`. Each call takes
  // three waits, each for one change of one line: 3 settle times whatever the number of harts.
  bool all(bool local);
  // A barrier: ACWT of true.
  void barrier() { (void)all(true); }
  // Arbitration: true on exactly one hart, the one whose `number` is highest; ties go to the
  // highest thread id. One ACWT per bit of number and of the dense hart index, MSB first.
  bool arbitrate(uint32_t number);
  // The data bus: `bits` (1..32) low bits of `value` from the one hart that passes sender true,
  // returned on every hart. lines - 3 data bits per beat, each beat an ACWT-style handshake in
  // which every receiver releases the data lines.
  uint32_t broadcast(uint32_t value, bool sender, uint32_t bits = 32);

  const OcBus& bus() const { return bus_; }
  uint32_t data_lines() const { return bus_.lines() - TESSERA_OCBUS_DATA; }

 private:
  // One handshake: drives `data` on the data lines, returns the data lines' global value.
  uint32_t handshake(uint32_t data);
  void assign(uint32_t line, bool released);

  OcBus bus_;
  uint32_t local_ = 0;  // what this hart drives: lines reset clamped
  uint32_t index_bits_;
  uint32_t index_;
};

}  // namespace tessera::drivers
