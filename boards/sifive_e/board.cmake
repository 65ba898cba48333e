# HiFive1 Rev B (docs/boards.md): FE310-G002, one RV32IMAC hart at up to 320 MHz, 16 KiB of data
# RAM, 4 MiB of SPI flash. QEMU's model: qemu-system-riscv32 -M sifive_e,revb=true -icount shift=0.
# ISA spec 2.2: Zicsr and Zifencei are part of the base there, as the multilib was built; the
# 2019 spelling rv32imac_zicsr would make the driver fall back to the default multilib.
set(TESSERA_ARCH_FLAGS -march=rv32imac -mabi=ilp32 -misa-spec=2.2)
set(TESSERA_MULTILIB rv32imac/ilp32)
# Its scratchpad: 32 slots of 64 bytes in the DTIM, 8 for each of the 4 threads.
set(TESSERA_BOARD_SCRATCH_SIZE 2048)
# The threads of its machine (one tile of one core): green threads of its one hart.
set(TESSERA_BOARD_THREADS 4)
# Each thread's partition (stack, thread-local block, heaps): 2 KiB of the 16 KiB DTIM, a whole
# number of KiB for config.h (partition-kib), its heaps a power of two (Tinsel's log sizes).
set(TESSERA_BOARD_PARTITION_BYTES 2048)
# The services' own stack (boards/services/service_stack.h): 1 KiB of the DTIM.
set(TESSERA_BOARD_SERVICE_STACK_BYTES 1024)
# Tessera's devices the board provides in software (boards/services), and the apps that need
# no more than these.
set(TESSERA_BOARD_SERVICES sysinfo console exit mswi mailbox idle ocbus barrier_ctl reflex)
set(TESSERA_BOARD_APPS hello exitcode trap token_ring idle deadlock barrier vertex)
set(TESSERA_BOARD_VERTEX_APPS sssp pagerank_sync heat_sync)
