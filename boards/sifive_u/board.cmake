# HiFive Unleashed (docs/boards.md): FU540-C000, an E51 (RV64IMAC) and four U54 (RV64GC) harts.
# The firmware is RV64IMAC, which all five run, from the same sources as the RV32 builds;
# medany because the image sits in the L2 LIM at 0x08000000. QEMU's model:
# qemu-system-riscv64 -M sifive_u -smp 5. ISA spec 2.2: see boards/sifive_e/board.cmake.
set(TESSERA_ARCH_FLAGS -march=rv64imac -mabi=lp64 -mcmodel=medany -misa-spec=2.2)
set(TESSERA_MULTILIB rv64imac/lp64)
# The threads of its machine (one tile of one core): one on each U54.
set(TESSERA_BOARD_THREADS 4)
# Each thread's partition (stack, thread-local block, heap): 64 KiB of the L2 LIM.
set(TESSERA_BOARD_PARTITION_BYTES 65536)
# The services' own stack (boards/services/service_stack.h): 4 KiB of the L2 LIM.
set(TESSERA_BOARD_SERVICE_STACK_BYTES 4096)
# Tessera's devices the board provides in software (boards/services), and the apps that need
# no more than these.
set(TESSERA_BOARD_SERVICES sysinfo console exit mswi mailbox idle ocbus barrier_ctl reflex)
set(TESSERA_BOARD_APPS hello exitcode trap token_ring alltoall idle deadlock barrier vertex)
# The vertex apps it builds (apps/vertex), as vertex_<app>-sifive_u; HostLink writes their graphs
# into the image (docs/boards.md).
set(TESSERA_BOARD_VERTEX_APPS sssp pagerank_sync heat_sync)
