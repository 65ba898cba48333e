# A deadlock under ./tessera debug (deadlock=stop): the machine reports it and pauses, gdb gets
# control as on Ctrl-C; blocked agrees; continue finds it again (tests/qemu/CMakeLists.txt).
continue
blocked
continue
