/*
 * Reflex switch model (DESIGN 1.4, docs/reflex.md): one switch per hart,
 * joined into rings that firmware configures, carrying 32-bit flits with
 * credit-based flow control.
 *
 * Each switch has a port to its core and one to its next switch. A hart
 * configures its own switch: first the next switch (a thread id), then the
 * route of a flit that arrives from the previous switch
 * (TESSERA_REFLEX_ROUTE_* of regs.h): to the core (a ring's root: the ring
 * is broken there, and the root's core is wired in series), to the next
 * switch, or both (multicast). A flit from the core always goes to the next
 * switch. A switch starts OFF (unconfigured) and passes nothing, so a ring
 * may start while its members are still configuring: flits wait for them.
 *
 * Buffers: every core has an inbound buffer and an outbound buffer of B
 * flits (buffer_flits). A switch is off while its core's inbound buffer is
 * full, and on again once the core reads. Switches hold no flit of their
 * own: a flit leaves the head of its sender's outbound buffer only when
 * every switch on its path is on, which is when every output it goes to has
 * credit, and it then reaches every core on its path. So a multicast stalls
 * while any of its outputs has no credit.
 *
 * Path: from the sender's switch, follow next; at each switch the route
 * says deliver-and-stop (CORE), pass (FORWARD) or deliver-and-pass (BOTH);
 * an OFF switch holds the flit back. The path is walked each time the flit
 * tries to move, so it follows the routes of that moment. A held flit
 * tries again when the switch holding it turns on, and whenever any switch
 * is configured. Flits queued before their sender's next switch was unset
 * wait for a new one.
 *
 * Bad configuration, each a guest error with a defined outcome:
 *  - a route that passes flits on (FORWARD, BOTH) while the switch has no
 *    next switch, or NO_NEXT while it does (an open ring): refused, the
 *    switch keeps its configuration;
 *  - a send from a switch with no next switch: refused;
 *  - a send while the outbound buffer is full (its flits are held by a
 *    switch that is off because its core's inbound buffer is full):
 *    refused, REFLEX_SEND reads 0;
 *  - a path that comes back to a switch it has passed (a ring with no
 *    root): a send whose flit would be the head is refused; a flit found
 *    looping when it tries to move stays at the head of its outbound
 *    buffer, reported once per flit (tessera_reflex_take_error), until the
 *    routes change.
 *
 * Time: a flit moves at max(sent, the time each switch on its path got the
 * credit it uses: the read that freed the slot; for a switch that only
 * forwards, the read that turned it on), and reaches the core of the switch
 * h hops on at that time + h * hop_cycles. Time is optimistic, as in the
 * mailbox: a flit is readable as soon as it moved, and the reader continues
 * at max(now, its arrival). Likewise a sender continues at max(now, the
 * move that freed its outbound slot), and that is the flit's sent time.
 *
 * Blocking: RECV on an empty inbound buffer and WAIT_SEND on a full
 * outbound buffer return BLOCKED and report the wait to the wait registry
 * (tessera/models/waits.h) if the host gives one; host->wake is called when
 * the operation may complete, and the host issues the CSR again. Issuing a
 * CSR again is idempotent.
 *
 * Time windows (tessera_reflex_use_windows, docs/ranks.md): boards meet only at the end
 * of each window, so a flit whose path leaves its sender's board does not
 * move when it could: its walk stops at the board's edge and the head waits
 * for tessera_reflex_window_end, which moves every such head, in order of
 * (its sent time, sender), along the whole path as the switches are then.
 * Everything else is as above, within the board. A send into a ring with no
 * root is refused only if the loop lies within the board; one that leaves
 * it is found, and reported, at the window's end. Over ranks (processes)
 * each keeps a copy of every switch: its own harts' CSRs go to its copy at
 * once, every other rank's are given to it (tessera_reflex_csr, in their
 * order) before the window ends, so every copy ends each window alike.
 *
 * Plain C: the caller serialises every call (QEMU: the BQL). Harts are
 * named by their dense index in this API, and by their thread id in CSR
 * values (REFLEX_NEXT).
 */
#ifndef TESSERA_MODELS_REFLEX_H
#define TESSERA_MODELS_REFLEX_H

#include <stdbool.h>
#include <stdint.h>

#include "tessera/hw/machine_params.h"
#include "tessera/hw/regs.h"
#include "tessera/models/access.h"
#include "tessera/models/waits.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TesseraReflexConfig {
    TesseraShape shape;    /* names thread ids (REFLEX_NEXT) */
    uint32_t buffer_flits; /* B: inbound and outbound, per core; >= 1 */
    uint32_t hop_cycles;   /* one switch-to-switch hop */
    TesseraWaits *waits;   /* optional: blocked harts are reported here */
} TesseraReflexConfig;

/* A reflex CSR of one hart, as tessera_reflex_csr took it (over ranks). */
typedef struct TesseraReflexOp {
    uint64_t now;
    uint32_t hart_index;
    uint32_t csrno;
    uint32_t value;
    uint32_t write; /* 0 or 1 */
} TesseraReflexOp;

typedef struct TesseraReflexHost {
    void *opaque;
    /* Hart hart_index, blocked in RECV or WAIT_SEND, may now proceed: issue
     * the CSR again. Called inside the model's calls: must not call it. */
    void (*wake)(void *opaque, uint32_t hart_index);
} TesseraReflexHost;

typedef struct TesseraReflex TesseraReflex;

/* NULL if the configuration is invalid (a shape with no harts, B of 0 or
 * above TESSERA_LIMIT_reflex_buffer_flits, a host without wake) or memory
 * runs out. Every switch starts OFF with no next switch. */
TesseraReflex *tessera_reflex_new(const TesseraReflexConfig *cfg,
                                  const TesseraReflexHost *host);
void tessera_reflex_free(TesseraReflex *r);
/* Buffers empty, routes and next switches as new, nobody waiting, time 0
 * (machine reset). */
void tessera_reflex_reset(TesseraReflex *r);

/* One reflex CSR (tessera_csr_is_reflex) of hart hart_index at `now`: the
 * whole register decode (tessera/models/access.h). `write` says whether the
 * instruction writes (QEMU: a write mask other than 0), since a read of
 * ROUTE or NEXT must not be taken for a write of 0; `value` is what it
 * writes; .value what it reads (ROUTE and NEXT: the value before the
 * write); .resume_at when the hart continues (>= now). A write of a
 * read-only CSR, a read of REFLEX_SEND that writes no flit, a route above
 * BOTH, a next switch that is no thread, or a send the model refuses is a
 * guest error: REFLEX_SEND then reads 0, the others change nothing. */
TesseraAccess tessera_reflex_csr(TesseraReflex *r, uint32_t hart_index,
                                 uint32_t csrno, bool write, uint32_t value,
                                 uint64_t now);

/* The same operations as calls, for tests and tools. */
TesseraAccess tessera_reflex_set_route(TesseraReflex *r, uint32_t hart_index,
                                       uint32_t route);
/* next_index: a dense index, or TESSERA_REFLEX_NO_NEXT. */
TesseraAccess tessera_reflex_set_next(TesseraReflex *r, uint32_t hart_index,
                                      uint32_t next_index);
/* DONE (reads 1): the flit is in the outbound buffer (and moves when it
 * can). GUEST_ERROR: refused (outbound full, open ring, ring with no
 * root). */
TesseraAccess tessera_reflex_send(TesseraReflex *r, uint32_t hart_index,
                                  uint32_t flit, uint64_t now);
/* DONE: .value is the oldest inbound flit, .resume_at max(now, arrival).
 * BLOCKED: the inbound buffer is empty. */
TesseraAccess tessera_reflex_recv(TesseraReflex *r, uint32_t hart_index,
                                  uint64_t now);
/* DONE once the outbound buffer has room (.value: how much). */
TesseraAccess tessera_reflex_wait_send(TesseraReflex *r, uint32_t hart_index,
                                       uint64_t now);

/* Time windows from now on (until freed); over ranks, local_boards[b]
 * says whether this process runs board b (its harts' CSRs are then logged
 * for the others; NULL: every board is here; the array must outlive the
 * model). false if memory ran out. */
bool tessera_reflex_use_windows(TesseraReflex *r, const bool *local_boards);
/* With windows over ranks: this process's harts' CSRs since the last
 * window's end, in the order the model took them (*ops stays valid until
 * the next call of the model). */
size_t tessera_reflex_window_ops(const TesseraReflex *r,
                                 const TesseraReflexOp **ops);
/* With windows: the window ends. Over ranks, first every other rank's CSRs
 * of the window (ops of this process's harts among them are skipped: its
 * copy took them already), rank by rank in their order; then every head
 * waiting for the window moves as far as the switches let it (see above).
 * Returns the flits moved then. */
uint32_t tessera_reflex_window_end(TesseraReflex *r,
                                   const TesseraReflexOp *others, size_t n);
/* Over ranks: false once memory ran out for the log of this process's
 * CSRs (the copies then differ: the host must stop). */
bool tessera_reflex_window_ok(const TesseraReflex *r);
/* With windows: heads waiting for the window's end, and CSRs logged for
 * the other ranks. */
uint32_t tessera_reflex_window_pending(const TesseraReflex *r);

/* A guest error found outside a CSR of the hart that caused it (a ring with
 * no root, found when a flit tried to move): returns each once, oldest
 * first, then NULL. *hart_index is the sender. The hosts log them (call
 * until NULL) after each call. */
const char *tessera_reflex_take_error(TesseraReflex *r, uint32_t *hart_index);

/* Read-only queries. */
uint32_t tessera_reflex_inbound(const TesseraReflex *r, uint32_t hart_index);
uint32_t tessera_reflex_outbound(const TesseraReflex *r, uint32_t hart_index);
bool tessera_reflex_switch_on(const TesseraReflex *r, uint32_t hart_index);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_REFLEX_H */
