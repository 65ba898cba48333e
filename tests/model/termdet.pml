/*
 * Promela model of the termination detector behind tinselIdle(vote)
 * (DESIGN 1.2, docs/idle.md, docs/model-check.md), written to follow
 * models/termdet.c step for step.
 *
 * The detector: per board a signed count (sent - received), an idle bit
 * (every thread of the board in idle), the AND of the votes and a colour;
 * the host link's count and colour at the master; a star of tokens, one
 * per board, sent out in parallel; three phases (detect, release with
 * sends disabled, re-enable).
 *
 * The environment: NB boards of TPB threads, and the host. Threads send
 * to each other and to the host, receive (and free), and call
 * tinselIdle(vote) with either vote; the host injects messages and takes
 * those sent to it. At most MSGS messages are sent in all, so the state
 * space is finite; idle episodes go on for ever.
 *
 * Each guest event and each protocol step is one d_step: one indivisible
 * transition, as each call into termdet.c is (the caller serialises
 * them). Spin interleaves them in every order, which is what
 * tessera_termdet_run_step allows.
 *
 * Macros (spin -D...):
 *   NB, TPB, MSGS     the bounds (boards 1..3, threads per board 1..2)
 *   NO_HOST           leave the host out
 *   LIVENESS          include the LTL property `live`
 *   NO_SEND_DISABLE   phase 2 does not disable the boards' sends  (broken)
 *   NO_HOST_DISABLE   phase 2 does not hold the host back         (broken)
 *   NO_COLOUR         tokens ignore the boards' colours           (broken)
 *   NO_HOST_COLOUR    the master ignores the host's colour        (broken)
 *   NO_LATCH          a released thread can still leave with 0    (broken)
 *   NO_STALL_WAKE     a stalled master ignores later events       (broken)
 */

#ifndef NB
#define NB 2
#endif
#ifndef TPB
#define TPB 2
#endif
#ifndef MSGS
#define MSGS 2
#endif
#define NT (NB * TPB)
#define HOST_DEST NT            /* destination index of the host link */
#define BOARD(t) ((t) / TPB)

/* What the thread is doing (the mailbox's view). */
#define RUN  0                  /* running its program */
#define WAIT 1                  /* blocked in tinselIdle */

/* TesseraTermdetHartState */
#define H_ACTIVE   0
#define H_IDLE     1
#define H_RELEASED 2

/* termdet.c: TOKEN_* */
#define T_MASTER 0
#define T_TRAVEL 1
#define T_HELD   2
#define T_BACK   3

/* TesseraTermdetStepKind; a board has at most one pending step. */
#define S_NONE    0
#define S_DELIVER 1
#define S_RETURN  2
#define S_RELEASE 3
#define S_ENABLE  4

/* termdet.c: PHASE_* */
#define P_DETECT  0
#define P_STALLED 1
#define P_RELEASE 2
#define P_ENABLE  3

#define RESULT_RELEASED 1
#define RESULT_VOTED    3

/* ---- the machine around the detector ------------------------------------ */

byte pc[NT];            /* RUN / WAIT */
byte inbox[NT];         /* sent to the thread, not yet received and freed */
byte to_host;           /* sent to the host, not yet taken by it */
byte budget = MSGS;     /* messages that may still be sent (threads + host) */

/* ---- termdet.c ---------------------------------------------------------- */

/* TdHart */
byte hs[NT];            /* H_* */
bool hvote[NT];         /* while H_IDLE */
byte hresult[NT];       /* while H_RELEASED */

/* TdBoard */
short count[NB];        /* sent - received (freed) */
byte idle[NB];          /* threads in H_IDLE */
byte fvotes[NB];        /* of those, how many voted false */
bool black[NB];         /* freed a message since it last returned a token */
byte token[NB];         /* T_* */
byte step[NB];          /* its pending step, S_NONE if none */
bool sdis[NB];          /* send_disabled */

/* The master */
byte phase = P_DETECT;
bool changed;           /* a guest event since the round started
                         * (events != round_events) */
byte back;              /* tokens_back */
short sum;              /* of the returned counts */
bool anyblack;          /* a returned token was black */
bool rvote;             /* AND of the returned votes */
byte result;            /* RESULT_* of the episode being released */
byte acks;              /* boards the current phase 2 or 3 has reached */
short hcount;           /* the host link: injected - taken */
bool hblack;            /* the host took a message since the last evaluation */
bool hdis;              /* the host may not send (phases 2 and 3) */

/* ---- ghost state for the properties (termdet.c has none of it) ---------- */

/* In the idle call of an episode the master has detected: set for every
 * thread at detection, cleared when the thread returns the result. */
bool inep[NT];
byte epresult;          /* the result every vote of that episode implies */

/* Scratch for loops inside one d_step; holds nothing between steps, so it
 * stays out of the state vector. */
hidden byte i;
hidden byte j;
hidden short k;
hidden byte v;

/* Messages sent and not yet received (freed) by a thread or taken by the
 * host: the omniscient truth the detector must not contradict. */
#if NT == 1
#define UNDELIVERED (to_host + inbox[0])
#elif NT == 2
#define UNDELIVERED (to_host + inbox[0] + inbox[1])
#elif NT == 3
#define UNDELIVERED (to_host + inbox[0] + inbox[1] + inbox[2])
#elif NT == 4
#define UNDELIVERED (to_host + inbox[0] + inbox[1] + inbox[2] + inbox[3])
#elif NT == 6
#define UNDELIVERED (to_host + inbox[0] + inbox[1] + inbox[2] + inbox[3] + \
                     inbox[4] + inbox[5])
#else
#error "NB * TPB must be 1, 2, 3, 4 or 6"
#endif

/* An assertion that says in words what failed when a trail is replayed
 * (spin -t prints it; the verifier ignores printf). */
#define CHECK(c, what) \
    if \
    :: !(c) -> printf("VIOLATED: "); printf(what); printf("\n") \
    :: else \
    fi; \
    assert(c)

/* ---- termdet.c, function by function ------------------------------------ */

/* push_step: termdet.c aborts if a board would have two pending steps. */
inline push_step(b, kind)
{
    assert(step[b] == S_NONE);
    step[b] = kind
}

inline maybe_return(b)
{
    if
    :: token[b] == T_HELD && step[b] != S_RETURN && idle[b] == TPB ->
        push_step(b, S_RETURN)
    :: else
    fi
}

inline start_round()
{
    phase = P_DETECT;
    changed = false;
    back = 0;
    sum = 0;
    anyblack = false;
    rvote = true;
    i = 0;
    do
    :: i < NB -> token[i] = T_TRAVEL; push_step(i, S_DELIVER); i++
    :: else -> break
    od
}

/* termdet.c counts every event and compares the count with the one at the
 * start of the round; only phase 1 reads the comparison. */
inline note_event()
{
    if
    :: phase == P_DETECT -> changed = true
#ifndef NO_STALL_WAKE
    :: phase == P_STALLED -> start_round()
#endif
    :: else
    fi
}

/* Nothing reads a finished round's sums again: zero them so that states
 * that differ only there are one state (termdet.c leaves them; no
 * behaviour changes). */
inline forget_round()
{
    changed = false;
    back = 0;
    sum = 0;
    anyblack = false;
    rvote = true
}

/* The master has found termination. Check it against the truth first. */
inline detect()
{
    result = (rvote -> RESULT_VOTED : RESULT_RELEASED);
    printf("master: termination detected, result %d\n", result);
    CHECK(UNDELIVERED == 0, "P1 no false termination: a message is undelivered");
    v = true;
    j = 0;
    do
    :: j < NT ->
        CHECK(pc[j] == WAIT && hs[j] == H_IDLE,
              "P1 no false termination: a thread is not in tinselIdle");
        v = v && hvote[j];
        inep[j] = true;
        j++
    :: else -> break
    od;
    epresult = (v -> RESULT_VOTED : RESULT_RELEASED);
    CHECK(result == epresult,
          "P2 the result is not the AND of the votes of the idle calls");
    forget_round();
    phase = P_RELEASE;
    acks = 0;
#ifndef NO_HOST_DISABLE
    hdis = true;
#endif
    i = 0;
    do
    :: i < NB ->
        token[i] = T_MASTER;
#ifndef NO_SEND_DISABLE
        sdis[i] = true;
#endif
        push_step(i, S_RELEASE);
        i++
    :: else -> break
    od
}

/* Every token is back: the master decides from them and its host counter
 * alone. */
inline evaluate()
{
    k = sum + hcount;
#if defined(NO_COLOUR)
    v = hblack;
#elif defined(NO_HOST_COLOUR)
    v = anyblack;
#else
    v = anyblack || hblack;
#endif
    hblack = false;
    if
    :: v || k != 0 ->
        if
        :: !v && !changed ->
            /* The next round would see the same: wait for an event. */
            printf("master: sum %d, white: round fails, master waits\n", k);
            phase = P_STALLED;
            forget_round()
        :: else ->
            printf("master: sum %d, black %d: round fails, next round\n", k, v);
            start_round()
        fi
    :: else -> detect()
    fi
}

inline step_deliver(b)
{
    printf("token reaches board %d\n", b);
    token[b] = T_HELD;
    maybe_return(b)
}

/* The board's count, colour, idle bit and vote, sampled at one instant. */
inline step_return(b)
{
    if
    :: token[b] == T_HELD && idle[b] == TPB ->
        printf("board %d returns its token: count %d, black %d, vote %d\n",
               b, count[b], black[b], fvotes[b] == 0);
        token[b] = T_BACK;
        sum = sum + count[b];
        anyblack = anyblack || black[b];
        rvote = rvote && fvotes[b] == 0;
        black[b] = false;
        back++;
        if
        :: back == NB -> evaluate()
        :: else
        fi
    :: else   /* busy again: it returns the token when next idle */
        printf("board %d is busy again, keeps its token\n", b)
    fi
}

/* Phase 2 reaches board b. In the detected episode nothing can be in
 * flight and every thread of b must still be in its idle call. */
inline step_release(b)
{
    printf("phase 2 reaches board %d: release with %d, sends off\n", b, result);
    j = b * TPB;
    do
    :: j < (b + 1) * TPB ->
        CHECK(hs[j] == H_IDLE && inep[j],
              "P3 a thread is not in the idle call that was found terminated");
        CHECK(inbox[j] == 0,
              "P3 a thread is released while a message waits for it");
        if
        :: hs[j] == H_IDLE ->
            hs[j] = H_RELEASED;
            hresult[j] = result;
            hvote[j] = false      /* not read again (canonical value) */
        :: else
        fi;
        j++
    :: else -> break
    od;
    idle[b] = 0;
    fvotes[b] = 0;
    acks++;
    if
    :: acks == NB ->
        phase = P_ENABLE;
        result = 0;               /* every thread has its copy (canonical) */
        acks = 0;
        i = 0;
        do
        :: i < NB -> push_step(i, S_ENABLE); i++
        :: else -> break
        od
    :: else
    fi
}

inline step_enable(b)
{
    printf("phase 3 reaches board %d: sends on\n", b);
    sdis[b] = false;
    acks++;
    if
    :: acks == NB -> acks = 0; hdis = false; start_round()
    :: else
    fi
}

/* tessera_termdet_run_step for board b's pending step. */
inline run_step(b)
{
    k = step[b];
    step[b] = S_NONE;
    if
    :: k == S_DELIVER -> step_deliver(b)
    :: k == S_RETURN -> step_return(b)
    :: k == S_RELEASE -> step_release(b)
    :: k == S_ENABLE -> step_enable(b)
    fi
}

/* ---- guest events ------------------------------------------------------- */

/* tessera_termdet_sent, and the message enters the network. */
inline send(t, d)
{
    budget--;
    count[BOARD(t)]++;
    if
    :: d == HOST_DEST ->
        printf("thread %d sends to the host\n", t);
        to_host++
    :: else ->
        printf("thread %d sends to thread %d\n", t, d);
        inbox[d]++
    fi;
    note_event()
}

/* The thread receives and frees a message: tessera_termdet_received. */
inline recv_free(t)
{
    printf("thread %d receives and frees a message\n", t);
    inbox[t]--;
    count[BOARD(t)]--;
    black[BOARD(t)] = true;
    note_event()
}

/* tinselIdle with nothing to receive: tessera_termdet_idle_enter. */
inline idle_enter(t, vote)
{
    printf("thread %d: tinselIdle(%d) blocks\n", t, vote);
    pc[t] = WAIT;
    hs[t] = H_IDLE;
    hvote[t] = vote;
    hresult[t] = 0;
    idle[BOARD(t)]++;
    if
    :: !vote -> fvotes[BOARD(t)]++
    :: else
    fi;
    maybe_return(BOARD(t));
    note_event()
}

/* A message is available: tinselIdle returns 0
 * (tessera_termdet_idle_leave). This must not end an idle call in which
 * termination was detected. */
inline idle_leave(t)
{
    printf("thread %d: tinselIdle returns 0 (a message)\n", t);
    CHECK(!inep[t], "P3 tinselIdle returns 0 in an episode found terminated");
    pc[t] = RUN;
    if
    :: hs[t] == H_IDLE ->
        hs[t] = H_ACTIVE;
        idle[BOARD(t)]--;
        if
        :: !hvote[t] -> fvotes[BOARD(t)]--
        :: else
        fi;
        hvote[t] = false;         /* not read again (canonical value) */
        note_event()
    :: else   /* NO_LATCH only: termdet.c ignores a leave unless IDLE */
    fi
}

/* A released thread resumes: tinselIdle returns the latched result. */
inline resume(t)
{
    printf("thread %d: tinselIdle returns %d\n", t, hresult[t]);
    CHECK(inep[t] && hresult[t] == epresult,
          "P2 a released thread returns another result than its episode's");
    inep[t] = false;
    pc[t] = RUN;
    /* termdet.c keeps the hart RELEASED until it next enters idle, but
     * nothing reads that state or the result once the thread has resumed;
     * ACTIVE is equivalent, and one value instead of two keeps equal
     * states equal. Likewise the ghost result once every thread has
     * resumed. */
    hs[t] = H_ACTIVE;
    hresult[t] = 0;
    v = false;
    j = 0;
    do
    :: j < NT -> v = v || inep[j]; j++
    :: else -> break
    od;
    if
    :: !v -> epresult = 0
    :: else
    fi
}

#ifdef NO_SEND_DISABLE
#define MAY_SEND(t) true
#else
#define MAY_SEND(t) (!sdis[BOARD(t)])
#endif

#ifdef NO_LATCH
#define MAY_LEAVE(t) (hs[t] == H_IDLE || hs[t] == H_RELEASED)
#else
#define MAY_LEAVE(t) (hs[t] == H_IDLE)
#endif

/* Send to the r-th other destination after t (threads, then the host),
 * r = 1..NT: every destination except t itself. */
#define SEND_TO(r) \
    :: d_step { pc[t] == RUN && budget > 0 && MAY_SEND(t) -> \
                send(t, (t + (r)) % (NT + 1)) }

proctype Thread(byte t)
{
    do
    SEND_TO(1)
#if NT >= 2
    SEND_TO(2)
#endif
#if NT >= 3
    SEND_TO(3)
#endif
#if NT >= 4
    SEND_TO(4)
#endif
#if NT >= 6
    SEND_TO(5)
    SEND_TO(6)
#endif
    :: d_step { pc[t] == RUN && inbox[t] > 0 -> recv_free(t) }
    /* tinselIdle with a message waiting returns 0 at once and changes no
     * detector state, so only the blocking calls are modelled. */
    :: d_step { pc[t] == RUN && inbox[t] == 0 -> idle_enter(t, true) }
    :: d_step { pc[t] == RUN && inbox[t] == 0 -> idle_enter(t, false) }
    :: d_step { pc[t] == WAIT && MAY_LEAVE(t) && inbox[t] > 0 -> idle_leave(t) }
    :: d_step { pc[t] == WAIT && hs[t] == H_RELEASED -> resume(t) }
    od
}

#ifdef NO_HOST_DISABLE
#define HOST_MAY_SEND true
#else
#define HOST_MAY_SEND (!hdis)
#endif

#define INJECT(d) \
    :: d_step { budget > 0 && HOST_MAY_SEND -> \
                printf("host injects into thread %d\n", d); \
                budget--; hcount++; inbox[d]++; note_event() }

/* The host link: injects into any thread (tessera_termdet_sent(HOST)),
 * takes what was sent to it (tessera_termdet_received(HOST)). */
proctype Host()
{
    do
    INJECT(0)
#if NT >= 2
    INJECT(1)
#endif
#if NT >= 3
    INJECT(2)
#endif
#if NT >= 4
    INJECT(3)
#endif
#if NT >= 6
    INJECT(4)
    INJECT(5)
#endif
    :: d_step { to_host > 0 ->
                printf("host takes a message\n");
                to_host--; hcount--; hblack = true; note_event() }
    od
}

/* The pending protocol steps, run one at a time in any order. */
proctype Master()
{
    do
    :: d_step { step[0] != S_NONE -> run_step(0) }
#if NB >= 2
    :: d_step { step[1] != S_NONE -> run_step(1) }
#endif
#if NB >= 3
    :: d_step { step[2] != S_NONE -> run_step(2) }
#endif
    od
}

init
{
    byte n;

    atomic {
        /* tessera_termdet_new: the first round starts at once. */
        d_step { start_round(); skip };
        do
        :: n < NT -> run Thread(n); n++
        :: else -> break
        od;
#ifndef NO_HOST
        run Host();
#endif
        run Master()
    }
}

#ifdef LIVENESS
/* Once the machine has terminated (every thread blocked in tinselIdle, not
 * yet released, nothing undelivered), every thread is released. */
#define QUIESCENT (UNDELIVERED == 0 && ALL_IDLE)
#define RELEASED(t) (hs[t] == H_RELEASED)
#define LIVE(t) ([] (QUIESCENT -> <> RELEASED(t)))
#define IDLE_T(t) (pc[t] == WAIT && hs[t] == H_IDLE)
#if NT == 2
#define ALL_IDLE (IDLE_T(0) && IDLE_T(1))
ltl live { LIVE(0) && LIVE(1) }
#elif NT == 3
#define ALL_IDLE (IDLE_T(0) && IDLE_T(1) && IDLE_T(2))
ltl live { LIVE(0) && LIVE(1) && LIVE(2) }
#elif NT == 4
#define ALL_IDLE (IDLE_T(0) && IDLE_T(1) && IDLE_T(2) && IDLE_T(3))
ltl live { LIVE(0) && LIVE(1) && LIVE(2) && LIVE(3) }
#elif NT == 6
#define ALL_IDLE (IDLE_T(0) && IDLE_T(1) && IDLE_T(2) && IDLE_T(3) && \
                  IDLE_T(4) && IDLE_T(5))
ltl live { LIVE(0) && LIVE(1) && LIVE(2) && LIVE(3) && LIVE(4) && LIVE(5) }
#else
#error "LIVENESS is written for 2, 3, 4 or 6 threads"
#endif
#endif
