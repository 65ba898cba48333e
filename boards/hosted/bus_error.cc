#include "bus_error.h"

#include <cstdio>
#include <stdexcept>

#include "tessera/host/hart.h"
#include "tessera/host/machine.h"

namespace tessera::host {

std::string hex32(uint32_t value) {
  char text[sizeof "0x00000000"];
  std::snprintf(text, sizeof text, "0x%08x", static_cast<unsigned>(value));
  return text;
}

void throw_bus_error(const Hart& hart, std::string_view what) {
  throw std::logic_error("tessera host: hart " + hex32(hart.id()) + " (index " +
                         std::to_string(hart.index()) + "): " + std::string(what));
}

std::string AccessSite::describe() const {
  switch (kind) {
    case Kind::kCsrWrite:
      return "csrrw " + hex32(where) + ", " + hex32(value);
    case Kind::kCsrRead:
      return "csrr " + hex32(where);
    case Kind::kRead:
      return "read at offset " + hex32(where);
    case Kind::kWrite:
      break;
  }
  return "write of " + hex32(value) + " at offset " + hex32(where);
}

void GuestErrors::record(uint32_t thread_id, const std::string& what) {
  lines_.push_back("tessera-" + device_ + ": thread " + hex32(thread_id) + ": " + what);
}

uint32_t complete(Hart& hart, const TesseraAccess& access, const AccessSite& site,
                  GuestErrors* errors) {
  const std::string reason = access.error != nullptr ? access.error : "refused";
  switch (access.status) {
    case TESSERA_ACCESS_DONE:
      (void)hart.wait_until(access.resume_at);
      return access.value;
    case TESSERA_ACCESS_GUEST_ERROR:
      if (errors == nullptr) {
        throw_bus_error(hart, reason + " (" + site.describe() + ")");
      }
      (void)hart.wait_until(access.resume_at);
      errors->record(hart.id(), site.describe() + ": " + reason);
      return access.value;
    case TESSERA_ACCESS_FAULT:
      throw MailboxFault(hart, static_cast<uint16_t>(site.where), site.value,
                         static_cast<uint32_t>(access.code));
    case TESSERA_ACCESS_BLOCKED:
    case TESSERA_ACCESS_UNKNOWN:
      break;
  }
  throw_bus_error(hart, "no device model answers " + site.describe());
}

}  // namespace tessera::host
