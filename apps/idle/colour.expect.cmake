# What idle_colour_<method> must print: expect.sh checks (tests/qemu/CMakeLists.txt adds
# --status 0). Given: detector (hw, sw-clocktree or sw-safra, as the app prints it), method (hw,
# clocktree or safra), shape, and threads (the shape's thread count, where tests/qemu sets it).
set(checks --count "^colour \\(${detector}\\): round [01]: thread A \\(1\\) busy until cycle [0-9]+ after answering B \\([09]\\)\\. first release .* after it$" 2)
