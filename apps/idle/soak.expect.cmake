# What idle_soak_<method> must print: expect.sh checks (tests/qemu/CMakeLists.txt adds
# --status 0). Given: detector (hw, sw-clocktree or sw-safra, as the app prints it), method (hw,
# clocktree or safra), shape, and threads (the shape's thread count, where tests/qemu sets it).
set(checks --count "^soak \\(${detector}\\): episode [0-9]+000: [0-9]+ sent, [0-9]+ received" 10
           --out "^soak \\(${detector}\\): 10000 episodes on ${threads} threads, [0-9]+ messages, sent = received in every episode$")
