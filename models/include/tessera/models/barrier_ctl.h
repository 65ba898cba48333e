/*
 * Counting barrier controller (DESIGN 1.7, docs/barrier-controller.md): one
 * controller on a tile of the mesh counts the threads entering each barrier
 * uid and releases them all when the count-th has entered.
 *
 * Registers (tessera/hw/regs.h): TESSERA_CSR_BARRIER_COUNT registers a
 * count for a uid; TESSERA_CSR_BARRIER_ENTER enters a uid with a count (0 =
 * the registered one) and blocks until the barrier overflows. Both take
 * TESSERA_BARRIER_VALUE(uid, count).
 *
 * Time: a thread entering at src_cycle (its `now`) reaches the controller
 * at src_cycle + lat_1; the barrier overflows at overflow = max over its
 * participants of (src_cycle + lat_1), and each participant resumes at
 * overflow + lat_3. lat_1 = lat_3 = the mesh's uncontended latency between
 * the thread's tile and the controller's tile (tessera/models/mesh.h: the
 * mailbox network's rule). Every other answer of the controller (COUNT, a
 * refused ENTER) comes back at now + lat_1 + lat_3.
 *
 * Episodes: a uid is open from its first entry until its count-th; then it
 * closes, and the next entry opens the uid again (a new episode). The count
 * of an episode is fixed when it opens: registering another count for the
 * uid meanwhile applies to the next episode. At most
 * TESSERA_BARRIER_MAX_OPEN uids are open at once.
 *
 * Blocking: enter returns BLOCKED until the episode overflows; then the
 * model calls host->wake for every waiting participant, and the hart
 * issues the same ENTER again, which completes with the status and the
 * resume time. Issuing the same ENTER again while waiting is the same
 * arrival (QEMU re-executes the CSR after a wake or an interrupt), so it is
 * never counted twice. Waits are reported to the wait registry.
 *
 * Bad use: a guest error. ENTER completes at once (DONE) with a non-zero
 * status and *error saying why; the hart is not counted and nothing else
 * changes:
 *   TESSERA_BARRIER_NO_COUNT  count 0 and no count registered for the uid;
 *   TESSERA_BARRIER_MISMATCH  the uid is open with a different count;
 *   TESSERA_BARRIER_BUSY      the hart already has an entry outstanding (it
 *                             is waiting, or released and has not yet
 *                             issued its ENTER again) and this ENTER names
 *                             another uid or count: one hart is one
 *                             arrival at most, so no episode ever counts
 *                             more arrivals than its count;
 *   TESSERA_BARRIER_TOO_MANY  a count above the machine's harts;
 *   TESSERA_BARRIER_FULL      the entry would open one uid more than
 *                             TESSERA_BARRIER_MAX_OPEN.
 * COUNT with a count above the machine's harts is a guest error too: the
 * registration is unchanged.
 *
 * Command log (optional host->log): the exchange of DESIGN 1.7, one line
 * per command, without a newline, with the thread it belongs to (the
 * sender of BARRIER and WRITE, the receiver of RESULT and SYNC):
 *   BARRIER <src_x> <src_y> <uid> <count>      when a thread enters
 *   RESULT 0                                    to each, at overflow
 *   WRITE <cycle> <src_x> <src_y> <uid> 0 1 <desc>   each, at overflow
 *   SYNC <cycle>                                to each, at overflow
 * At overflow the RESULT lines come first, then the WRITE lines, then the
 * SYNC lines, each in arrival order. <count> is the episode's count,
 * <cycle> of WRITE the thread's src_cycle, desc = 0x20000 + count
 * (decimal), <cycle> of SYNC its resume time. As in the chiplet
 * simulator, a barrier's WRITE names the uid as its destination (dst_x =
 * uid, dst_y = 0). (src_x, src_y) is the thread's position on the thread
 * grid: x = global tile x * threads per tile + the thread's index in its
 * tile, y = global tile y (tessera_barrier_ctl_grid_of). With one thread
 * per tile it is the global tile grid. Refused entries log nothing.
 *
 * Plain C: the caller serialises every call (QEMU: the BQL).
 */
#ifndef TESSERA_MODELS_BARRIER_CTL_H
#define TESSERA_MODELS_BARRIER_CTL_H

#include <stdint.h>

#include "tessera/hw/regs.h"
#include "tessera/models/access.h"
#include "tessera/models/waits.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The desc of a barrier's WRITE: TESSERA_BARRIER_CTL_DESC + count. */
#define TESSERA_BARRIER_CTL_DESC 0x20000u
/* Longest log line, NUL included. */
#define TESSERA_BARRIER_CTL_LINE_MAX 96u

typedef struct TesseraBarrierCtlConfig {
    TesseraShape shape;
    uint32_t tile_hop_cycles;  /* the mailbox network's */
    uint32_t board_hop_cycles; /* L */
    uint32_t tile_x, tile_y;   /* the controller's tile, global tile grid */
    TesseraWaits *waits;       /* optional: blocked entries reported here */
    /* 0: tables over every uid (256 KiB). Else, for a host with little
     * memory (a dev board, docs/boards.md): at most this many uids with a
     * registered count or an open episode at once; a count or an ENTER
     * beyond that is refused (a guest error, status FULL for ENTER). */
    uint32_t uid_slots;
    /* Time windows (docs/ranks.md): a command waits (its hart blocked)
     * until the host calls tessera_barrier_ctl_exchange() at the end of the
     * window in which it reaches the controller; then commands are carried
     * out in order of (arrival at the controller, hart), and a hart whose
     * command is answered is woken to issue it again and read the answer.
     * Off: each command is carried out when issued. */
    bool windows;
} TesseraBarrierCtlConfig;

typedef struct TesseraBarrierCtlHost {
    void *opaque;
    /* A hart blocked in ENTER may proceed: issue the ENTER again. */
    void (*wake)(void *opaque, uint32_t hart_index);
    /* Optional: one command of the log (see above) concerning hart_index. */
    void (*log)(void *opaque, uint32_t hart_index, const char *line);
} TesseraBarrierCtlHost;

typedef struct TesseraBarrierCtl TesseraBarrierCtl;

/* NULL if the configuration is invalid (a shape without harts, the
 * controller's tile outside the mesh, a host without wake) or memory runs
 * out. */
TesseraBarrierCtl *tessera_barrier_ctl_new(const TesseraBarrierCtlConfig *cfg,
                                           const TesseraBarrierCtlHost *host);
void tessera_barrier_ctl_free(TesseraBarrierCtl *b);
/* No uid open, no count registered, nobody waiting (machine reset). */
void tessera_barrier_ctl_reset(TesseraBarrierCtl *b);

/* csrrw of TESSERA_CSR_BARRIER_COUNT or TESSERA_CSR_BARRIER_ENTER by
 * hart_index at `now` (tessera/models/access.h). Bad use is a guest error
 * that still reads its status (.value) at .resume_at; ENTER blocks until
 * the barrier overflows; any other CSR is UNKNOWN. */
TesseraAccess tessera_barrier_ctl_csr(TesseraBarrierCtl *b,
                                      uint32_t hart_index, uint32_t csr,
                                      uint32_t value, uint64_t now);

/* With windows: the commands waiting for an exchange. */
uint32_t tessera_barrier_ctl_posted(const TesseraBarrierCtl *b);
/* With windows, at the end of a window that ends at `until`: carries out
 * every waiting command that reaches the controller before `until`, in
 * order of (arrival, hart) (no command issued later can arrive before
 * `until`). Returns how many. */
uint32_t tessera_barrier_ctl_exchange(TesseraBarrierCtl *b, uint64_t until);

/*
 * With windows, over several processes (docs/ranks.md): every process keeps
 * a copy of the controller; before each exchange it hands the commands its
 * own harts posted since the last one to every other, and each copy takes
 * them all (tessera_barrier_ctl_post_remote), so every copy carries out the
 * same commands in the same order, and agrees. Each process wakes and logs
 * only its own harts (its host's wake and log see every hart's).
 */
typedef struct TesseraBarrierCtlPost {
    uint64_t arrival;   /* at the controller */
    uint64_t now;       /* when its hart issued it */
    uint32_t hart;
    uint32_t csr;
    uint32_t value;
    /* Its hart had no entry outstanding: a hart takes its release (its
     * ENTER completes) in its own process alone, and the others learn of it
     * here. */
    uint32_t idle;
} TesseraBarrierCtlPost;

/* The commands posted here since the last call or exchange (valid until
 * the next call into the model), then forgotten as such. */
size_t tessera_barrier_ctl_fresh(TesseraBarrierCtl *b,
                                 const TesseraBarrierCtlPost **posts);
/* Another process's command. False, changing nothing, without windows, for
 * no such hart, a CSR other than the two, a hart whose command is already
 * on its way, or an arrival that does not follow from `now` and the hart's
 * latency. */
bool tessera_barrier_ctl_post_remote(TesseraBarrierCtl *b,
                                     const TesseraBarrierCtlPost *post);

/* Arrivals so far in uid's open episode, and its count; 0 and 0 if the uid
 * is not open. */
uint32_t tessera_barrier_ctl_arrived(const TesseraBarrierCtl *b, uint32_t uid,
                                     uint32_t *count);
/* Uids open now. */
uint32_t tessera_barrier_ctl_open_uids(const TesseraBarrierCtl *b);
/* The count registered for uid (0: none). */
uint32_t tessera_barrier_ctl_registered(const TesseraBarrierCtl *b,
                                        uint32_t uid);
/* lat_1 (= lat_3) of hart_index: its tile to the controller's. */
uint64_t tessera_barrier_ctl_latency(const TesseraBarrierCtl *b,
                                     uint32_t hart_index);
/* hart_index's position on the log's thread grid. */
void tessera_barrier_ctl_grid_of(const TesseraBarrierCtl *b,
                                 uint32_t hart_index, uint32_t *x,
                                 uint32_t *y);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_BARRIER_CTL_H */
