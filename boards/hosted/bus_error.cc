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

namespace {

// "0x1f", as QEMU's "0x%x" prints it.
std::string hex(uint32_t value) {
  char text[sizeof "0xffffffff"];
  std::snprintf(text, sizeof text, "0x%x", static_cast<unsigned>(value));
  return text;
}

}  // namespace

void GuestErrors::record(uint32_t hart_id, const AccessSite& site, std::string_view reason,
                         uint32_t value_read) {
  const std::string hart = device_ + ": hart " + hex(hart_id);
  const std::string reads = "; reads " + std::to_string(value_read);
  switch (site.kind) {
    case AccessSite::Kind::kCsrWrite:
    case AccessSite::Kind::kCsrRead: {
      char csr[sizeof "0x000"];
      std::snprintf(csr, sizeof csr, "0x%03x", static_cast<unsigned>(site.where));
      const char* op = site.kind == AccessSite::Kind::kCsrWrite ? "csrrw" : "csrr";
      lines_.push_back(hart + ": " + op + " " + csr + ", " + hex(site.value) + ": " +
                       std::string(reason) + reads);
      return;
    }
    case AccessSite::Kind::kRead:
      lines_.push_back(hart + " read " + hex(site.where) + ": " + std::string(reason) + reads);
      return;
    case AccessSite::Kind::kWrite:
      lines_.push_back(hart + " wrote " + hex(site.value) + " to " + hex(site.where) + ": " +
                       std::string(reason));
      return;
  }
}

void GuestErrors::record_thread(uint32_t thread_id, std::string_view reason) {
  lines_.push_back(device_ + ": thread " + hex(thread_id) + ": " + std::string(reason));
}

uint32_t complete(Hart& hart, const TesseraAccess& access, const AccessSite& site,
                  GuestErrors* errors) {
  if (access.status == TESSERA_ACCESS_DONE) {  // the common case, first and without a string
    (void)hart.wait_until(access.resume_at);
    return access.value;
  }
  const std::string reason = access.error != nullptr ? access.error : "refused";
  switch (access.status) {
    case TESSERA_ACCESS_DONE:
      break;
    case TESSERA_ACCESS_GUEST_ERROR:
      if (errors == nullptr) {
        throw_bus_error(hart, reason + " (" + site.describe() + ")");
      }
      (void)hart.wait_until(access.resume_at);
      errors->record(hart.id(), site, reason, access.value);
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
