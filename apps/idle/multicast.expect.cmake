# What idle_multicast_<method> must print: expect.sh checks (tests/qemu/CMakeLists.txt adds
# --status 0). Given: detector (hw, sw-clocktree or sw-safra, as the app prints it), method (hw,
# clocktree or safra), shape, and threads (the shape's thread count, where tests/qemu sets it).
# A detector that miscounts a multicast never terminates: fail fast.
set(checks --timeout 60 --out "^multicast \\(${detector}\\): 7 copies delivered, each counted once$")
