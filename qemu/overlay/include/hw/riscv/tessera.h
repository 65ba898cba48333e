/*
 * Tessera: a Tinsel-style mesh of boards of tiles of multithreaded
 * RV32IMF cores (see docs/machine.md in the Tessera repository).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_RISCV_TESSERA_H
#define HW_RISCV_TESSERA_H

#include "hw/boards.h"
#include "hw/sysbus.h"
#include "chardev/char-fe.h"
#include "target/riscv/cpu.h"
#include "tessera/hw/regs.h"

#define TYPE_TESSERA_MACHINE MACHINE_TYPE_NAME("tessera")
OBJECT_DECLARE_SIMPLE_TYPE(TesseraMachineState, TESSERA_MACHINE)

#define TYPE_TESSERA_CONSOLE "tessera-console"
OBJECT_DECLARE_SIMPLE_TYPE(TesseraConsoleState, TESSERA_CONSOLE)

#define TYPE_TESSERA_SYSINFO "tessera-sysinfo"
OBJECT_DECLARE_SIMPLE_TYPE(TesseraSysinfoState, TESSERA_SYSINFO)

#define TYPE_TESSERA_MSWI "tessera-mswi"
OBJECT_DECLARE_SIMPLE_TYPE(TesseraMswiState, TESSERA_MSWI)

/* Upper bounds of the machine properties. */
#define TESSERA_MAX_BOARDS_XY   8
#define TESSERA_MAX_TILES_XY    8
#define TESSERA_MAX_CORES       16
#define TESSERA_MAX_THREADS     64
#define TESSERA_MAX_HARTS       65536

typedef struct TesseraTile {
    MemoryRegion space;      /* what the tile's harts see */
    MemoryRegion io_alias;   /* the shared system bus, underneath */
    MemoryRegion dram_alias; /* the board's DRAM */
    MemoryRegion scratch;    /* the mailbox scratchpad */
} TesseraTile;

struct TesseraMachineState {
    MachineState parent_obj;

    /* properties */
    uint32_t boards_x, boards_y;
    uint32_t tiles_x, tiles_y;
    uint32_t cores_per_tile, threads_per_core;
    uint32_t clock_mhz;
    uint32_t tile_hop_cycles;
    uint32_t board_hop_cycles;
    uint32_t dram_mib;
    uint32_t partition_kib;

    TesseraShape shape;
    uint32_t num_harts;
    RISCVCPU *harts;         /* indexed by dense hart index */
    MemoryRegion *board_dram;
    AddressSpace *board_as;  /* for loading the image into each board */
    TesseraTile *tiles;      /* board-major, then tile y, tile x */
    DeviceState **mswi;
};

/* The console: per-hart line assembly on a chardev. */
struct TesseraConsoleState {
    SysBusDevice parent_obj;
    MemoryRegion mmio;
    CharBackend chr;
    uint32_t num_harts;
    struct TesseraConsole *model;
};

/* Machine facts, per-hart partitions and the boot check-in register. */
struct TesseraSysinfoState {
    SysBusDevice parent_obj;
    MemoryRegion mmio;
    TesseraShape shape;
    uint32_t clock_mhz;
    uint32_t dram_size;
    uint32_t partition_size;
    struct TesseraSysinfo *model;
    TesseraConsoleState *console; /* flushed when the run ends */
};

/* One board's msip registers (ACLINT MSWI layout). */
struct TesseraMswiState {
    SysBusDevice parent_obj;
    MemoryRegion mmio;
    uint32_t board;
    uint32_t num_harts;
    uint32_t *msip;
    qemu_irq *irqs;
};

/* Dense index of the hart running the current access, or -1 if none. */
int tessera_current_hart_index(void);

/* Prints every partial console line (before the machine exits). */
void tessera_console_flush_lines(TesseraConsoleState *s);

#endif
