# Devices for Tessera's qemu-system-riscv32: the tessera machine, the stock virt machine so that
# benchmarks can compare plain code on both, and QEMU's model of the HiFive1 Rev B
# (docs/boards.md).
CONFIG_TESSERA=y
CONFIG_RISCV_VIRT=y
CONFIG_SIFIVE_E=y
