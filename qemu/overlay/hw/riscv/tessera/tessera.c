/*
 * Tessera machine: a 2-D mesh of boards, each a 2-D mesh of tiles of
 * multithreaded RV32IMF cores. Every hardware thread is a hart whose
 * mhartid is its Tinsel-style global thread id.
 *
 * Each board has its own DRAM at TESSERA_DRAM_BASE holding its own copy of
 * the image; each tile has its own mailbox scratchpad at
 * TESSERA_SCRATCH_BASE. Harts get this view through a per-tile address
 * space: the tile's scratchpad and its board's DRAM over the shared system
 * bus (sysinfo, console, exit device, one ACLINT MSWI per board).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/boards.h"
#include "hw/loader.h"
#include "hw/qdev-properties.h"
#include "chardev/char.h"
#include "qemu/bitmap.h"
#include "qemu/main-loop.h"
#include "qemu/madvise.h"
#include "qemu/memalign.h"
#include "hw/riscv/tessera.h"
#include "tessera/models/image.h"
#include "tessera/models/mswi.h"
#include "tessera/models/preload.h"
#include "elf.h"
#include "exec/address-spaces.h"
#include "exec/cpu-common.h"
#include "exec/memory.h"
#include "exec/gdbstub.h"
#include "system/reset.h"
#include "system/system.h"
#include "trace.h"

/* A machine property: a uint32 field with its allowed range. */
typedef struct TesseraProp {
    const char *name;
    size_t offset;
    uint32_t min, max;
    bool power_of_two;
    uint32_t dflt;
    const char *description;
} TesseraProp;

#define TPROP(field) offsetof(TesseraMachineState, field)

#define TESSERA_PROP_ROW(field, name, min, max, pow2, dflt, desc)              \
    { name, TPROP(field), min, max, pow2, dflt, desc },

/* The machine description of tessera/hw/machine_params.h */
static const TesseraProp tessera_props[] = {
    TESSERA_MACHINE_PROPERTIES(TESSERA_PROP_ROW)
};

static uint32_t *tessera_prop_field(TesseraMachineState *s,
                                    const TesseraProp *p)
{
    return (uint32_t *)((char *)s + p->offset);
}

static void tessera_get_prop(Object *obj, Visitor *v, const char *name,
                             void *opaque, Error **errp)
{
    const TesseraProp *p = opaque;
    uint32_t value = *tessera_prop_field(TESSERA_MACHINE(obj), p);

    visit_type_uint32(v, name, &value, errp);
}

static void tessera_set_prop(Object *obj, Visitor *v, const char *name,
                             void *opaque, Error **errp)
{
    const TesseraProp *p = opaque;
    uint32_t value;

    if (!visit_type_uint32(v, name, &value, errp)) {
        return;
    }
    /* dram-mib accepts 0 (automatic) below its minimum */
    if ((value < p->min && !(p->dflt == 0 && value == 0)) || value > p->max) {
        error_setg(errp, "tessera: %s=%" PRIu32 " is out of range "
                   "(allowed %" PRIu32 "..%" PRIu32 ")",
                   name, value, p->min, p->max);
        return;
    }
    if (p->power_of_two && !is_power_of_2(value)) {
        error_setg(errp, "tessera: %s=%" PRIu32 " must be a power of two "
                   "(allowed %" PRIu32 "..%" PRIu32 ")",
                   name, value, p->min, p->max);
        return;
    }
    *tessera_prop_field(TESSERA_MACHINE(obj), p) = value;
}

/* The machine, for the thread ids of trace events */
static TesseraMachineState *tessera_machine;

uint32_t tessera_hart_thread_id(int hart)
{
    if (!tessera_machine || hart < 0 || hart >= tessera_machine->num_harts) {
        return UINT32_MAX;
    }
    /* From the shape: another rank's harts are never realized here */
    return tessera_thread_at(&tessera_machine->shape, hart);
}

void tessera_machine_wake(TesseraMachineState *s, uint32_t hart)
{
    /* Not CPU(): its check reads the object's class, in a cold line */
    CPUState *cs = &s->harts[hart].parent_obj;

    if (tessera_windows_defer_wake(s, hart) ||
        !tessera_ranks_local_hart(s, hart)) {
        return;
    }
    cs->halted = 0;
    set_bit(hart, s->woken);
    s->any_woken = true;
}

void tessera_machine_kick_woken(TesseraMachineState *s)
{
    unsigned long hart;

    if (!s->any_woken) {
        return;
    }
    s->any_woken = false;
    /*
     * Every woken hart is kicked, also under the one round-robin thread:
     * it passes idle harts by until they are kicked (qemu/patches/0022-*).
     */
    for (hart = find_first_bit(s->woken, s->num_harts); hart < s->num_harts;
         hart = find_next_bit(s->woken, s->num_harts, hart + 1)) {
        qemu_cpu_kick(&s->harts[hart].parent_obj);
        clear_bit(hart, s->woken);
    }
}

RISCVException tessera_csr_present(CPURISCVState *env, int csrno)
{
    return RISCV_EXCP_NONE;
}

void tessera_register_csr(int csrno, riscv_csr_operations *ops)
{
    riscv_set_csr_ops(csrno, ops);
    set_bit(csrno, riscv_csr_chained);
}

int tessera_current_hart_index(void)
{
    return current_cpu ? current_cpu->cpu_index : -1;
}

/* Checks what no single property can: totals and memory fit. */
static bool tessera_check_config(TesseraMachineState *s, Error **errp)
{
    uint64_t per_board = tessera_threads_per_board(&s->shape);
    uint64_t harts = per_board * s->boards_x * s->boards_y;
    uint64_t needed = TESSERA_CODE_SIZE +
                      per_board * (uint64_t)s->partition_kib * KiB;
    uint64_t dram = (uint64_t)s->dram_mib * MiB;

    if (harts > TESSERA_MAX_HARTS) {
        error_setg(errp, "tessera: %" PRIu64 " harts requested, at most %u "
                   "are supported", harts, TESSERA_MAX_HARTS);
        return false;
    }
    if (tessera_host_id(&s->shape) <= tessera_thread_id(&s->shape,
        &(TesseraCoords){ s->boards_x - 1, s->boards_y - 1, s->tiles_x - 1,
                          s->tiles_y - 1, s->cores_per_tile - 1,
                          s->threads_per_core - 1 })) {
        error_setg(errp, "tessera: thread ids do not fit in 32 bits");
        return false;
    }
    if (per_board > TESSERA_MSWI_MAX_HARTS) {
        error_setg(errp, "tessera: %" PRIu64 " threads per board; at most %u "
                   "(tiles-x * tiles-y * cores-per-tile * threads-per-core)",
                   per_board, TESSERA_MSWI_MAX_HARTS);
        return false;
    }
    if (tessera_threads_per_tile(&s->shape) > TESSERA_SCRATCH_SIZE /
        TESSERA_BYTES_PER_SLOT / 2) {
        error_setg(errp, "tessera: %u threads per tile leave too few "
                   "mailbox slots each (at most %u threads per tile)",
                   tessera_threads_per_tile(&s->shape),
                   TESSERA_SCRATCH_SIZE / TESSERA_BYTES_PER_SLOT / 2);
        return false;
    }
    if (dram == 0) {
        dram = ROUND_UP(needed, MiB);
    }
    if (dram < needed) {
        error_setg(errp, "tessera: dram-mib=%" PRIu32 " is too small: the "
                   "image and %" PRIu64 " partitions of %" PRIu32 " KiB need "
                   "%" PRIu64 " MiB per board", s->dram_mib, per_board,
                   s->partition_kib, DIV_ROUND_UP(needed, MiB));
        return false;
    }
    if (TESSERA_DRAM_BASE + dram - 1 > UINT32_MAX) {
        error_setg(errp, "tessera: %" PRIu64 " MiB of DRAM per board does "
                   "not fit the 32-bit address space; use fewer threads "
                   "per board or a smaller partition-kib", dram / MiB);
        return false;
    }
    s->dram_mib = dram / MiB;
    s->num_harts = harts;
    return true;
}

/*
 * The QOM tree is /machine/board[b]/tile[t]/, each tile holding its harts
 * and its memory regions: QOM finds an object's name in its parent by
 * scanning the parent's properties, and a region's "name[*]" by trying
 * name[0], name[1], ... in turn, both linear in the parent's children, so
 * thousands of them under the machine made creating harts quadratic.
 */
static void tessera_create_containers(TesseraMachineState *s)
{
    uint32_t boards = s->boards_x * s->boards_y;
    uint32_t tiles_per_board = s->tiles_x * s->tiles_y;

    for (uint32_t b = 0; b < boards; b++) {
        g_autofree char *bname = g_strdup_printf("board[%u]", b);
        Object *board = object_new(TYPE_CONTAINER);

        object_property_add_child(OBJECT(s), bname, board);
        object_unref(board);
        for (uint32_t t = 0; t < tiles_per_board; t++) {
            g_autofree char *tname = g_strdup_printf("tile[%u]", t);
            Object *tile = object_new(TYPE_CONTAINER);

            object_property_add_child(board, tname, tile);
            object_unref(tile);
            s->tiles[b * tiles_per_board + t].container = tile;
        }
    }
}

static void tessera_create_memory(TesseraMachineState *s)
{
    uint32_t boards = s->boards_x * s->boards_y;
    uint32_t tiles_per_board = s->tiles_x * s->tiles_y;
    uint32_t tiles = boards * tiles_per_board;

    s->board_dram = g_new0(MemoryRegion, boards);
    s->board_as = g_new0(AddressSpace, boards);
    s->tiles = g_new0(TesseraTile, tiles);
    tessera_create_containers(s);

    /* One update of the address spaces for all of it */
    memory_region_transaction_begin();
    for (uint32_t b = 0; b < boards; b++) {
        g_autofree char *name = g_strdup_printf("tessera.board%u.dram", b);

        /* RAM owners must be devices; the machine is not, so none */
        memory_region_init_ram(&s->board_dram[b], NULL, name,
                               (uint64_t)s->dram_mib * MiB, &error_fatal);
    }
    /*
     * The scratchpads are windows of one RAM block: QEMU finds a RAM
     * block's place, and a RAM address's block, by walking the list of
     * blocks (find_ram_offset() even in quadratic time), so one block per
     * tile, 4,096 of them at 65,536 harts, made that cubic.
     */
    memory_region_init_ram(&s->scratch_ram, NULL, "tessera.scratch",
                           (uint64_t)tiles * TESSERA_SCRATCH_SIZE,
                           &error_fatal);

    for (uint32_t t = 0; t < tiles; t++) {
        TesseraTile *tile = &s->tiles[t];
        uint32_t b = t / tiles_per_board;
        g_autofree char *space = g_strdup_printf("tessera.tile%u", t);

        memory_region_init(&tile->space, tile->container, space, 4 * GiB);
        memory_region_init_alias(&tile->io_alias, tile->container,
                                 "tessera.io", get_system_memory(), 0,
                                 4 * GiB);
        memory_region_add_subregion_overlap(&tile->space, 0, &tile->io_alias,
                                            0);
        memory_region_init_alias(&tile->dram_alias, tile->container,
                                 "tessera.dram", &s->board_dram[b], 0,
                                 memory_region_size(&s->board_dram[b]));
        memory_region_add_subregion_overlap(&tile->space, TESSERA_DRAM_BASE,
                                            &tile->dram_alias, 1);
        memory_region_init_alias(&tile->scratch, tile->container,
                                 "tessera.scratch", &s->scratch_ram,
                                 (uint64_t)t * TESSERA_SCRATCH_SIZE,
                                 TESSERA_SCRATCH_SIZE);
        memory_region_add_subregion_overlap(&tile->space,
                                            TESSERA_SCRATCH_BASE,
                                            &tile->scratch, 1);
    }
    memory_region_transaction_commit();

    for (uint32_t b = 0; b < boards; b++) {
        g_autofree char *name = g_strdup_printf("tessera.board%u", b);

        address_space_init(&s->board_as[b],
                           &s->tiles[b * tiles_per_board].space, name);
    }
}

/*
 * An image built for one shape (a Tinsel-dialect program with config.h
 * compiled in) would address the wrong threads on another: refuse it, in
 * one line that says which shape it wants (models/image.c).
 */
static void tessera_check_image_shape(TesseraMachineState *s)
{
    MachineState *ms = MACHINE(s);
    size_t len = 4 * TESSERA_IMAGE_HEADER_WORDS;
    uint32_t board = 0;
    const uint8_t *header;
    TesseraShape built_for;
    char want[128], have[128];

    /* The loader's blob, on a board loaded here (memory has it from reset) */
    while (!tessera_ranks_local_board(s, board)) {
        board++;
    }
    header = rom_ptr_for_as(&s->board_as[board], TESSERA_DRAM_BASE, len);
    switch (tessera_image_fit(header, header ? len : 0, &s->shape,
                              &built_for)) {
    case TESSERA_IMAGE_ANY_SHAPE:
    case TESSERA_IMAGE_FITS:
        return;
    case TESSERA_IMAGE_BAD_HEADER:
        error_report("tessera: '%s' has an image header whose shape no "
                     "machine has; rebuild it", ms->kernel_filename);
        exit(1);
    case TESSERA_IMAGE_OTHER_SHAPE:
        tessera_shape_format(&built_for, want, sizeof(want));
        tessera_shape_format(&s->shape, have, sizeof(have));
        error_report("tessera: '%s' was built for %s, not for this "
                     "machine's %s; boot it with those properties or "
                     "rebuild it for this shape", ms->kernel_filename,
                     want, have);
        exit(1);
    }
}

/*
 * Writes the preload file's records into this process's threads'
 * partitions: at every reset, as the image's ROM blobs are written again.
 * Not as ROM blobs themselves: QEMU keeps those in a sorted list, and
 * 49,152 threads' records took quadratic time to insert.
 */
static void tessera_preload_reset(void *opaque)
{
    TesseraMachineState *s = opaque;
    uint32_t partition = s->partition_kib * KiB;
    uint32_t per_board = tessera_threads_per_board(&s->shape);
    TesseraPreloadRecord r;
    size_t at = 0;

    while (tessera_preload_next(s->preload_data, s->preload_size, &at, &r)) {
        uint32_t board = tessera_dense_index(&s->shape, r.thread_id) /
                         per_board;
        MemTxResult res;

        if (r.length == 0 || !tessera_ranks_local_board(s, board)) {
            continue;
        }
        res = address_space_write_rom(&s->board_as[board],
                                      tessera_partition_base(&s->shape,
                                                             r.thread_id,
                                                             partition) +
                                      r.offset, MEMTXATTRS_UNSPECIFIED,
                                      r.bytes, r.length);
        /* tessera_preload_check() kept every record inside its DRAM */
        g_assert(res == MEMTX_OK);
    }
}

/*
 * Reads and checks the preload file, then has every reset write it. The
 * whole file is checked first: a bad one stops the machine with one line
 * and changes nothing.
 */
static void tessera_load_preload(TesseraMachineState *s)
{
    g_autofree gchar *data = NULL;
    g_autoptr(GError) err = NULL;
    gsize size = 0;
    char why[160];

    if (!g_file_get_contents(s->preload, &data, &size, &err)) {
        error_report("tessera: preload=%s: %s", s->preload, err->message);
        exit(1);
    }
    if (!tessera_preload_check((const uint8_t *)data, size, &s->shape,
                               s->partition_kib * KiB, why, sizeof(why))) {
        error_report("tessera: preload=%s: %s", s->preload, why);
        exit(1);
    }
    s->preload_data = (uint8_t *)g_steal_pointer(&data);
    s->preload_size = size;
    qemu_register_reset(tessera_preload_reset, s);
}

/*
 * Loads the image into every board's DRAM that this process runs (every
 * board, but for ranks); returns its entry point.
 */
static uint64_t tessera_load_image(TesseraMachineState *s)
{
    MachineState *ms = MACHINE(s);
    uint32_t boards = s->boards_x * s->boards_y;
    uint64_t entry = 0, low, high;

    if (!ms->kernel_filename) {
        error_report("tessera: no firmware given; use -kernel <image.elf>");
        exit(1);
    }
    for (uint32_t b = 0; b < boards; b++) {
        ssize_t size;

        if (!tessera_ranks_local_board(s, b)) {
            continue;
        }
        size = load_elf_as(ms->kernel_filename, NULL, NULL, NULL,
                                   &entry, &low, &high, NULL, ELFDATA2LSB,
                                   EM_RISCV, 1, 0, &s->board_as[b]);

        if (size < 0) {
            error_report("tessera: could not load '%s': %s",
                         ms->kernel_filename, load_elf_strerror(size));
            exit(1);
        }
        if (low < TESSERA_DRAM_BASE ||
            high > TESSERA_DRAM_BASE + TESSERA_CODE_SIZE) {
            error_report("tessera: '%s' spans 0x%" PRIx64 "..0x%" PRIx64
                         "; a Tessera image must lie within 0x%x..0x%x",
                         ms->kernel_filename, low, high, TESSERA_DRAM_BASE,
                         TESSERA_DRAM_BASE + TESSERA_CODE_SIZE);
            exit(1);
        }
    }
    tessera_check_image_shape(s);
    if (s->preload) {
        tessera_load_preload(s);
    }
    return entry;
}

/*
 * A hart that took an exception at its own trap vector can never leave it;
 * QEMU parks it (qemu/patches/0006). Say so once, and check it in with the
 * status the runtime gives a fatal exception, so that the run still ends,
 * as a failure, once the other harts are done.
 */
static void tessera_hart_parked(RISCVCPU *cpu, target_ulong cause,
                                target_ulong pc)
{
    TesseraMachineState *s = TESSERA_MACHINE(qdev_get_machine());
    uint32_t hart = CPU(cpu)->cpu_index;
    uint32_t id = cpu->env.mhartid;
    TesseraCoords c = tessera_coords(&s->shape, id);
    uint32_t status = TESSERA_EXIT_EXCEPTION_BASE +
                      (cause & TESSERA_EXIT_CAUSE_MASK);

    trace_tessera_hart_parked(id, tessera_time_now(hart), cause, pc);
    if (test_and_set_bit(hart, s->parked)) {
        return;
    }
    error_report("tessera: thread 0x%x (board (%u,%u) tile (%u,%u) core %u "
                 "thread %u) stopped: exception %u at its own trap vector "
                 "0x%x, which it can never leave; it checks in with status "
                 "%u", id, c.board_x, c.board_y, c.tile_x, c.tile_y, c.core,
                 c.thread, (unsigned)cause, (unsigned)pc, status);
    tessera_sysinfo_check_in_for(s->sysinfo, id, status);
}

/*
 * gdb's name for a hart's thread (qemu/patches/0008): its Tinsel thread id
 * and coordinates, e.g. "0x1f board (0,0) tile (1,0) core 3 thread 3".
 * boards/tessera/gdb/ finds threads by the id in front.
 */
static char *tessera_gdb_thread_name(CPUState *cs)
{
    TesseraMachineState *s = TESSERA_MACHINE(qdev_get_machine());
    uint32_t id = RISCV_CPU(cs)->env.mhartid;
    TesseraCoords c = tessera_coords(&s->shape, id);

    return g_strdup_printf("0x%x board (%u,%u) tile (%u,%u) core %u thread %u",
                           id, c.board_x, c.board_y, c.tile_x, c.tile_y,
                           c.core, c.thread);
}

static void tessera_hart_reset(void *opaque)
{
    cpu_reset(CPU(opaque));
}

/* Harts are QOM children of their tile (tessera_create_containers) */
static void tessera_create_harts(TesseraMachineState *s, uint64_t entry)
{
    const TesseraShape *sh = &s->shape;
    size_t size;
    uint32_t per_board = tessera_threads_per_board(sh);
    uint32_t tiles_per_board = s->tiles_x * s->tiles_y;

    /*
     * On transparent huge pages: the round-robin thread visits every hart
     * at each synchronisation, and with 4 KiB pages each visit began with
     * TLB misses on the hart's state.
     */
    size = ROUND_UP(sizeof(RISCVCPU) * s->num_harts, 2 * MiB);
    s->harts = qemu_memalign(2 * MiB, size);
    qemu_madvise(s->harts, size, QEMU_MADV_HUGEPAGE);
    /*
     * Over ranks, only this rank's harts exist (object_initialize_child()
     * clears each): another rank's entries are never touched, so a rank's
     * memory grows with its own boards only.
     */
    for (uint32_t i = 0; i < s->num_harts; i++) {
        uint32_t board = i / per_board;
        TesseraCoords c = {
            .board_x = board % s->boards_x,
            .board_y = board / s->boards_x,
        };
        uint32_t local = i % per_board, tile;
        RISCVCPU *cpu = &s->harts[i];
        DeviceState *dev;
        g_autofree char *name = g_strdup_printf("hart[%u]", i %
                                                tessera_threads_per_tile(sh));

        if (!tessera_ranks_local_hart(s, i)) {
            continue;
        }
        /* Board-local ids are dense: tile, core and thread are powers of 2 */
        c.thread = local % s->threads_per_core;
        c.core = local / s->threads_per_core % s->cores_per_tile;
        tile = local / tessera_threads_per_tile(sh);
        c.tile_x = tile % s->tiles_x;
        c.tile_y = tile / s->tiles_x;

        object_initialize_child(s->tiles[board * tiles_per_board +
                                         tile].container,
                                name, cpu, TYPE_RISCV_CPU_RV32I);
        dev = DEVICE(cpu);
        /*
         * Devices find a hart's dense index through its cpu_index; setting
         * it also spares QEMU a linear search for a free index per hart.
         */
        CPU(cpu)->cpu_index = i;
        qdev_prop_set_uint64(dev, "resetvec", entry);
        qdev_prop_set_bit(dev, "m", true);
        qdev_prop_set_bit(dev, "f", true);
        qdev_prop_set_bit(dev, "zicsr", true);
        qdev_prop_set_bit(dev, "zifencei", true);
        qdev_prop_set_bit(dev, "zicntr", true);
        qdev_prop_set_bit(dev, "mmu", false);
        qdev_prop_set_bit(dev, "pmp", false);
        /* no MMU: say so, or the bare CPU warns for each hart */
        object_property_set_bool(OBJECT(cpu), "sv32", false, &error_abort);
        cpu->env.mhartid = tessera_thread_id(sh, &c);
        object_property_set_link(OBJECT(cpu), "memory",
                                 OBJECT(&s->tiles[board * tiles_per_board +
                                                  tile].space),
                                 &error_abort);
        qemu_register_reset(tessera_hart_reset, cpu);
        qdev_realize(dev, NULL, &error_fatal);
        g_assert(CPU(cpu)->cpu_index == (int)i);
        g_assert(tessera_dense_index(sh, cpu->env.mhartid) == i);
    }
}

/*
 * A board's DRAM is mapped by its own harts only (the tiles' address
 * spaces), so when code is first translated on one of its pages, QEMU need
 * only walk their TLBs, not every hart's (qemu/patches/0016-*): the code
 * is in every board's DRAM, so walking all harts once per board made the
 * boot quadratic.
 */
static void tessera_limit_dram_tlbs(TesseraMachineState *s)
{
    uint32_t boards = s->boards_x * s->boards_y;
    uint32_t per_board = tessera_threads_per_board(&s->shape);
    g_autofree CPUState **cpus = g_new(CPUState *, per_board);

    for (uint32_t b = 0; b < boards; b++) {
        if (!tessera_ranks_local_hart(s, b * per_board)) {
            continue; /* no hart here maps it */
        }
        for (uint32_t i = 0; i < per_board; i++) {
            cpus[i] = CPU(&s->harts[b * per_board + i]);
        }
        qemu_ram_set_tlb_cpus(s->board_dram[b].ram_block, cpus, per_board);
    }
}

/*
 * One MSWI per board, mapped before the harts exist: every change to the
 * memory map once they do updates each hart's address space.
 */
static void tessera_create_mswi(TesseraMachineState *s)
{
    uint32_t boards = s->boards_x * s->boards_y;
    uint32_t per_board = tessera_threads_per_board(&s->shape);

    s->mswi = g_new0(DeviceState *, boards);
    memory_region_transaction_begin();
    for (uint32_t b = 0; b < boards; b++) {
        DeviceState *dev = qdev_new(TYPE_TESSERA_MSWI);

        qdev_prop_set_uint32(dev, "board", b);
        qdev_prop_set_uint32(dev, "num-harts", per_board);
        sysbus_realize_and_unref(SYS_BUS_DEVICE(dev), &error_fatal);
        sysbus_mmio_map(SYS_BUS_DEVICE(dev), 0,
                        TESSERA_MSWI_BASE + b * TESSERA_MSWI_STRIDE);
        s->mswi[b] = dev;
    }
    memory_region_transaction_commit();
}

/* Each board's MSWI, wired to the board's harts. */
static void tessera_connect_mswi(TesseraMachineState *s)
{
    uint32_t boards = s->boards_x * s->boards_y;
    uint32_t per_board = tessera_threads_per_board(&s->shape);

    for (uint32_t b = 0; b < boards; b++) {
        DeviceState *dev = s->mswi[b];
        RISCVCPU *first = &s->harts[b * per_board];

        if (!tessera_ranks_local_hart(s, b * per_board)) {
            continue; /* another rank's harts: never realized here */
        }
        for (uint32_t i = 0; i < per_board; i++) {
            if (riscv_cpu_claim_interrupts(&first[i], MIP_MSIP) < 0) {
                error_report("tessera: MSIP of hart %u already claimed",
                             b * per_board + i);
                exit(1);
            }
            qdev_connect_gpio_out(dev, i,
                                  qdev_get_gpio_in(DEVICE(&first[i]),
                                                   IRQ_M_SOFT));
        }
    }
}

static void tessera_create_devices(TesseraMachineState *s)
{
    DeviceState *console = qdev_new(TYPE_TESSERA_CONSOLE);
    DeviceState *sysinfo = qdev_new(TYPE_TESSERA_SYSINFO);
    DeviceState *exit_dev = qdev_new(TYPE_TESSERA_EXIT);

    qdev_prop_set_chr(console, "chardev", serial_hd(0));
    qdev_prop_set_uint32(console, "num-harts", s->num_harts);
    qdev_prop_set_bit(console, "thread-ids", s->console_ids);
    sysbus_realize_and_unref(SYS_BUS_DEVICE(console), &error_fatal);
    sysbus_mmio_map(SYS_BUS_DEVICE(console), 0, TESSERA_CONSOLE_BASE);

    qdev_prop_set_uint32(sysinfo, "boards-x", s->boards_x);
    qdev_prop_set_uint32(sysinfo, "boards-y", s->boards_y);
    qdev_prop_set_uint32(sysinfo, "tiles-x", s->tiles_x);
    qdev_prop_set_uint32(sysinfo, "tiles-y", s->tiles_y);
    qdev_prop_set_uint32(sysinfo, "cores-per-tile", s->cores_per_tile);
    qdev_prop_set_uint32(sysinfo, "threads-per-core", s->threads_per_core);
    qdev_prop_set_uint32(sysinfo, "clock-mhz", s->clock_mhz);
    qdev_prop_set_uint32(sysinfo, "dram-size", s->dram_mib * MiB);
    qdev_prop_set_uint32(sysinfo, "partition-size", s->partition_kib * KiB);
    qdev_prop_set_uint32(sysinfo, "reflex-buffer-flits",
                         s->reflex_buffer_flits);
    qdev_prop_set_uint32(sysinfo, "cpi", s->cpi);
    qdev_prop_set_uint32(sysinfo, "tile-hop-cycles", s->tile_hop_cycles);
    qdev_prop_set_uint32(sysinfo, "board-hop-cycles", s->board_hop_cycles);
    qdev_prop_set_uint32(sysinfo, "ocbus-settle-cycles",
                         s->ocbus_settle_cycles);
    qdev_prop_set_uint32(sysinfo, "reflex-hop-cycles", s->reflex_hop_cycles);
    qdev_prop_set_uint32(sysinfo, "barrier-tile-x", s->barrier_tile_x);
    qdev_prop_set_uint32(sysinfo, "barrier-tile-y", s->barrier_tile_y);
    object_property_set_link(OBJECT(sysinfo), "console", OBJECT(console),
                             &error_abort);
    sysbus_realize_and_unref(SYS_BUS_DEVICE(sysinfo), &error_fatal);
    s->sysinfo = TESSERA_SYSINFO(sysinfo);
    sysbus_mmio_map(SYS_BUS_DEVICE(sysinfo), 0, TESSERA_SYSINFO_BASE);

    object_property_set_link(OBJECT(exit_dev), "console", OBJECT(console),
                             &error_abort);
    sysbus_realize_and_unref(SYS_BUS_DEVICE(exit_dev), &error_fatal);
    sysbus_mmio_map(SYS_BUS_DEVICE(exit_dev), 0, TESSERA_EXIT_BASE);
}

/* Before the harts, so that gdb sees its CSR. */
static void tessera_create_ocbus(TesseraMachineState *s)
{
    DeviceState *dev = qdev_new(TYPE_TESSERA_OCBUS);

    object_property_set_link(OBJECT(dev), "machine", OBJECT(s), &error_abort);
    sysbus_realize_and_unref(SYS_BUS_DEVICE(dev), &error_fatal);
    sysbus_mmio_map(SYS_BUS_DEVICE(dev), 0, TESSERA_OCBUS_BASE);
}

static void tessera_create_mailbox(TesseraMachineState *s)
{
    DeviceState *dev = qdev_new(TYPE_TESSERA_MAILBOX);

    object_property_set_link(OBJECT(dev), "machine", OBJECT(s),
                             &error_abort);
    if (s->hostlink) {
        Chardev *chr = qemu_chr_find(s->hostlink);

        if (!chr) {
            error_report("tessera: hostlink=%s names no chardev; add "
                         "-chardev <backend>,id=%s", s->hostlink,
                         s->hostlink);
            exit(1);
        }
        qdev_prop_set_chr(dev, "chardev", chr);
    }
    object_property_add_child(OBJECT(s), "mailbox", OBJECT(dev));
    qdev_realize_and_unref(dev, NULL, &error_fatal);
    s->mailbox = TESSERA_MAILBOX(dev);
}

static void tessera_create_reflex(TesseraMachineState *s)
{
    DeviceState *dev = qdev_new(TYPE_TESSERA_REFLEX);

    object_property_set_link(OBJECT(dev), "machine", OBJECT(s),
                             &error_abort);
    object_property_add_child(OBJECT(s), "reflex", OBJECT(dev));
    qdev_realize_and_unref(dev, NULL, &error_fatal);
    s->reflex = TESSERA_REFLEX(dev);
}

static void tessera_create_barrier_ctl(TesseraMachineState *s)
{
    DeviceState *dev = qdev_new(TYPE_TESSERA_BARRIER_CTL);

    object_property_set_link(OBJECT(dev), "machine", OBJECT(s),
                             &error_abort);
    if (s->barrier_log) {
        Chardev *chr = qemu_chr_find(s->barrier_log);

        if (!chr) {
            error_report("tessera: barrier-log=%s names no chardev; add "
                         "-chardev <backend>,id=%s (e.g. file,path=<file>)",
                         s->barrier_log, s->barrier_log);
            exit(1);
        }
        qdev_prop_set_chr(dev, "chardev", chr);
    }
    object_property_add_child(OBJECT(s), "barrier-ctl", OBJECT(dev));
    qdev_realize_and_unref(dev, NULL, &error_fatal);
    s->barrier_ctl = TESSERA_BARRIER_CTL(dev);
}

static void tessera_machine_init(MachineState *machine)
{
    TesseraMachineState *s = TESSERA_MACHINE(machine);
    uint64_t entry;

    s->shape = (TesseraShape){
        .boards_x = s->boards_x, .boards_y = s->boards_y,
        .tiles_x = s->tiles_x, .tiles_y = s->tiles_y,
        .cores_per_tile = s->cores_per_tile,
        .threads_per_core = s->threads_per_core,
    };
    if (!tessera_check_config(s, &error_fatal)) {
        return;
    }
    if (machine->smp.max_cpus < s->num_harts) {
        error_report("tessera: the machine has %u harts, more than -smp "
                     "allows (%u); tessera sizes itself from its properties, "
                     "so leave -smp out", s->num_harts, machine->smp.max_cpus);
        exit(1);
    }

    tessera_machine = s;
    /* First: a rank creates and loads only its own boards' harts and memory */
    tessera_ranks_init(s);
    tessera_create_memory(s);
    tessera_create_devices(s);
    tessera_create_mswi(s);
    entry = tessera_load_image(s);
    /* Custom CSRs are registered before the harts exist so gdb sees them */
    s->woken = bitmap_new(s->num_harts);
    s->parked = bitmap_new(s->num_harts);
    riscv_cpu_parked_hook = tessera_hart_parked;
    /*
     * A hart's one interrupt line is MSIP, from its board's MSWI
     * (tessera_create_mswi): no other local, guest or RNMI lines, whose
     * QOM objects would cost about 40 KiB per hart (qemu/patches/0015-*).
     */
    riscv_cpu_irq_lines = IRQ_M_SOFT + 1;
    riscv_cpu_rnmi_lines = 0;
    /* Tinsel's header reads mhartid and cycle with csrrw rd, csr, zero */
    riscv_csrrw_zero_reads_read_only_csrs = true;
    gdb_thread_name_hook = tessera_gdb_thread_name;
    tessera_time_init(&s->time, s->num_harts, s->cpi);
    s->waits = tessera_waits_new(&s->shape);
    if (!s->waits) {
        error_report("tessera: out of memory for the wait registry");
        exit(1);
    }
    tessera_windows_init(s);
    tessera_create_mailbox(s);
    tessera_create_ocbus(s);
    tessera_create_reflex(s);
    tessera_create_barrier_ctl(s);
    tessera_create_harts(s, entry);
    tessera_limit_dram_tlbs(s);
    tessera_connect_mswi(s);
    tessera_deadlock_init(s);
    trace_tessera_machine_init(s->boards_x, s->boards_y, s->tiles_x,
                               s->tiles_y, s->cores_per_tile,
                               s->threads_per_core, s->clock_mhz,
                               s->num_harts, s->dram_mib);
}

/*
 * The hart count follows from the properties; keep smp in step so that TCG
 * sizes its per-vCPU state for all of them (multi-threaded TCG needs one
 * translation context per vCPU).
 */
static void tessera_update_smp(TesseraMachineState *s)
{
    MachineState *ms = MACHINE(s);
    TesseraShape sh = {
        .boards_x = s->boards_x, .boards_y = s->boards_y,
        .tiles_x = s->tiles_x, .tiles_y = s->tiles_y,
        .cores_per_tile = s->cores_per_tile,
        .threads_per_core = s->threads_per_core,
    };
    uint64_t harts = tessera_num_threads(&sh);

    if (harts <= TESSERA_MAX_HARTS) {
        ms->smp.cpus = harts;
        ms->smp.max_cpus = harts;
    }
}

static void tessera_set_prop_and_smp(Object *obj, Visitor *v,
                                     const char *name, void *opaque,
                                     Error **errp)
{
    tessera_set_prop(obj, v, name, opaque, errp);
    tessera_update_smp(TESSERA_MACHINE(obj));
}

static char *tessera_get_hostlink(Object *obj, Error **errp)
{
    return g_strdup(TESSERA_MACHINE(obj)->hostlink);
}

static void tessera_set_hostlink(Object *obj, const char *value,
                                 Error **errp)
{
    TesseraMachineState *s = TESSERA_MACHINE(obj);

    g_free(s->hostlink);
    s->hostlink = g_strdup(value);
}

static char *tessera_get_barrier_log(Object *obj, Error **errp)
{
    return g_strdup(TESSERA_MACHINE(obj)->barrier_log);
}

static void tessera_set_barrier_log(Object *obj, const char *value,
                                    Error **errp)
{
    TesseraMachineState *s = TESSERA_MACHINE(obj);

    g_free(s->barrier_log);
    s->barrier_log = g_strdup(value);
}

static char *tessera_get_preload(Object *obj, Error **errp)
{
    return g_strdup(TESSERA_MACHINE(obj)->preload);
}

static void tessera_set_preload(Object *obj, const char *value, Error **errp)
{
    TesseraMachineState *s = TESSERA_MACHINE(obj);

    g_free(s->preload);
    s->preload = g_strdup(value);
}

static bool tessera_get_console_ids(Object *obj, Error **errp)
{
    return TESSERA_MACHINE(obj)->console_ids;
}

static void tessera_set_console_ids(Object *obj, bool value, Error **errp)
{
    TESSERA_MACHINE(obj)->console_ids = value;
}

static int tessera_get_windows(Object *obj, Error **errp)
{
    return TESSERA_MACHINE(obj)->windows_opt;
}

static void tessera_set_windows(Object *obj, int value, Error **errp)
{
    TESSERA_MACHINE(obj)->windows_opt = value;
}

static void tessera_get_window_groups(Object *obj, Visitor *v,
                                      const char *name, void *opaque,
                                      Error **errp)
{
    visit_type_uint32(v, name, &TESSERA_MACHINE(obj)->window_groups, errp);
}

static void tessera_set_window_groups(Object *obj, Visitor *v,
                                      const char *name, void *opaque,
                                      Error **errp)
{
    visit_type_uint32(v, name, &TESSERA_MACHINE(obj)->window_groups, errp);
}

static void tessera_get_ranks(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    visit_type_uint32(v, name, &TESSERA_MACHINE(obj)->ranks_opt, errp);
}

static void tessera_set_ranks(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    uint32_t value;

    if (!visit_type_uint32(v, name, &value, errp)) {
        return;
    }
    if (value == 0) {
        error_setg(errp, "ranks=0: at least 1");
        return;
    }
    TESSERA_MACHINE(obj)->ranks_opt = value;
}

static char *tessera_get_ranks_grid(Object *obj, Error **errp)
{
    TesseraMachineState *s = TESSERA_MACHINE(obj);

    return s->grid_cols ? g_strdup_printf("%ux%u", s->grid_cols, s->grid_rows)
                        : g_strdup("auto");
}

static void tessera_set_ranks_grid(Object *obj, const char *value,
                                   Error **errp)
{
    TesseraMachineState *s = TESSERA_MACHINE(obj);
    unsigned int cols, rows;
    char end;

    if (!strcmp(value, "auto")) {
        s->grid_cols = s->grid_rows = 0;
        return;
    }
    if (sscanf(value, "%ux%u%c", &cols, &rows, &end) != 2 || cols == 0 ||
        rows == 0 || cols > TESSERA_MAX_BOARDS_XY ||
        rows > TESSERA_MAX_BOARDS_XY) {
        error_setg(errp, "ranks-grid=%s: columns x rows of ranks, each 1 to "
                   "%u (as 2x1), or auto", value, TESSERA_MAX_BOARDS_XY);
        return;
    }
    s->grid_cols = cols;
    s->grid_rows = rows;
}

static int tessera_get_idle_master(Object *obj, Error **errp)
{
    return TESSERA_MACHINE(obj)->idle_master;
}

static void tessera_set_idle_master(Object *obj, int value, Error **errp)
{
    TESSERA_MACHINE(obj)->idle_master = value;
}

static const QEnumLookup tessera_idle_master_lookup = {
    .array = (const char *const[]) {
        [TESSERA_TERMDET_MASTER_ORIGIN] = "origin",
        [TESSERA_TERMDET_MASTER_CENTRE] = "centre",
    },
    .size = 2,
};

static int tessera_get_deadlock(Object *obj, Error **errp)
{
    return TESSERA_MACHINE(obj)->deadlock;
}

static void tessera_set_deadlock(Object *obj, int value, Error **errp)
{
    TESSERA_MACHINE(obj)->deadlock = value;
}

static const QEnumLookup tessera_deadlock_lookup = {
    .array = (const char *const[]) {
        [TESSERA_DEADLOCK_EXIT] = "exit",
        [TESSERA_DEADLOCK_STOP] = "stop",
        [TESSERA_DEADLOCK_OFF] = "off",
    },
    .size = 3,
};

static void tessera_machine_instance_init(Object *obj)
{
    TesseraMachineState *s = TESSERA_MACHINE(obj);

    s->deadlock = TESSERA_DEADLOCK_EXIT;
    s->window_groups = 1;
    s->ranks_opt = 1;
    /* Off until every device that spans boards keeps to the windows */
    s->windows_opt = ON_OFF_AUTO_OFF;
    for (size_t i = 0; i < ARRAY_SIZE(tessera_props); i++) {
        *tessera_prop_field(s, &tessera_props[i]) = tessera_props[i].dflt;
    }
    tessera_update_smp(s);
}

/*
 * A guest reset (exit device RESET) or a system_reset: the devices and the
 * harts go back to power-on through their reset phases, the image is loaded
 * again (QEMU's ROM reset), and the machine's own state follows here, so
 * the next boot is a first boot.
 */
static void tessera_machine_reset(MachineState *machine, ResetType type)
{
    TesseraMachineState *s = TESSERA_MACHINE(machine);
    uint32_t tiles = s->boards_x * s->boards_y * s->tiles_x * s->tiles_y;

    qemu_devices_reset(type);
    tessera_clocks_reset(s->time.clocks);
    bitmap_zero(s->woken, s->num_harts);
    s->any_woken = false;
    bitmap_zero(s->parked, s->num_harts);
    tessera_windows_reset(s);
    tessera_waits_reset(s->waits);
    for (uint32_t t = 0; t < tiles; t++) {
        memset(memory_region_get_ram_ptr(&s->tiles[t].scratch), 0,
               TESSERA_SCRATCH_SIZE);
    }
    trace_tessera_machine_reset(s->num_harts);
}

static void tessera_machine_class_init(ObjectClass *oc, void *data)
{
    MachineClass *mc = MACHINE_CLASS(oc);

    mc->desc = "Tessera many-core message-passing mesh (Tinsel-style)";
    mc->init = tessera_machine_init;
    mc->reset = tessera_machine_reset;
    mc->max_cpus = TESSERA_MAX_HARTS;
    mc->default_cpus = 16;
    mc->default_cpu_type = TYPE_RISCV_CPU_RV32I;
    mc->default_ram_id = NULL;
    mc->no_cdrom = 1;
    mc->no_floppy = 1;
    mc->no_parallel = 1;

    for (size_t i = 0; i < ARRAY_SIZE(tessera_props); i++) {
        const TesseraProp *p = &tessera_props[i];
        g_autofree char *desc = NULL;

        object_class_property_add(oc, p->name, "uint32", tessera_get_prop,
                                  tessera_set_prop_and_smp, NULL,
                                  (void *)p);
        desc = p->dflt < p->min ?
            g_strdup_printf("%s; 0 or %" PRIu32 "..%" PRIu32, p->description,
                            p->min, p->max) :
            g_strdup_printf("%s; %" PRIu32 "..%" PRIu32 ", default %" PRIu32,
                            p->description, p->min, p->max, p->dflt);
        object_class_property_set_description(oc, p->name, desc);
    }
    object_class_property_add_enum(oc, "idle-master", "TesseraIdleMaster",
                                   &tessera_idle_master_lookup,
                                   tessera_get_idle_master,
                                   tessera_set_idle_master);
    object_class_property_set_description(oc, "idle-master",
        "where the termination detector's master sits: origin (a bridge "
        "board one link from board 0,0) or centre (the centre board)");
    object_class_property_add_str(oc, "hostlink", tessera_get_hostlink,
                                  tessera_set_hostlink);
    object_class_property_set_description(oc, "hostlink",
        "id of the chardev that carries messages to and from the host id");
    object_class_property_add_str(oc, "barrier-log", tessera_get_barrier_log,
                                  tessera_set_barrier_log);
    object_class_property_set_description(oc, "barrier-log",
        "id of the chardev that receives the barrier controller's command "
        "log (BARRIER, RESULT, WRITE, SYNC lines)");
    object_class_property_add_str(oc, "preload", tessera_get_preload,
                                  tessera_set_preload);
    object_class_property_set_description(oc, "preload",
        "a preload file: bytes written into threads' partitions before any "
        "hart runs (HostLink writes one for PGraph::write; "
        "docs/memory-map.md)");
    object_class_property_add_bool(oc, "console-ids", tessera_get_console_ids,
                                   tessera_set_console_ids);
    object_class_property_set_description(oc, "console-ids",
        "on: each console line starts with its thread id, \"0x<id>: \" "
        "(what HostLink reads); off (the default): the text alone");
    object_class_property_add_enum(oc, "windows", "OnOffAuto",
                                   &OnOffAuto_lookup, tessera_get_windows,
                                   tessera_set_windows);
    object_class_property_set_description(oc, "windows",
        "time windows of board-hop-cycles: boards interact only at each "
        "window's end, so modelled results do not depend on what else a "
        "process runs (docs/ranks.md); on (needs -icount), auto (on under "
        "-icount) or off (the default for now: messages between boards "
        "enter the network at once)");
    object_class_property_add(oc, "window-groups", "uint32",
                              tessera_get_window_groups,
                              tessera_set_window_groups, NULL, NULL);
    object_class_property_set_description(oc, "window-groups",
        "with windows=on: the boards split into this many groups that take "
        "turns in each window, as ranks would (1, the default: none)");
    object_class_property_add(oc, "ranks", "uint32", tessera_get_ranks,
                              tessera_set_ranks, NULL, NULL);
    object_class_property_set_description(oc, "ranks",
        "processes the machine is spread over, each running a rectangle "
        "of boards; more than 1 needs mpirun with as many processes "
        "(./tessera run --ranks N) and implies windows=on (docs/ranks.md)");
    object_class_property_add_str(oc, "ranks-grid", tessera_get_ranks_grid,
                                  tessera_set_ranks_grid);
    object_class_property_set_description(oc, "ranks-grid",
        "how the boards split among ranks (and window groups): CxR, a grid "
        "of C columns by R rows of ranks, or auto (the default: recursive "
        "bisection into rectangles; docs/ranks.md)");
    object_class_property_add_enum(oc, "deadlock", "TesseraDeadlock",
                                   &tessera_deadlock_lookup,
                                   tessera_get_deadlock,
                                   tessera_set_deadlock);
    object_class_property_set_description(oc, "deadlock",
        "when every hart is stopped and nothing can wake one: exit (report "
        "who waits on what and exit with status 125), stop (report, then "
        "pause for the debugger) or off (wait, for hosts that send later)");
}

static const TypeInfo tessera_machine_info = {
    .name = TYPE_TESSERA_MACHINE,
    .parent = TYPE_MACHINE,
    .instance_size = sizeof(TesseraMachineState),
    .instance_init = tessera_machine_instance_init,
    .class_init = tessera_machine_class_init,
};

static void tessera_machine_register_types(void)
{
    /*
     * Each diagnostic line in one write, so that it never splits a line of
     * the guest's console when stdout and stderr share a pipe (stderr is
     * unbuffered by default, and error_report() writes in pieces).
     */
    setvbuf(stderr, NULL, _IOLBF, BUFSIZ);
    type_register_static(&tessera_machine_info);
}

type_init(tessera_machine_register_types)
