# What idle_inflight_<method> must print: expect.sh checks (tests/qemu/CMakeLists.txt adds
# --status 0). Given: detector (hw, sw-clocktree or sw-safra, as the app prints it), method (hw,
# clocktree or safra), shape, and threads (the shape's thread count, where tests/qemu sets it).
set(checks --out "^inflight \\(${detector}\\): 8 hops between boards 0 and [0-9]+, last received at cycle [0-9]+. first release \\(thread [0-9]+\\) at cycle [0-9]+, after it$")
