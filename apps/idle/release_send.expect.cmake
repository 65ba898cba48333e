# What idle_release_send_<method> must print: expect.sh checks (tests/qemu/CMakeLists.txt adds
# --status 0). Given: detector (hw, sw-clocktree or sw-safra, as the app prints it), method (hw,
# clocktree or safra), shape, and threads (the shape's thread count, where tests/qemu sets it).
set(checks --distinct "^release_send \\(${detector}\\): thread [0-9]+: 5 rounds" ${threads})
if(NOT method STREQUAL "hw")
  # The case the rule is about happened: a partner's message was there before the release.
  list(APPEND checks --out "already waiting at release [1-5] times$")
endif()
