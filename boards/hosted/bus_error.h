// Loud failures of guest-visible accesses on the host machine: host code may
// throw, and a test that makes a bad access should stop right there, naming
// the hart and what it did.
#pragma once

#include <stdint.h>

#include <string>
#include <string_view>
#include <vector>

#include "tessera/models/access.h"

namespace tessera::host {

class Hart;

// "0x00102000"
std::string hex32(uint32_t value);

// Throws std::logic_error("tessera host: hart 0x.. (index ..): <what>").
[[noreturn]] void throw_bus_error(const Hart& hart, std::string_view what);

// One guest access, as the reports name it: "csrrw 0x00000816, 0x00000005",
// "csrr 0x00000817", "read at offset 0x00000004", "write of 0x00000001 at
// offset 0x00000000".
struct AccessSite {
  enum class Kind { kCsrWrite, kCsrRead, kRead, kWrite };
  Kind kind;
  uint32_t where;  // the CSR, or the offset in the device's window
  uint32_t value;  // what it writes
  std::string describe() const;
};

// The guest errors of a device that does not stop the hart, one line each, the very lines QEMU
// logs with -d guest_errors before it goes on (tessera_access.c, tessera_reflex.c):
//   tessera-<device>: hart 0x<id>: csrrw 0x<csr>, 0x<value>: <reason>; reads <value read>
//   tessera-<device>: hart 0x<id> read 0x<offset>: <reason>; reads <value read>
//   tessera-<device>: hart 0x<id> wrote 0x<value> to 0x<offset>: <reason>
//   tessera-<device>: thread 0x<id>: <reason>      (no access of that thread's made it)
// Guarded by the device's mutex.
class GuestErrors {
 public:
  explicit GuestErrors(std::string_view device) : device_("tessera-" + std::string(device)) {}
  void record(uint32_t hart_id, const AccessSite& site, std::string_view reason,
              uint32_t value_read);
  void record_thread(uint32_t thread_id, std::string_view reason);
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::string device_;
  std::vector<std::string> lines_;
};

// The host machine's side of the access contract (tessera/models/access.h),
// for an answer that is not BLOCKED (HartWaiters::until_done waits those
// out): DONE moves the hart to resume_at and returns the value; a guest
// error does the same and is recorded in `errors`, or, without them, stops
// the hart with a bus error naming the model's reason; FAULT throws
// MailboxFault (the real machine's trap); UNKNOWN is a bus error. The
// access's effect, if any, is the device's to act on.
uint32_t complete(Hart& hart, const TesseraAccess& access, const AccessSite& site,
                  GuestErrors* errors = nullptr);

}  // namespace tessera::host
