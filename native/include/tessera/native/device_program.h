// The device side of a native-mode program (docs/native.md): the device code's main, renamed at
// build time (-Dmain=<symbol>) so that it can live in the host program's process, registered
// under the name of its image, and run on every hart as the runtime runs an image's main.
#pragma once

#include <string>
#include <string_view>

namespace tessera::native {

using DeviceMain = int (*)();

// A static object of the generated registration file of each device program.
class DeviceProgram {
 public:
  DeviceProgram(const char* name, DeviceMain main);
};

// The program for the image HostLink::boot was given: the only one registered, or the one whose
// name is the file's name without its folder and its .code.v, .data.v or .elf. Null if none;
// *known then lists the names registered.
DeviceMain find_device_program(std::string_view image_path, std::string* known);

// One hart's run, as the firmware runtime does it (firmware/runtime/startup.cc): the receive
// slots given to hardware (TINSEL_API v2), main, the console's last partial line, then the result
// checked in with sysinfo (the last check-in ends the run). On the hart's fiber.
void run_device_program(DeviceMain main);

}  // namespace tessera::native
