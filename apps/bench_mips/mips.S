/*
 * bench_mips: a compute-bound loop with no devices in it, for comparing
 * guest instruction throughput of -M tessera with QEMU's stock -M virt.
 * Hart 0 runs LOOP_ITERATIONS iterations of a 6-instruction body (integer
 * multiply and add chain), then writes "pass" to a sifive_test-style exit
 * device at EXIT_ADDRESS (tessera and virt differ only in that address).
 * Other harts, if any, sleep.
 */
#include "tessera/hw/regs_asm.h"

#ifndef EXIT_ADDRESS
#error "build with -DEXIT_ADDRESS=<address of the exit device>"
#endif
#define LOOP_ITERATIONS 50000000

    .section .text.start, "ax"
    .globl _start
_start:
    csrr    t0, mhartid
    bnez    t0, park
    li      t1, LOOP_ITERATIONS
    li      t2, 1
    li      t3, 0x9e3779b9
loop:
    mul     t2, t2, t3
    addi    t2, t2, 7
    xor     t4, t2, t1
    add     t5, t5, t4
    addi    t1, t1, -1
    bnez    t1, loop
    li      t0, EXIT_ADDRESS
    li      t1, TESSERA_EXIT_PASS
    sw      t1, 0(t0)
park:
    wfi
    j       park
