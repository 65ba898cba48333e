#include "tessera/native/device_program.h"

#include <map>

#include "tessera/drivers/console.h"
#include "tessera/drivers/sysinfo.h"
#include "tessera/hal/dram.h"

extern "C" void tessera_runtime_prepare_mailbox();  // firmware/tinsel/v2_start.cc

namespace tessera::native {
namespace {

std::map<std::string, DeviceMain>& programs() {
  static std::map<std::string, DeviceMain> registered;
  return registered;
}

// As tessera::exit_status (firmware/runtime): 0..255 as they are, anything else 255.
uint32_t exit_status(int result) {
  return result >= 0 && result <= 255 ? static_cast<uint32_t>(result) : 255;
}

}  // namespace

DeviceProgram::DeviceProgram(const char* name, DeviceMain main) {
  programs()[name] = main;
}

DeviceMain find_device_program(std::string_view image_path, std::string* known) {
  const auto& all = programs();
  if (all.size() == 1) return all.begin()->second;
  std::string name(image_path.substr(image_path.rfind('/') + 1));
  for (const char* suffix : {".code.v", ".data.v", ".elf"}) {
    const std::string s = suffix;
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      name.resize(name.size() - s.size());
      break;
    }
  }
  if (const auto found = all.find(name); found != all.end()) return found->second;
  known->clear();
  for (const auto& [n, main] : all) *known += (known->empty() ? "" : ", ") + n;
  return nullptr;
}

void run_device_program(DeviceMain main) {
  tessera_runtime_prepare_mailbox();
  const int result = main();
  drivers::Console().flush();
  drivers::Sysinfo().check_in(exit_status(result));
}

}  // namespace tessera::native

// tinsel.h's tinselHeapBase(): the start of the calling thread's partition, which native mode
// keeps no thread-local block in (the firmware runtime's is after it).
extern "C" void* tessera_heap_base() {
  return tessera::hal::dram_pointer(tessera::drivers::Sysinfo().partition_base());
}
