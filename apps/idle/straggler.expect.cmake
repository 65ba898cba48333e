# What idle_straggler_<method> must print: expect.sh checks (tests/qemu/CMakeLists.txt adds
# --status 0). Given: detector (hw, sw-clocktree or sw-safra, as the app prints it), method (hw,
# clocktree or safra), shape, and threads (the shape's thread count, where tests/qemu sets it).
set(checks --count "^straggler \\(${detector}\\): round [0-2]: thread [0-9]+ entered idle at cycle [0-9]+ after computing. .* after it$" 3)
