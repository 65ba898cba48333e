# Devices for Tessera's qemu-system-riscv32: the tessera machine, plus the
# stock virt machine so that benchmarks can compare plain code on both.
CONFIG_TESSERA=y
CONFIG_RISCV_VIRT=y
