/*
 * Termination detection model (docs/idle.md): per-board counts, idle bits,
 * votes and colours, a master that sends a token to every board in
 * parallel, and the three phases of detect / release / re-enable, each one
 * master<->boards round trip of modelled time.
 *
 * State:
 *   harts   per dense hart index: ACTIVE / IDLE(vote) / RELEASED(result)
 *   boards  per dense board index: count, threads in idle, false votes
 *           among them, colour, when it last went idle, its token, and the
 *           send-disable window of phase 2
 *   host    the host link's count and colour, kept by the master
 *   steps   pending protocol steps (at most one per board at any time)
 *   window  with windows: what the boards have for the master at the
 *           window's end (returns, news)
 *
 * Host order versus modelled time: guest events change board state the
 * moment they are reported; tokens sample a board when its RETURN step
 * runs, which is one instant in host order, so count, idle bit, vote and
 * colour are always sampled consistently. Modelled times of protocol steps
 * follow the timing rules of docs/idle.md whatever the host order.
 *
 * Every operation is O(1) except starting a round and the phases (O(boards))
 * and a board's release (O(threads of the board)).
 */
#include "tessera/models/termdet.h"

#include <stdlib.h>
#include <string.h>

/* Where the master is in its cycle of phases. */
enum {
    PHASE_DETECT,  /* phase 1: tokens out, waiting for all to come back */
    PHASE_STALLED, /* a round failed and nothing changed since it started:
                    * the next round waits for a guest event */
    PHASE_RELEASE, /* phase 2: release on its way to every board */
    PHASE_ENABLE,  /* phase 3: enable on its way to every board */
};

/* Where a board's token is during phase 1. */
enum {
    TOKEN_MASTER,  /* at the master (no round, or round over) */
    TOKEN_TRAVEL,  /* on its way to the board: a DELIVER step is pending */
    TOKEN_HELD,    /* at the board, waiting for it to be idle */
    TOKEN_BACK,    /* returned, with the board's sample */
};

typedef struct TdHart {
    uint8_t state;       /* TesseraTermdetHartState */
    bool vote;           /* while IDLE */
    uint8_t result;      /* while RELEASED */
    uint64_t since;      /* modelled time it entered idle */
    uint64_t resume_at;  /* while RELEASED */
} TdHart;

typedef struct TdBoard {
    int64_t count;         /* messages sent - messages received (freed) */
    uint32_t idle;         /* threads in IDLE */
    uint32_t false_votes;  /* threads in IDLE that voted false */
    bool black;            /* received a message since it last returned
                            * the token */
    uint64_t idle_at;      /* latest idle entry of any of its threads */
    uint32_t hops;         /* link hops from the master */
    uint8_t token;         /* TOKEN_* */
    bool return_pending;   /* a RETURN step is queued */
    bool counted;          /* windows: the master has this round's sample */
    uint64_t arrival;      /* when this round's token reached it */
    bool send_disabled;    /* from detection until ENABLE has run */
    uint64_t enable_at;    /* modelled end of the latest send-disable */
} TdBoard;

struct TesseraTermdet {
    TesseraTermdetConfig cfg;
    TesseraTermdetHost host;
    uint32_t num_boards, threads_per_board, num_harts;
    uint64_t rtt;
    TdHart *harts;
    TdBoard *boards;
    TesseraTermdetStep *steps;
    size_t num_steps, max_steps;

    int phase;
    uint64_t events;        /* guest events so far */
    /* Phase 1: the current round. */
    uint64_t round_start;   /* modelled start (PHASE_STALLED: of the next) */
    uint64_t round_events;  /* events when it started */
    uint32_t tokens_back;
    int64_t sum;            /* of the returned counts */
    bool any_black;         /* a returned token was black */
    bool vote;              /* AND of the returned votes */
    uint64_t back_at;       /* when the latest token is back */
    /* Phases 2 and 3. */
    uint64_t detected_at;   /* D */
    uint32_t result;        /* TESSERA_TERMDET_RESULT_* of this episode */
    uint32_t acks;          /* boards the current phase has reached */
    /* The host link: its count and colour live at the master. */
    int64_t host_count;
    bool host_black;
    bool host_disabled;
    uint64_t host_enable_at;

    TesseraTermdetStats stats;

    /* Windows: this process's news for the master, until the window ends. */
    TesseraTermdetReturn *returns;
    size_t num_returns;
    TesseraTermdetNews news;
};

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static uint32_t distance(uint32_t a, uint32_t b)
{
    return a > b ? a - b : b - a;
}

static bool board_idle(const TesseraTermdet *td, const TdBoard *b)
{
    return b->idle == td->threads_per_board;
}

static uint64_t hop_cycles(const TesseraTermdet *td, const TdBoard *b)
{
    return (uint64_t)td->cfg.board_hop_cycles * b->hops;
}

/* Tells the host's event hook (if any) what happened. */
static void emit(TesseraTermdet *td, TesseraTermdetEventKind kind,
                 uint32_t hart, uint32_t board, uint64_t time, uint32_t value)
{
    TesseraTermdetEvent e;

    if (td->host.event == NULL) {
        return;
    }
    e.kind = kind;
    e.hart = hart;
    e.board = board;
    e.round = td->stats.rounds_started;
    e.time = time;
    e.value = value;
    td->host.event(td->host.opaque, &e);
}

static void push_step(TesseraTermdet *td, TesseraTermdetStepKind kind,
                      uint32_t board, uint64_t time)
{
    TesseraTermdetStep *s;

    /* At most one step per board is ever pending (see the phases). */
    if (td->num_steps == td->max_steps) {
        abort();
    }
    s = &td->steps[td->num_steps++];
    s->kind = kind;
    s->board = board;
    s->time = time;
}

/* Queues a board's RETURN if it holds the token and is idle. */
static void maybe_return(TesseraTermdet *td, uint32_t board)
{
    TdBoard *b = &td->boards[board];

    if (b->token == TOKEN_HELD && !b->return_pending && board_idle(td, b)) {
        b->return_pending = true;
        push_step(td, TESSERA_TERMDET_STEP_RETURN, board,
                  max_u64(b->arrival, b->idle_at) + hop_cycles(td, b));
    }
}

/* Phase 1: the master sends a token to every board at modelled time r. */
static void start_round(TesseraTermdet *td, uint64_t r)
{
    uint32_t i;

    td->phase = PHASE_DETECT;
    td->round_start = r;
    td->round_events = td->events;
    td->tokens_back = 0;
    td->sum = 0;
    td->any_black = false;
    td->vote = true;
    td->back_at = r;
    for (i = 0; i < td->num_boards; i++) {
        TdBoard *b = &td->boards[i];

        b->token = TOKEN_TRAVEL;
        b->counted = false;
        push_step(td, TESSERA_TERMDET_STEP_DELIVER, i, r + hop_cycles(td, b));
    }
    td->stats.rounds_started++;
    td->stats.last_round_start = r;
    emit(td, TESSERA_TERMDET_EVENT_ROUND_START, UINT32_MAX, UINT32_MAX, r, 0);
}

/* Every guest event counts as progress; a stalled master starts its next
 * round (tokens wait at the boards as in hardware, the modelled start is
 * when the failed round ended). */
static void note_event(TesseraTermdet *td)
{
    if (td->cfg.windows) {
        td->news.events++; /* the master hears of it at the window's end */
        return;
    }
    td->events++;
    if (td->phase == PHASE_STALLED) {
        start_round(td, td->round_start);
    }
}

/* Every token is back at modelled time back_at: the master decides. */
static void evaluate(TesseraTermdet *td)
{
    int64_t sum = td->sum + td->host_count;
    bool black = td->any_black || td->host_black;
    uint64_t d = td->back_at;
    uint32_t i;

    td->host_black = false;
    td->stats.rounds++;
    td->stats.round_trips++;
    if (black || sum != 0) {
        td->stats.failed_rounds++;
        if (!black && td->events == td->round_events) {
            /* The next round would see exactly what this one saw. */
            td->phase = PHASE_STALLED;
            td->round_start = d;
            td->stats.stalled_rounds++;
            emit(td, TESSERA_TERMDET_EVENT_ROUND_END, UINT32_MAX, UINT32_MAX,
                 d, TESSERA_TERMDET_OUTCOME_STALLED);
        } else {
            emit(td, TESSERA_TERMDET_EVENT_ROUND_END, UINT32_MAX, UINT32_MAX,
                 d, TESSERA_TERMDET_OUTCOME_FAILED);
            start_round(td, d);
        }
        return;
    }
    emit(td, TESSERA_TERMDET_EVENT_ROUND_END, UINT32_MAX, UINT32_MAX, d,
         TESSERA_TERMDET_OUTCOME_DETECTED);

    /* Termination: phase 2 releases every board, disabling its sends. */
    td->stats.detections++;
    td->stats.last_detection = d;
    td->detected_at = d;
    td->result = td->vote ? TESSERA_TERMDET_RESULT_VOTED
                          : TESSERA_TERMDET_RESULT_RELEASED;
    td->phase = PHASE_RELEASE;
    td->acks = 0;
    td->host_disabled = true;
    td->host_enable_at = d + 2 * td->rtt;
    for (i = 0; i < td->num_boards; i++) {
        TdBoard *b = &td->boards[i];

        b->token = TOKEN_MASTER;
        b->send_disabled = true;
        b->enable_at = d + td->rtt + hop_cycles(td, b);
        push_step(td, TESSERA_TERMDET_STEP_RELEASE, i, d + hop_cycles(td, b));
    }
}

/* A token is back at the master with its board's sample. */
static void master_return(TesseraTermdet *td, int64_t count, bool black,
                          bool voted, uint64_t back)
{
    td->sum += count;
    td->any_black |= black;
    td->vote &= voted;
    td->back_at = max_u64(td->back_at, back);
    td->tokens_back++;
}

static void step_deliver(TesseraTermdet *td, const TesseraTermdetStep *s)
{
    TdBoard *b = &td->boards[s->board];

    b->token = TOKEN_HELD;
    b->arrival = s->time;
    emit(td, TESSERA_TERMDET_EVENT_TOKEN, UINT32_MAX, s->board, s->time, 0);
    maybe_return(td, s->board);
}

/* The board returns the token if it is still idle: count, colour and vote
 * sampled at this one instant; the board turns white. */
static void step_return(TesseraTermdet *td, const TesseraTermdetStep *s)
{
    TdBoard *b = &td->boards[s->board];
    uint64_t back;

    b->return_pending = false;
    if (b->token != TOKEN_HELD || !board_idle(td, b)) {
        return; /* busy again: it returns the token when next idle */
    }
    b->token = TOKEN_BACK;
    back = max_u64(b->arrival, b->idle_at) + hop_cycles(td, b);
    emit(td, TESSERA_TERMDET_EVENT_RETURN, UINT32_MAX, s->board, back, 0);
    if (td->cfg.windows) {
        /* The master hears of it at the window's end */
        TesseraTermdetReturn *r = &td->returns[td->num_returns++];

        memset(r, 0, sizeof(*r));
        r->round = td->stats.rounds_started;
        r->back = back;
        r->count = b->count;
        r->board = s->board;
        r->black = b->black;
        r->voted = b->false_votes == 0;
        b->black = false;
        return;
    }
    master_return(td, b->count, b->black, b->false_votes == 0, back);
    b->black = false;
    if (td->tokens_back == td->num_boards) {
        evaluate(td);
    }
}

/* Phase 2 reaches a board: its idle threads are released. */
static void step_release(TesseraTermdet *td, const TesseraTermdetStep *s)
{
    TdBoard *b = &td->boards[s->board];
    uint32_t first = s->board * td->threads_per_board;
    uint32_t i;

    emit(td, TESSERA_TERMDET_EVENT_RELEASE, UINT32_MAX, s->board, s->time, 0);
    for (i = first; i < first + td->threads_per_board; i++) {
        TdHart *h = &td->harts[i];

        if (h->state != TESSERA_TERMDET_IDLE) {
            continue;
        }
        h->state = TESSERA_TERMDET_RELEASED;
        h->result = (uint8_t)td->result;
        h->resume_at = max_u64(s->time, h->since);
        emit(td, TESSERA_TERMDET_EVENT_IDLE_LEAVE, i, s->board, h->resume_at,
             TESSERA_TERMDET_LEAVE_RELEASED);
        if (td->host.wake != NULL) {
            td->host.wake(td->host.opaque, i);
        }
    }
    b->idle = 0;
    b->false_votes = 0;
    if (++td->acks < td->num_boards) {
        return;
    }
    /* Every board has acknowledged: phase 3. */
    td->stats.round_trips++;
    td->phase = PHASE_ENABLE;
    td->acks = 0;
    emit(td, TESSERA_TERMDET_EVENT_ENABLE_START, UINT32_MAX, UINT32_MAX,
         td->detected_at + td->rtt, 0);
    for (i = 0; i < td->num_boards; i++) {
        push_step(td, TESSERA_TERMDET_STEP_ENABLE, i,
                  td->boards[i].enable_at);
    }
}

/* Phase 3 reaches a board: it may send again. */
static void step_enable(TesseraTermdet *td, const TesseraTermdetStep *s)
{
    td->boards[s->board].send_disabled = false;
    emit(td, TESSERA_TERMDET_EVENT_ENABLE, UINT32_MAX, s->board, s->time, 0);
    if (++td->acks < td->num_boards) {
        return;
    }
    td->stats.round_trips++;
    td->stats.episodes++;
    td->host_disabled = false;
    emit(td, TESSERA_TERMDET_EVENT_EPISODE_END, UINT32_MAX, UINT32_MAX,
         td->detected_at + 2 * td->rtt, 0);
    start_round(td, td->detected_at + 2 * td->rtt);
}

/* ---- guest events -------------------------------------------------------- */

void tessera_termdet_sent(TesseraTermdet *td, uint32_t board, uint64_t time)
{
    (void)time;
    if (board == TESSERA_TERMDET_HOST) {
        /* The host link's count lives at the master */
        if (td->cfg.windows) {
            td->news.host_count++;
        } else {
            td->host_count++;
        }
    } else if (board < td->num_boards) {
        td->boards[board].count++;
    } else {
        return;
    }
    note_event(td);
}

void tessera_termdet_received(TesseraTermdet *td, uint32_t board,
                              uint64_t time)
{
    (void)time;
    if (board == TESSERA_TERMDET_HOST) {
        if (td->cfg.windows) {
            td->news.host_count--;
            td->news.host_black = true;
        } else {
            td->host_count--;
            td->host_black = true;
        }
    } else if (board < td->num_boards) {
        td->boards[board].count--;
        td->boards[board].black = true;
    } else {
        return;
    }
    note_event(td);
}

bool tessera_termdet_idle_enter(TesseraTermdet *td, uint32_t hart, bool vote,
                                uint64_t now)
{
    uint32_t board;
    TdHart *h;
    TdBoard *b;

    if (hart >= td->num_harts || td->harts[hart].state == TESSERA_TERMDET_IDLE) {
        return false;
    }
    board = hart / td->threads_per_board;
    h = &td->harts[hart];
    b = &td->boards[board];
    h->state = TESSERA_TERMDET_IDLE;
    h->vote = vote;
    h->since = now;
    h->result = 0;
    h->resume_at = 0;
    b->idle++;
    if (!vote) {
        b->false_votes++;
    }
    b->idle_at = max_u64(b->idle_at, now);
    emit(td, TESSERA_TERMDET_EVENT_IDLE_ENTER, hart, board, now, vote);
    maybe_return(td, board);
    note_event(td);
    return true;
}

/* Takes an IDLE thread out of idle; its board, or NULL if it was not IDLE. */
static TdBoard *leave_idle(TesseraTermdet *td, uint32_t hart)
{
    TdHart *h;
    TdBoard *b;

    if (hart >= td->num_harts || td->harts[hart].state != TESSERA_TERMDET_IDLE) {
        return NULL;
    }
    h = &td->harts[hart];
    b = &td->boards[hart / td->threads_per_board];
    h->state = TESSERA_TERMDET_ACTIVE;
    b->idle--;
    if (!h->vote) {
        b->false_votes--;
    }
    return b;
}

bool tessera_termdet_idle_leave(TesseraTermdet *td, uint32_t hart,
                                uint64_t now)
{
    if (leave_idle(td, hart) == NULL) {
        return false;
    }
    emit(td, TESSERA_TERMDET_EVENT_IDLE_LEAVE, hart,
         hart / td->threads_per_board, now, TESSERA_TERMDET_LEAVE_MESSAGE);
    note_event(td);
    return true;
}

bool tessera_termdet_idle_abandon(TesseraTermdet *td, uint32_t hart,
                                  uint64_t now)
{
    TdBoard *b;

    b = leave_idle(td, hart);
    if (b == NULL) {
        return false;
    }
    emit(td, TESSERA_TERMDET_EVENT_IDLE_LEAVE, hart,
         hart / td->threads_per_board, now, TESSERA_TERMDET_LEAVE_ABANDONED);
    /* No message woke it, so counts and colours cannot show that its
     * board's idle sample in the round under way (token back) is stale:
     * the round must fail, as if the token had come back black. */
    if (td->phase == PHASE_DETECT && b->token == TOKEN_BACK) {
        if (td->cfg.windows) {
            td->news.abandoned = true;
        } else {
            td->any_black = true;
        }
    }
    note_event(td);
    return true;
}

TesseraTermdetHartState tessera_termdet_hart_state(const TesseraTermdet *td,
                                                   uint32_t hart,
                                                   uint32_t *result,
                                                   uint64_t *resume_at)
{
    TesseraTermdetHartState state = TESSERA_TERMDET_ACTIVE;
    uint32_t r = 0;
    uint64_t at = 0;

    if (hart < td->num_harts) {
        const TdHart *h = &td->harts[hart];

        state = (TesseraTermdetHartState)h->state;
        if (state == TESSERA_TERMDET_RELEASED) {
            r = h->result;
            at = h->resume_at;
        }
    }
    if (result != NULL) {
        *result = r;
    }
    if (resume_at != NULL) {
        *resume_at = at;
    }
    return state;
}

uint64_t tessera_termdet_send_at(const TesseraTermdet *td, uint32_t board,
                                 uint64_t t)
{
    if (board == TESSERA_TERMDET_HOST) {
        return td->host_disabled ? TESSERA_TERMDET_SEND_DISABLED
                                 : max_u64(t, td->host_enable_at);
    }
    if (board >= td->num_boards) {
        return t;
    }
    return td->boards[board].send_disabled
               ? TESSERA_TERMDET_SEND_DISABLED
               : max_u64(t, td->boards[board].enable_at);
}

/* ---- protocol steps ------------------------------------------------------ */

bool tessera_termdet_run_step(TesseraTermdet *td, size_t i)
{
    TesseraTermdetStep s;

    if (i >= td->num_steps) {
        return false;
    }
    s = td->steps[i];
    td->steps[i] = td->steps[--td->num_steps];
    switch (s.kind) {
    case TESSERA_TERMDET_STEP_DELIVER:
        step_deliver(td, &s);
        break;
    case TESSERA_TERMDET_STEP_RETURN:
        step_return(td, &s);
        break;
    case TESSERA_TERMDET_STEP_RELEASE:
        step_release(td, &s);
        break;
    case TESSERA_TERMDET_STEP_ENABLE:
        step_enable(td, &s);
        break;
    }
    return true;
}

size_t tessera_termdet_process(TesseraTermdet *td)
{
    size_t n = 0;

    /* Terminates: without guest events the master completes at most one
     * episode and two failed rounds before it stalls or waits for a board
     * to become idle. */
    while (td->num_steps > 0) {
        tessera_termdet_run_step(td, td->num_steps - 1);
        n++;
    }
    return n;
}

size_t tessera_termdet_pending(const TesseraTermdet *td)
{
    return td->num_steps;
}

bool tessera_termdet_pending_step(const TesseraTermdet *td, size_t i,
                                  TesseraTermdetStep *step)
{
    if (i >= td->num_steps) {
        return false;
    }
    if (step != NULL) {
        *step = td->steps[i];
    }
    return true;
}

void tessera_termdet_stats(const TesseraTermdet *td,
                           TesseraTermdetStats *stats)
{
    *stats = td->stats;
}

/* ---- time windows -------------------------------------------------------- */

void tessera_termdet_news_add(TesseraTermdetNews *sum,
                              const TesseraTermdetNews *n)
{
    sum->events += n->events;
    sum->host_count += n->host_count;
    sum->host_black |= n->host_black;
    sum->abandoned |= n->abandoned;
}

size_t tessera_termdet_window(const TesseraTermdet *td,
                              const TesseraTermdetReturn **returns,
                              TesseraTermdetNews *news)
{
    *returns = td->returns;
    *news = td->news;
    return td->num_returns;
}

bool tessera_termdet_window_pending(const TesseraTermdet *td)
{
    const TesseraTermdetNews *n = &td->news;

    return td->num_returns != 0 || n->abandoned || n->host_black ||
           n->host_count != 0 || (n->events != 0 && td->phase == PHASE_STALLED);
}

/* Every return names a board of the round under way whose sample the
 * master has not counted yet, each board once. */
static bool window_returns_valid(TesseraTermdet *td,
                                 const TesseraTermdetReturn *returns,
                                 size_t n)
{
    size_t marked = 0;
    bool valid = n == 0 || td->phase == PHASE_DETECT;

    while (valid && marked < n) {
        const TesseraTermdetReturn *r = &returns[marked];

        valid = r->round == td->stats.rounds_started &&
                r->board < td->num_boards && !td->boards[r->board].counted;
        if (valid) {
            td->boards[r->board].counted = true; /* a second one fails */
            marked++;
        }
    }
    while (marked-- > 0) {
        td->boards[returns[marked].board].counted = false;
    }
    return valid;
}

bool tessera_termdet_window_end(TesseraTermdet *td,
                                const TesseraTermdetReturn *returns,
                                size_t num_returns,
                                const TesseraTermdetNews *news)
{
    size_t i;

    if (!td->cfg.windows || !window_returns_valid(td, returns, num_returns)) {
        return false;
    }
    td->num_returns = 0;
    memset(&td->news, 0, sizeof(td->news));
    td->events += news->events;
    td->host_count += news->host_count;
    td->host_black |= news->host_black;
    if (news->abandoned && td->phase == PHASE_DETECT) {
        td->any_black = true;
    }
    for (i = 0; i < num_returns; i++) {
        const TesseraTermdetReturn *r = &returns[i];

        /* Another process's board: its token is back here too */
        td->boards[r->board].token = TOKEN_BACK;
        td->boards[r->board].counted = true;
        master_return(td, r->count, r->black, r->voted, r->back);
    }
    if (td->phase == PHASE_DETECT && td->tokens_back == td->num_boards) {
        evaluate(td);
    }
    if (td->phase == PHASE_STALLED && news->events != 0) {
        start_round(td, td->round_start);
    }
    tessera_termdet_process(td);
    return true;
}

/* ---- geometry and construction ------------------------------------------- */

uint32_t tessera_termdet_hops(const TesseraTermdet *td, uint32_t board)
{
    return board < td->num_boards ? td->boards[board].hops : UINT32_MAX;
}

uint64_t tessera_termdet_rtt(const TesseraTermdet *td)
{
    return td->rtt;
}

uint32_t tessera_termdet_board_of(const TesseraTermdet *td, uint32_t hart)
{
    return hart / td->threads_per_board;
}

static uint32_t master_hops(const TesseraTermdetConfig *cfg, uint32_t x,
                            uint32_t y)
{
    if (cfg->master == TESSERA_TERMDET_MASTER_CENTRE) {
        return distance(x, cfg->shape.boards_x / 2) +
               distance(y, cfg->shape.boards_y / 2);
    }
    return x + y + 1;
}

/* The first round starts at cycle 0. With windows its tokens reach the
 * boards now, before any thread runs, rather than at whichever guest event
 * comes first in the process. */
static void first_round(TesseraTermdet *td)
{
    start_round(td, 0);
    if (td->cfg.windows) {
        tessera_termdet_process(td);
    }
}

TesseraTermdet *tessera_termdet_new(const TesseraTermdetConfig *cfg,
                                    const TesseraTermdetHost *host)
{
    TesseraTermdet *td;
    uint64_t boards, per_board;
    uint32_t i, max_hops = 0;

    if (cfg == NULL || (cfg->master != TESSERA_TERMDET_MASTER_ORIGIN &&
                        cfg->master != TESSERA_TERMDET_MASTER_CENTRE)) {
        return NULL;
    }
    boards = (uint64_t)cfg->shape.boards_x * cfg->shape.boards_y;
    /* Factor by factor: four 32-bit extents can wrap 64 bits to a small
     * count. Once above UINT32_MAX the product is refused below anyway. */
    per_board = (uint64_t)cfg->shape.tiles_x * cfg->shape.tiles_y;
    if (per_board <= UINT32_MAX) {
        per_board *= cfg->shape.cores_per_tile;
    }
    if (per_board <= UINT32_MAX) {
        per_board *= cfg->shape.threads_per_core;
    }
    if (boards == 0 || per_board == 0 || boards > UINT32_MAX ||
        per_board > UINT32_MAX || boards * per_board > UINT32_MAX) {
        return NULL;
    }
    td = calloc(1, sizeof(*td));
    if (td == NULL) {
        return NULL;
    }
    td->cfg = *cfg;
    if (host != NULL) {
        td->host = *host;
    }
    td->num_boards = (uint32_t)boards;
    td->threads_per_board = (uint32_t)per_board;
    td->num_harts = (uint32_t)(boards * per_board);
    td->max_steps = td->num_boards;
    td->harts = calloc(td->num_harts, sizeof(*td->harts));
    td->boards = calloc(td->num_boards, sizeof(*td->boards));
    td->steps = calloc(td->max_steps, sizeof(*td->steps));
    /* A board returns at most one token a round, a round at most a window */
    if (cfg->windows) {
        td->returns = calloc(td->num_boards, sizeof(*td->returns));
    }
    if (td->harts == NULL || td->boards == NULL || td->steps == NULL ||
        (cfg->windows && td->returns == NULL)) {
        tessera_termdet_free(td);
        return NULL;
    }
    for (i = 0; i < td->num_boards; i++) {
        TdBoard *b = &td->boards[i];

        b->hops = master_hops(cfg, i % cfg->shape.boards_x,
                              i / cfg->shape.boards_x);
        if (b->hops > max_hops) {
            max_hops = b->hops;
        }
    }
    td->rtt = 2 * (uint64_t)cfg->board_hop_cycles * max_hops;
    first_round(td);
    return td;
}

void tessera_termdet_reset(TesseraTermdet *td)
{
    uint32_t i;

    memset(td->harts, 0, td->num_harts * sizeof(*td->harts));
    for (i = 0; i < td->num_boards; i++) {
        uint32_t hops = td->boards[i].hops;

        memset(&td->boards[i], 0, sizeof(td->boards[i]));
        td->boards[i].hops = hops;
    }
    td->num_steps = 0;
    td->phase = PHASE_DETECT;
    td->events = 0;
    td->detected_at = 0;
    td->result = 0;
    td->acks = 0;
    td->host_count = 0;
    td->host_black = false;
    td->host_disabled = false;
    td->host_enable_at = 0;
    memset(&td->stats, 0, sizeof(td->stats));
    td->num_returns = 0;
    memset(&td->news, 0, sizeof(td->news));
    first_round(td);
}

void tessera_termdet_free(TesseraTermdet *td)
{
    if (td == NULL) {
        return;
    }
    free(td->harts);
    free(td->boards);
    free(td->steps);
    free(td->returns);
    free(td);
}
