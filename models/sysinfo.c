/*
 * Sysinfo model: machine facts for the booting firmware and the check-in
 * register that ends a run once every hart has finished.
 *
 * The model does no locking: the QEMU wrapper calls it under the BQL and
 * the host backend under a mutex of its own.
 */
#include "tessera/models/sysinfo.h"

#include <stdlib.h>
#include <string.h>

/* Larger extents would overflow tessera_log2_ceil() long before they could
 * fit in a 32-bit thread id. */
#define SYSINFO_MAX_EXTENT (1u << 16)

struct TesseraSysinfo {
    TesseraSysinfoConfig cfg;
    uint32_t num_harts;
    uint32_t checked_in;     /* distinct harts that wrote CHECKIN */
    bool windows;            /* CHECKIN reads at_window_end */
    uint32_t at_window_end;  /* the machine's check-ins at the last end */
    uint32_t *checked_in_by; /* bitmap over dense indices */
    int exit_code;           /* first non-zero status, in check-in order */
};

static int is_power_of_two(uint32_t n)
{
    return n != 0 && (n & (n - 1)) == 0;
}

static int extent_ok(uint32_t n)
{
    return n >= 1 && n <= SYSINFO_MAX_EXTENT;
}

/* The thread-id scheme of regs.h holds only for shapes like these. */
static int config_ok(const TesseraSysinfoConfig *cfg)
{
    const TesseraShape *s = &cfg->shape;
    uint64_t id_bits;
    uint64_t partitions_end;

    if (!extent_ok(s->boards_x) || !extent_ok(s->boards_y) ||
        !extent_ok(s->tiles_x) || !extent_ok(s->tiles_y) ||
        !extent_ok(s->cores_per_tile) || !extent_ok(s->threads_per_core)) {
        return 0;
    }
    /* Below the board fields ids must be dense for board-local indices. */
    if (!is_power_of_two(s->tiles_x) || !is_power_of_two(s->tiles_y) ||
        !is_power_of_two(s->cores_per_tile) ||
        !is_power_of_two(s->threads_per_core)) {
        return 0;
    }
    /* The host id is one board row above the last: it must fit too. */
    id_bits = (uint64_t)tessera_board_shift(s) +
              tessera_log2_ceil(s->boards_x) +
              tessera_log2_ceil(s->boards_y + 1);
    if (id_bits > 32) {
        return 0;
    }
    /* Every partition must lie inside the board's DRAM, which must fit
     * below the top of the 32-bit address space. */
    partitions_end =
        (uint64_t)TESSERA_CODE_SIZE +
        (uint64_t)tessera_threads_per_board(s) * cfg->partition_size;
    return partitions_end <= cfg->dram_size &&
           (uint64_t)TESSERA_DRAM_BASE + cfg->dram_size <= (1ull << 32);
}

TesseraSysinfo *tessera_sysinfo_new(const TesseraSysinfoConfig *cfg)
{
    TesseraSysinfo *s;

    if (cfg == NULL || !config_ok(cfg)) {
        return NULL;
    }
    s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return NULL;
    }
    s->cfg = *cfg;
    s->num_harts = tessera_num_threads(&cfg->shape);
    s->checked_in_by = calloc((s->num_harts + 31) / 32, sizeof(uint32_t));
    if (s->checked_in_by == NULL) {
        free(s);
        return NULL;
    }
    return s;
}

void tessera_sysinfo_reset(TesseraSysinfo *s)
{
    s->checked_in = 0;
    s->at_window_end = 0;
    s->exit_code = 0;
    memset(s->checked_in_by, 0,
           (s->num_harts + 31) / 32 * sizeof(*s->checked_in_by));
}

void tessera_sysinfo_free(TesseraSysinfo *s)
{
    if (s == NULL) {
        return;
    }
    free(s->checked_in_by);
    free(s);
}

static uint32_t board_local_index(const TesseraSysinfo *s, uint32_t hart_id)
{
    return tessera_dense_index(&s->cfg.shape, hart_id) %
           tessera_threads_per_board(&s->cfg.shape);
}

uint32_t tessera_sysinfo_partition_base(const TesseraSysinfo *s,
                                        uint32_t hart_id)
{
    return tessera_partition_base(&s->cfg.shape, hart_id,
                                  s->cfg.partition_size);
}

static TesseraAccess guest_error(const char *why)
{
    return tessera_access_guest_error(why, 0);
}

/* Checks what every access needs; NULL if the access may go ahead. */
static const char *access_error(const TesseraSysinfo *s, uint32_t hart_id,
                                uint32_t offset)
{
    if (!tessera_thread_exists(&s->cfg.shape, hart_id)) {
        return "sysinfo: access by a hart id outside the machine";
    }
    if (offset % 4 != 0) {
        return "sysinfo: unaligned register offset";
    }
    return NULL;
}

/* Register value for hart_id; returns 0 if there is no register there. */
static int register_value(const TesseraSysinfo *s, uint32_t hart_id,
                          uint32_t offset, uint32_t *value)
{
    const TesseraShape *shape = &s->cfg.shape;

    switch (offset) {
    case TESSERA_SYSINFO_MAGIC:
        *value = TESSERA_SYSINFO_MAGIC_VALUE;
        return 1;
    case TESSERA_SYSINFO_VERSION:
        *value = TESSERA_SYSINFO_VERSION_VALUE;
        return 1;
    case TESSERA_SYSINFO_BOARDS_X:
        *value = shape->boards_x;
        return 1;
    case TESSERA_SYSINFO_BOARDS_Y:
        *value = shape->boards_y;
        return 1;
    case TESSERA_SYSINFO_TILES_X:
        *value = shape->tiles_x;
        return 1;
    case TESSERA_SYSINFO_TILES_Y:
        *value = shape->tiles_y;
        return 1;
    case TESSERA_SYSINFO_CORES_PER_TILE:
        *value = shape->cores_per_tile;
        return 1;
    case TESSERA_SYSINFO_THREADS_PER_CORE:
        *value = shape->threads_per_core;
        return 1;
    case TESSERA_SYSINFO_CLOCK_MHZ:
        *value = s->cfg.clock_mhz;
        return 1;
    case TESSERA_SYSINFO_DRAM_SIZE:
        *value = s->cfg.dram_size;
        return 1;
    case TESSERA_SYSINFO_PARTITION_SIZE:
        *value = s->cfg.partition_size;
        return 1;
    case TESSERA_SYSINFO_NUM_HARTS:
        *value = s->num_harts;
        return 1;
    case TESSERA_SYSINFO_HART_INDEX:
        *value = tessera_dense_index(shape, hart_id);
        return 1;
    case TESSERA_SYSINFO_PARTITION_BASE:
        *value = tessera_sysinfo_partition_base(s, hart_id);
        return 1;
    case TESSERA_SYSINFO_CHECKIN:
        *value = s->windows ? s->at_window_end : s->checked_in;
        return 1;
    case TESSERA_SYSINFO_BOARD_LEADER:
        *value = board_local_index(s, hart_id) == 0;
        return 1;
    case TESSERA_SYSINFO_HOST_ID:
        *value = tessera_host_id(shape);
        return 1;
    case TESSERA_SYSINFO_REFLEX_BUFFER_FLITS:
        *value = s->cfg.reflex_buffer_flits;
        return 1;
    case TESSERA_SYSINFO_CPI:
        *value = s->cfg.timing.cpi;
        return 1;
    case TESSERA_SYSINFO_TILE_HOP_CYCLES:
        *value = s->cfg.timing.tile_hop_cycles;
        return 1;
    case TESSERA_SYSINFO_BOARD_HOP_CYCLES:
        *value = s->cfg.timing.board_hop_cycles;
        return 1;
    case TESSERA_SYSINFO_OCBUS_SETTLE_CYCLES:
        *value = s->cfg.timing.ocbus_settle_cycles;
        return 1;
    case TESSERA_SYSINFO_REFLEX_HOP_CYCLES:
        *value = s->cfg.timing.reflex_hop_cycles;
        return 1;
    case TESSERA_SYSINFO_BARRIER_TILE_X:
        *value = s->cfg.timing.barrier_tile_x;
        return 1;
    case TESSERA_SYSINFO_BARRIER_TILE_Y:
        *value = s->cfg.timing.barrier_tile_y;
        return 1;
    default:
        return 0;
    }
}

TesseraAccess tessera_sysinfo_read(TesseraSysinfo *s, uint32_t hart_id,
                                   uint32_t offset)
{
    const char *why = access_error(s, hart_id, offset);
    uint32_t value = 0;

    if (why != NULL) {
        return guest_error(why);
    }
    if (!register_value(s, hart_id, offset, &value)) {
        return guest_error("sysinfo: read of an unknown register");
    }
    return tessera_access_done(value, 0);
}

bool tessera_sysinfo_checked_in(const TesseraSysinfo *s, uint32_t hart_id)
{
    uint32_t index;

    if (!tessera_thread_exists(&s->cfg.shape, hart_id)) {
        return false;
    }
    index = tessera_dense_index(&s->cfg.shape, hart_id);
    return (s->checked_in_by[index / 32] >> (index % 32)) & 1;
}

uint32_t tessera_sysinfo_check_ins(const TesseraSysinfo *s)
{
    return s->checked_in;
}

static TesseraAccess check_in(TesseraSysinfo *s, uint32_t hart_id,
                              uint32_t status)
{
    uint32_t index = tessera_dense_index(&s->cfg.shape, hart_id);
    uint32_t bit = 1u << (index % 32);
    uint32_t *word = &s->checked_in_by[index / 32];

    if (*word & bit) {
        return guest_error("sysinfo: hart checked in twice");
    }
    *word |= bit;
    s->checked_in++;
    if (s->exit_code == 0) {
        s->exit_code = (int)status;
    }
    if (s->checked_in < s->num_harts) {
        return tessera_access_done(0, 0);
    }
    return tessera_access_with_effect(tessera_access_done(0, 0),
                                      TESSERA_EFFECT_END_RUN, s->exit_code);
}

TesseraAccess tessera_sysinfo_write(TesseraSysinfo *s, uint32_t hart_id,
                                    uint32_t offset, uint32_t value)
{
    const char *why = access_error(s, hart_id, offset);
    uint32_t ignored;

    if (why != NULL) {
        return guest_error(why);
    }
    if (offset == TESSERA_SYSINFO_CHECKIN) {
        return check_in(s, hart_id, value);
    }
    if (register_value(s, hart_id, offset, &ignored)) {
        return guest_error("sysinfo: write to a read-only register");
    }
    return guest_error("sysinfo: write to an unknown register");
}

void tessera_sysinfo_use_windows(TesseraSysinfo *s)
{
    s->windows = true;
}

void tessera_sysinfo_end_window(TesseraSysinfo *s, uint32_t check_ins)
{
    s->at_window_end = check_ins;
}
