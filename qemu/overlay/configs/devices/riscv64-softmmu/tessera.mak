# Devices for Tessera's qemu-system-riscv64: QEMU's model of the HiFive Unleashed, a dev board
# the firmware also runs on (docs/boards.md). Tessera's own machine is 32-bit only.
CONFIG_SIFIVE_U=y
