/*
 * Mailbox and network model: construction, teardown and the read-only
 * queries. The model's concerns live in the other mailbox_*.c files; the
 * state they share is in mailbox_internal.h.
 *
 * Termination detection (tinselIdle) is the termdet model, which this
 * model owns and feeds: sends when issued, receives when freed, idle calls.
 * Its protocol steps run at the end of every call that may have changed
 * something (docs/idle.md).
 *
 * The model does no locking: the QEMU wrapper calls it under the BQL and
 * the host backend under a mutex of its own.
 */
#include "mailbox_internal.h"

#include <stdlib.h>
#include <string.h>

static bool is_power_of_two(uint32_t n)
{
    return n != 0 && (n & (n - 1)) == 0;
}

TesseraMailboxCounts tessera_mailbox_board_counts(const TesseraMailbox *m,
                                                  uint32_t board_index)
{
    TesseraMailboxCounts none = { 0, 0 };

    if (board_index >= m->cfg.shape.boards_x * m->cfg.shape.boards_y) {
        return none;
    }
    return m->boards[board_index];
}

TesseraMailboxCounts tessera_mailbox_thread_counts(const TesseraMailbox *m,
                                                   uint32_t hart_index)
{
    TesseraMailboxCounts none = { 0, 0 };

    if (hart_index >= m->num_harts) {
        return none;
    }
    return m->threads[hart_index].counts;
}

TesseraMailboxCounts tessera_mailbox_host_counts(const TesseraMailbox *m)
{
    return m->host_counts;
}

bool tessera_mailbox_can_recv(const TesseraMailbox *m, uint32_t hart_index)
{
    return hart_index < m->num_harts &&
           m->threads[hart_index].regs.recv.head != TESSERA_MAILBOX_NO_SLOT;
}

bool tessera_mailbox_can_send(const TesseraMailbox *m, uint32_t hart_index)
{
    return hart_index < m->num_harts &&
           mbox_thread_can_send(&m->threads[hart_index]);
}

uint32_t tessera_mailbox_waiting(const TesseraMailbox *m, uint32_t hart_index)
{
    return hart_index < m->num_harts ? m->threads[hart_index].regs.wait_bits
                                     : 0;
}

uint32_t tessera_mailbox_slots_per_thread(const TesseraMailbox *m)
{
    return m->slots_per_thread;
}

void tessera_mailbox_idle_stats(const TesseraMailbox *m,
                                TesseraTermdetStats *stats)
{
    tessera_termdet_stats(m->td, stats);
}

uint64_t tessera_mailbox_idle_rtt(const TesseraMailbox *m)
{
    return tessera_termdet_rtt(m->td);
}

const TesseraTermdet *tessera_mailbox_termdet(const TesseraMailbox *m)
{
    return m->td;
}

size_t tessera_mailbox_idle_window(const TesseraMailbox *m,
                                   const TesseraTermdetReturn **returns,
                                   TesseraTermdetNews *news)
{
    return tessera_termdet_window(m->td, returns, news);
}

bool tessera_mailbox_idle_window_pending(const TesseraMailbox *m)
{
    return tessera_termdet_window_pending(m->td);
}

bool tessera_mailbox_idle_window_end(TesseraMailbox *m,
                                     const TesseraTermdetReturn *returns,
                                     size_t num_returns,
                                     const TesseraTermdetNews *news)
{
    return tessera_termdet_window_end(m->td, returns, num_returns, news);
}

/* ---- construction ------------------------------------------------------- */

static bool config_ok(const TesseraMailboxConfig *cfg,
                      const TesseraMailboxHost *host)
{
    const TesseraShape *s = &cfg->shape;
    uint64_t id_bits;

    if (host == NULL || (host->scratchpad == NULL && host->scratch == NULL) ||
        host->wake == NULL || host->to_host == NULL) {
        return false;
    }
    if (s->boards_x < 1 || s->boards_x > MBOX_MAX_EXTENT ||
        s->boards_y < 1 || s->boards_y > MBOX_MAX_EXTENT ||
        s->tiles_x > MBOX_MAX_EXTENT || s->tiles_y > MBOX_MAX_EXTENT ||
        s->cores_per_tile > MBOX_MAX_EXTENT ||
        s->threads_per_core > MBOX_MAX_EXTENT ||
        !is_power_of_two(s->tiles_x) || !is_power_of_two(s->tiles_y) ||
        !is_power_of_two(s->cores_per_tile) ||
        !is_power_of_two(s->threads_per_core)) {
        return false;
    }
    id_bits = (uint64_t)tessera_board_shift(s) +
              tessera_log2_ceil(s->boards_x) +
              tessera_log2_ceil(s->boards_y + 1);
    if (id_bits > 32) {
        return false;
    }
    if ((uint64_t)s->cores_per_tile * s->threads_per_core >
        TESSERA_SLOTS_PER_TILE / 2) {
        return false;
    }
    if (cfg->idle_master != TESSERA_TERMDET_MASTER_ORIGIN &&
        cfg->idle_master != TESSERA_TERMDET_MASTER_CENTRE) {
        return false;
    }
    /* An egress counts flits toward each mailbox in 16 bits */
    if (cfg->windows && cfg->buffer_flits > UINT16_MAX) {
        return false;
    }
    return cfg->buffer_flits >= TESSERA_MAX_FLITS;
}

/* The state of every thread, tile, slot and link at power-on, into zeroed
 * arrays. */
static void mailbox_power_on(TesseraMailbox *m)
{
    const TesseraShape *s = &m->cfg.shape;
    uint32_t i, tiles_per_board = s->tiles_x * s->tiles_y;

    m->host_blocked_head = MBOX_NO_HART;
    m->host_blocked_tail = MBOX_NO_HART;
    m->outbox_count = 0;
    if (m->cfg.windows) {
        uint32_t boards = s->boards_x * s->boards_y;

        memset(m->egress_used, 0,
               (size_t)boards * m->num_tiles * sizeof(*m->egress_used));
        memset(m->egress_refused, 0,
               (size_t)boards * m->num_tiles * sizeof(*m->egress_refused));
        m->exchanges = 0;
        for (i = 0; i < boards; i++) {
            m->egress_blocked_head[i] = MBOX_NO_HART;
            m->egress_blocked_tail[i] = MBOX_NO_HART;
        }
    }
    m->calling = MBOX_NO_HART;
    for (i = 0; i < m->num_tiles; i++) {
        uint32_t board = i / tiles_per_board, local = i % tiles_per_board;
        MboxTile *t = &m->tiles[i];

        t->pos[MBOX_AXIS_X] = board % s->boards_x * s->tiles_x +
                              local % s->tiles_x;
        t->pos[MBOX_AXIS_Y] = board / s->boards_x * s->tiles_y +
                              local / s->tiles_x;
        t->blocked_head = MBOX_NO_HART;
        t->blocked_tail = MBOX_NO_HART;
    }
    for (i = 0; i < m->num_harts; i++) {
        MboxThread *t = &m->threads[i];
        uint32_t board = i / m->threads_per_board;
        TesseraMailboxTile tile = mbox_tile_slots(m, mbox_tile_of(m, i));

        t->id = ((((board / s->boards_x) << m->board_x_bits) |
                  (board % s->boards_x)) << m->board_shift) |
                (i % m->threads_per_board);
        tessera_mailbox_rules_power_on(&tile, &t->regs,
                                       i & (m->threads_per_tile - 1));
        t->next_blocked = MBOX_NO_HART;
    }
}

TesseraMailbox *tessera_mailbox_new(const TesseraMailboxConfig *cfg,
                                    const TesseraMailboxHost *host)
{
    TesseraMailbox *m;
    const TesseraShape *s;
    uint32_t boards, tiles_per_board;
    size_t slots;
    TesseraTermdetConfig td_cfg;
    TesseraTermdetHost td_host;

    if (cfg == NULL || !config_ok(cfg, host)) {
        return NULL;
    }
    m = calloc(1, sizeof(*m));
    if (m == NULL) {
        return NULL;
    }
    m->cfg = *cfg;
    m->host = *host;
    s = &m->cfg.shape;
    boards = s->boards_x * s->boards_y;
    tiles_per_board = s->tiles_x * s->tiles_y;
    m->threads_per_tile = tessera_threads_per_tile(s);
    m->tile_shift = tessera_tile_shift(s);
    m->threads_per_board = tessera_threads_per_board(s);
    m->num_boards = s->boards_x * s->boards_y;
    m->num_harts = tessera_num_threads(s);
    m->num_tiles = boards * tiles_per_board;
    m->slots_per_thread = TESSERA_SLOTS_PER_TILE / m->threads_per_tile;
    m->board_shift = tessera_board_shift(s);
    m->board_x_bits = tessera_log2_ceil(s->boards_x);
    m->grid[MBOX_AXIS_X] = s->boards_x * s->tiles_x;
    m->grid[MBOX_AXIS_Y] = s->boards_y * s->tiles_y;
    m->board_tiles[MBOX_AXIS_X] = s->tiles_x;
    m->board_tiles[MBOX_AXIS_Y] = s->tiles_y;
    m->host_id = tessera_host_id(s);
    mbox_pool_init(&m->msgs, sizeof(MboxMsg));
    mbox_pool_init(&m->pendings, sizeof(MboxPending));

    slots = (size_t)m->num_tiles * TESSERA_SLOTS_PER_TILE;
    m->threads = calloc(m->num_harts, sizeof(*m->threads));
    m->tiles = calloc(m->num_tiles, sizeof(*m->tiles));
    m->slot_state = calloc(slots, sizeof(*m->slot_state));
    m->slot_next = calloc(slots, sizeof(*m->slot_next));
    m->slot_info = calloc(slots, sizeof(*m->slot_info));
    m->slot_msg = calloc(slots, sizeof(*m->slot_msg));
    m->links = calloc((size_t)m->grid[MBOX_AXIS_X] * m->grid[MBOX_AXIS_Y] *
                      MBOX_LINKS_PER_TILE + 2, sizeof(*m->links));
    m->boards = calloc(boards, sizeof(*m->boards));
    m->msg_seq = calloc(2 * (size_t)boards, sizeof(*m->msg_seq));
    if (cfg->windows) {
        m->egress_used = calloc((size_t)boards * m->num_tiles,
                                sizeof(*m->egress_used));
        m->egress_refused = calloc((size_t)boards * m->num_tiles,
                                   sizeof(*m->egress_refused));
        m->egress_blocked_head = calloc(boards, sizeof(uint32_t));
        m->egress_blocked_tail = calloc(boards, sizeof(uint32_t));
    }
    td_cfg.shape = *s;
    td_cfg.board_hop_cycles = cfg->board_hop_cycles;
    td_cfg.master = cfg->idle_master;
    td_cfg.windows = cfg->windows;
    td_host.opaque = m;
    td_host.wake = mbox_idle_released;
    /* Without the host's hook the detector need not build its events */
    td_host.event = m->host.event != NULL ? mbox_trace_termdet : NULL;
    m->td = tessera_termdet_new(&td_cfg, &td_host);
    if (m->threads == NULL || m->tiles == NULL || m->slot_state == NULL ||
        m->slot_next == NULL || m->slot_info == NULL ||
        m->slot_msg == NULL || m->links == NULL ||
        m->boards == NULL || m->msg_seq == NULL || m->td == NULL ||
        (cfg->windows &&
         (m->egress_used == NULL || m->egress_refused == NULL ||
          m->egress_blocked_head == NULL ||
          m->egress_blocked_tail == NULL))) {
        tessera_mailbox_free(m);
        return NULL;
    }

    mailbox_power_on(m);
    return m;
}

void tessera_mailbox_reset(TesseraMailbox *m)
{
    const TesseraShape *s = &m->cfg.shape;
    size_t slots = (size_t)m->num_tiles * TESSERA_SLOTS_PER_TILE;
    size_t links = (size_t)m->grid[MBOX_AXIS_X] * m->grid[MBOX_AXIS_Y] *
                   MBOX_LINKS_PER_TILE + 2;

    for (uint32_t i = 0; i < m->num_harts; i++) {
        if (m->threads[i].regs.wait_bits && m->cfg.waits) {
            tessera_waits_unblock(m->cfg.waits, i);
        }
    }
    /* Every message and pending record goes back with its chunks. */
    mbox_pool_destroy(&m->msgs);
    mbox_pool_destroy(&m->pendings);
    mbox_pool_init(&m->msgs, sizeof(MboxMsg));
    mbox_pool_init(&m->pendings, sizeof(MboxPending));
    memset(m->threads, 0, m->num_harts * sizeof(*m->threads));
    memset(m->tiles, 0, m->num_tiles * sizeof(*m->tiles));
    memset(m->slot_state, 0, slots * sizeof(*m->slot_state));
    memset(m->slot_next, 0, slots * sizeof(*m->slot_next));
    memset(m->slot_info, 0, slots * sizeof(*m->slot_info));
    memset(m->slot_msg, 0, slots * sizeof(*m->slot_msg));
    memset(m->links, 0, links * sizeof(*m->links));
    memset(m->boards, 0, (size_t)s->boards_x * s->boards_y * sizeof(*m->boards));
    memset(&m->host_counts, 0, sizeof(m->host_counts));
    memset(m->msg_seq, 0,
           2 * (size_t)s->boards_x * s->boards_y * sizeof(*m->msg_seq));
    tessera_termdet_reset(m->td);
    mailbox_power_on(m);
}

void tessera_mailbox_free(TesseraMailbox *m)
{
    if (m == NULL) {
        return;
    }
    mbox_pool_destroy(&m->msgs);
    mbox_pool_destroy(&m->pendings);
    free(m->threads);
    free(m->tiles);
    free(m->slot_state);
    free(m->slot_next);
    free(m->slot_info);
    free(m->slot_msg);
    free(m->links);
    free(m->boards);
    free(m->msg_seq);
    free(m->outbox);
    free(m->egress_used);
    free(m->egress_refused);
    free(m->egress_blocked_head);
    free(m->egress_blocked_tail);
    tessera_termdet_free(m->td);
    free(m);
}
