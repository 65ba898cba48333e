# What idle_wakeup_<method> must print: expect.sh checks (tests/qemu/CMakeLists.txt adds
# --status 0). Given: detector (hw, sw-clocktree or sw-safra, as the app prints it), method (hw,
# clocktree or safra), shape, and threads (the shape's thread count, where tests/qemu sets it).
set(checks --count "^wakeup: thread 0x[0-9a-f]+ woke with 0 at cycle [0-9]+ for a message sent at cycle" 2
           --out "^wakeup \\(${detector}\\): all [0-9]+ threads released, result 3$")
