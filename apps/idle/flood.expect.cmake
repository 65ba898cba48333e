# What idle_flood_<method> must print: expect.sh checks (tests/qemu/CMakeLists.txt adds
# --status 0). Given: detector (hw, sw-clocktree or sw-safra, as the app prints it), method (hw,
# clocktree or safra), shape, and threads (the shape's thread count, where tests/qemu sets it).
set(checks --timeout 120 --out "^flood \\(${detector}\\): [0-9]+ messages to thread 0 and [0-9]+ along the ring delivered in order, senders found can-send 0 [1-9][0-9]* times")
if(NOT method STREQUAL "hw")
  # The detector kept receiving (into copies) while it waited to send.
  list(APPEND checks --out "kept [1-9][0-9]* copies while waiting$")
endif()
