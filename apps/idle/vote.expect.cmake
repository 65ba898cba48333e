# What idle_vote_<method> must print: expect.sh checks (tests/qemu/CMakeLists.txt adds
# --status 0). Given: detector (hw, sw-clocktree or sw-safra, as the app prints it), method (hw,
# clocktree or safra), shape, and threads (the shape's thread count, where tests/qemu sets it).
set(checks --count "^vote \\(${detector}\\): round [0-6]: " 7
           --out "^vote \\(${detector}\\): round 0: every thread voted true -> 3$"
           --out "^vote \\(${detector}\\): round 1: thread [0-9]+ voted false -> 1$"
           --out "^vote \\(${detector}\\): round 4: every thread voted false -> 1$"
           --out "^vote \\(${detector}\\): round 6: every thread voted true -> 3$")
