"""The generated tables of README.md and docs/*.md (docs/figures.md): one function per block name,
each reading only the CSVs of docs/figures/ that the benches of figures.toml wrote, so that a
figure in the docs cannot say anything its data does not.
"""
import csv
import os
from collections import defaultdict

from shake_report import crossing  # the ring size where the check's share reaches a level

TABLES = {}
CLOCK_MHZ = 240  # the benches' modelled clock (clock-mhz, the default)


class NoData(Exception):
    """A table's CSV is missing or lacks what the table shows."""


class Figures:
    """The CSVs of one folder, read on demand."""

    def __init__(self, folder):
        self.folder = folder
        self._cache = {}

    def rows(self, name):
        if name not in self._cache:
            path = os.path.join(self.folder, name)
            if not os.path.exists(path):
                raise NoData(f"no {name} in {self.folder} (./tessera figures writes it)")
            with open(path, newline="") as f:
                self._cache[name] = list(csv.DictReader(f))
        return self._cache[name]

    def run(self, bench):
        """The runs.csv row of a bench: when, at which commit, on how loaded a host."""
        for r in self.rows("runs.csv"):
            if r["bench"] == bench:
                return r
        raise NoData(f"runs.csv has no run of bench {bench}")


def table(name):
    def register(fn):
        TABLES[name] = fn
        return fn
    return register


def render(name, figures):
    if name not in TABLES:
        raise NoData(f"no table named '{name}' in tests/bench/tables.py")
    return TABLES[name](figures)


# -- formatting ----------------------------------------------------------------------------------

def num(value, digits=0):
    """A figure as the docs write it: thousands separated, a fixed number of decimals."""
    return f"{float(value):,.{digits}f}"


def count(value):
    """A count that may be a mean: whole numbers without decimals, others with one."""
    v = float(value)
    return num(v) if v == int(v) else num(v, 1)


def share(value):
    """A fraction as a percentage, with the decimals a small one needs."""
    p = float(value) * 100
    return f"{p:.2f}%" if p < 1 else f"{p:.1f}%"


def md(header, rows):
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def source(figures, bench, files, note=""):
    """The line under a table: which command and files it comes from, when and on what host."""
    r = figures.run(bench)
    load = f", load average {r['load_average']} at its start" if r.get("load_average") else ""
    names = ", ".join(f"`{f}`" for f in files)
    return (f"\n<sub>From {names} (`./tessera bench {bench}`, run by `./tessera figures` on "
            f"{r['date']} at `{r['commit']}`, {r['cores']} cores{load}).{note}</sub>\n")


def where(rows, **match):
    return [r for r in rows if all(r[k] == str(v) for k, v in match.items())]


def one(rows, what, **match):
    found = where(rows, **match)
    if len(found) != 1:
        raise NoData(f"{what}: {len(found)} rows match {match}")
    return found[0]


def ratio(a, b):
    return float(a) / float(b) if float(b) else float("nan")


def mesh(r):
    return f"{r['boards_x']}×{r['boards_y']}"


# -- mailbox -------------------------------------------------------------------------------------

MAILBOX = [
    ("latency_same_tile", "cycles", 0, "half the guest-measured round trip to a thread of the same "
     "tile (0 hops: the two threads' instructions)"),
    ("latency_same_board", "cycles", 0, "to the far tile of a 2×2-tile board: + 2 tile hops of 4 "
     "cycles"),
    ("latency_far_corner", "cycles", 0, "to the far corner of 3×3 boards: + 6 tile hops and 4 "
     "board hops of L = 150"),
    ("link_throughput", "flits per cycle", 3, "four threads streaming 4-flit messages over one "
     "board link (a link carries 1 flit per cycle)"),
    ("host_msgs_per_s", "messages per host second", 0, "all-to-all on 256 harts, 4,096 messages, "
     "verified, boot included"),
    ("mips_tessera", "guest MIPS", 0, "a compute loop of 300 M instructions on `-M tessera`"),
    ("mips_virt", "guest MIPS", 0, "the same loop on QEMU's stock `-M virt` of the same build"),
    ("mips_ratio_tessera_over_virt", "ratio", 2, "`-M tessera` over `-M virt`"),
]


@table("mailbox")
def mailbox(figures):
    rows = {r["metric"]: r["value"] for r in figures.rows("mailbox.csv")}
    out = []
    for metric, unit, digits, what in MAILBOX:
        if metric not in rows:
            raise NoData(f"mailbox.csv has no {metric}")
        out.append((f"`{metric}`", f"{num(rows[metric], digits)} {unit}", what))
    return md(["metric", "value", "what it is"], out) + source(figures, "mailbox", ["mailbox.csv"])


# -- termination detection -----------------------------------------------------------------------

IDLE_METHODS = ["hw-origin", "hw-centre", "sw-clocktree", "sw-safra"]


def idle_groups(rows):
    """(mesh, threads) in the order of the CSV."""
    seen = []
    for r in rows:
        key = (r["boards_x"], r["boards_y"], r["threads"])
        if key not in seen:
            seen.append(key)
    return seen


@table("idle.round-trips")
def idle_round_trips(figures):
    rows = figures.rows("idle.csv")
    out = []
    for x, y, threads in idle_groups(rows):
        got = {r["method"]: r for r in where(rows, boards_x=x, boards_y=y, threads=threads)}
        cells = [f"{x}×{y}", num(threads)]
        for m in IDLE_METHODS:
            r = got.get(m)
            if r and m.startswith("hw") and not r["estimate_per_s"]:
                # The master is on the only board: no link to cross, a round trip of 0 cycles.
                cells += ["(rtt 0)", "—"]
                continue
            cells.append(num(r["round_trips_per_s"]) if r else "—")
            if m.startswith("hw"):
                cells.append(num(r["estimate_per_s"]) if r and r["estimate_per_s"] else "—")
        out.append(cells)
    return md(["boards", "threads", "hw-origin", "estimate", "hw-centre", "estimate",
               "sw-clocktree", "sw-safra"], out) + source(
        figures, "idle", ["idle.csv"], " Round trips per modelled second at 240 MHz, L = 150: "
        "the hardware's are its three per synchronisation by protocol; the software's are waves "
        "or laps counted by the detector. Estimate: 1/(2·L·h), h the master's farthest hop count.")


@table("idle.syncs")
def idle_syncs(figures):
    rows = figures.rows("idle.csv")
    out = []
    for x, y, threads in idle_groups(rows):
        got = {r["method"]: float(r["syncs_per_s"])
               for r in where(rows, boards_x=x, boards_y=y, threads=threads)}
        hw = got["hw-origin"]
        out.append([f"{x}×{y}", num(threads)] + [num(got[m]) for m in IDLE_METHODS] +
                   [num(hw / got["sw-clocktree"], 2), num(hw / got["sw-safra"], 1)])
    return md(["boards", "threads", "hw-origin", "hw-centre", "sw-clocktree", "sw-safra",
               "hw ÷ clock tree", "hw ÷ Safra"], out) + source(
        figures, "idle", ["idle.csv"], " Synchronisations per modelled second at 240 MHz.")


@table("idle.cpi")
def idle_cpi(figures):
    rows = figures.rows("idle-cpi.csv")
    out = []
    for cpi in dict.fromkeys(r["cpi"] for r in rows):
        got = {r["method"]: float(r["syncs_per_s"]) for r in where(rows, cpi=cpi)}
        out.append([cpi, num(got["hw-origin"]), num(got["sw-clocktree"]), num(got["sw-safra"]),
                    num(got["hw-origin"] / got["sw-clocktree"], 2),
                    num(got["hw-origin"] / got["sw-safra"], 1)])
    r0 = rows[0]
    return md(["cpi", "hw-origin", "sw-clocktree", "sw-safra", "hw ÷ clock tree", "hw ÷ Safra"],
              out) + source(figures, "idle", ["idle-cpi.csv"],
                            f" Synchronisations per modelled second, {mesh(r0)} boards, "
                            f"{num(r0['threads'])} threads, at 240 MHz.")


@table("idle.loop")
def idle_loop(figures):
    published = {("3", "2"): "40,000", ("3", "4"): "26,000"}
    out = [[mesh(r), num(r["threads"]), num(r["syncs_per_s"]),
            published.get((r["boards_x"], r["boards_y"]), "—"),
            num(float(r["host_s_per_sync"]) * 1e3, 2)]
           for r in figures.rows("idle-loop.csv")]
    return md(["boards", "threads", "syncs per modelled second", "reference hardware",
               "host ms per sync"], out) + source(
        figures, "idle", ["idle-loop.csv"], " `idle_loop`: 300 back-to-back `tinselIdle(1)` "
        "on every hart; host time between two console lines of one run, boot excluded.")


# -- reflex switches and the open-collector bus --------------------------------------------------

def per_hart_table(figures, bench, operation, headline):
    cpi1 = where(figures.rows(f"{bench}.csv"), operation=operation)
    tpc = where(figures.rows(f"{bench}-cpi-tpc.csv"), operation=operation)
    out = []
    for harts in dict.fromkeys(r["harts"] for r in cpi1):
        def cyc(rows, arrival):
            return num(one(rows, bench, harts=harts, arrival=arrival)["cycles_per_op"], 1)
        host = one(cpi1, bench, harts=harts, arrival="simultaneous")["host_s_per_op"]
        out.append([num(harts), cyc(cpi1, "simultaneous"), cyc(cpi1, "jittered"),
                    cyc(tpc, "simultaneous"), cyc(tpc, "jittered"),
                    num(float(host) * 1e3, 3)])
    return md(["harts", f"{headline}, cpi 1", "jittered, cpi 1", "cpi = threads per core",
               "jittered, cpi = tpc", "host ms (cpi 1)"], out)


@table("reflex")
def reflex(figures):
    return per_hart_table(figures, "reflex", "reflex_barrier", "cycles per barrier") + source(
        figures, "reflex", ["reflex.csv", "reflex-cpi-tpc.csv"],
        " Modelled cycles per barrier at 240 MHz, 50 back to back over every hart; B 4, one "
        "cycle per hop; jittered: one hart works 200 iterations first. Threads per core: 4 (2 "
        "on the 2-hart machine). Host ms per barrier.")


@table("ocbus")
def ocbus(figures):
    cpi1 = figures.rows("ocbus.csv")
    out = []
    for harts in dict.fromkeys(r["harts"] for r in cpi1):
        def cyc(op, arrival="simultaneous"):
            return num(one(cpi1, "ocbus", operation=op, harts=harts, arrival=arrival)
                       ["cycles_per_op"], 1)
        host = one(cpi1, "ocbus", operation="acwt", harts=harts,
                   arrival="simultaneous")["host_s_per_op"]
        out.append([num(harts), cyc("acwt"), cyc("ocbus_barrier"), cyc("arbitration"),
                    cyc("acwt", "jittered"), num(float(host) * 1e3, 3)])
    tpc = figures.rows("ocbus-cpi-tpc.csv")
    at_tpc = sorted({num(r["cycles_per_op"], 1) for r in
                     where(tpc, operation="acwt", arrival="simultaneous")})
    return md(["harts", "ACWT", "barrier", "arbitration", "ACWT, jittered", "host ms per ACWT"],
              out) + source(figures, "ocbus", ["ocbus.csv", "ocbus-cpi-tpc.csv"],
                            f" Modelled cycles per operation at 240 MHz, cpi 1, 8 lines, settle "
                            f"10 cycles; ACWT at cpi = threads per core: {', '.join(at_tpc)}.")


# -- the barrier library -------------------------------------------------------------------------

BARRIER_HARDWARE = ["ocbus", "reflex", "controller", "idle"]


@table("barrier")
def barrier(figures):
    cpi1, cpi4 = figures.rows("barrier.csv"), figures.rows("barrier_cpi4.csv")
    largest = max(int(r["p"]) for r in cpi1)
    at1 = {r["algorithm"]: r for r in where(cpi1, p=largest, arrival="simultaneous")}
    at4 = {r["algorithm"]: r for r in where(cpi4, p=largest, arrival="simultaneous")}
    names = [n for n in at1 if n not in BARRIER_HARDWARE + ["auto", "delay-only"]]
    names.sort(key=lambda n: float(at1[n]["cycles_per_episode"]))
    out = []
    for n in names + [h for h in BARRIER_HARDWARE if h in at1]:
        r, predicted = at1[n], float(at1[n]["predicted_cycles"])
        out.append([f"`{n}`" + (" (hardware)" if n in BARRIER_HARDWARE else ""),
                    num(r["cycles_per_episode"]), num(at4[n]["cycles_per_episode"]),
                    count(r["messages_per_episode"]),
                    num(predicted) if predicted else "—",
                    num(float(r["cycles_per_episode"]) / predicted, 2) if predicted else "—"])
    return md(["barrier", "cycles, cpi 1", "cycles, cpi 4", "messages", "model",
               "measured ÷ model"], out) + source(
        figures, "barrier", ["barrier.csv", "barrier_cpi4.csv"],
        f" Modelled cycles per episode at 240 MHz, all {largest} harts of 2×2 boards, "
        "simultaneous arrival, fastest software barrier first; messages per episode at cpi 1.")


# -- parallel SHAKE ------------------------------------------------------------------------------

SHAKE_METHODS = [("ring2", "one message twice around"), ("ringp", "P messages once around"),
                 ("ocbus", "open-collector bus")]


@table("shake")
def shake(figures):
    cpi1, tpc = figures.rows("shake.csv"), figures.rows("shake-cpi-tpc.csv")
    rings = list(dict.fromkeys(r["ring"] for r in cpi1))
    out = []
    for method, label in SHAKE_METHODS:
        for name, rows in (("1", cpi1), ("threads per core", tpc)):
            cells = [f"`{method}` ({label})", name]
            for ring in rings:
                r = one(rows, "shake", ring=ring, method=method)
                cells.append(share(r["check_share"]))
            out.append(cells)
    iterations = sorted({r["iterations"] for r in cpi1})
    return md(["ACWT", "cpi"] + [f"ring of {num(r)}" for r in rings], out) + source(
        figures, "shake", ["shake.csv", "shake-cpi-tpc.csv"],
        " The convergence check's share of each SHAKE iteration on the critical path (modelled "
        f"cycles); iterations per run: {', '.join(iterations)}. Every run equals the host "
        "reference bit for bit (a run that differs gives no row and fails the bench).")


# -- the vertex apps -----------------------------------------------------------------------------

def means(rows, *keys):
    groups = defaultdict(list)
    for r in rows:
        groups[tuple(r[k] for k in keys)].append(r)
    return {k: {c: sum(float(r[c]) for r in v) / len(v) for c in
                ("vertices", "edges", "time_steps", "messages", "cycles", "host_s")}
            for k, v in groups.items()}, {k: len(v) for k, v in groups.items()}


@table("apps")
def apps(figures):
    cpi1, runs = means(figures.rows("apps.csv"), "app", "version")
    cpi4, _ = means(figures.rows("apps_cpi4.csv"), "app", "version")
    out = []
    for (app, version), m in cpi1.items():
        out.append([app, version, num(m["vertices"]), num(m["edges"]), count(m["time_steps"]),
                    num(m["messages"]), num(m["cycles"]), num(cpi4[(app, version)]["cycles"]),
                    num(m["host_s"], 2)])
    seeds = sorted(set(runs.values()))
    return md(["app", "version", "vertices", "edges", "time steps", "messages", "cycles, cpi 1",
               "cycles, cpi 4", "host s"], out) + source(
        figures, "apps", ["apps.csv", "apps_cpi4.csv"],
        f" Means over {', '.join(map(str, seeds))} seeds of geometric random graphs on 3×1 "
        "boards of 96 threads; modelled cycles at 240 MHz; every run equals its host reference.")


@table("apps.termination")
def apps_termination(figures):
    rows = figures.rows("apps_termination.csv")
    out = []
    for vpt in dict.fromkeys(r["vertices_per_thread"] for r in rows):
        hw = one(rows, "apps.termination", vertices_per_thread=vpt, detector="hw")
        sw = one(rows, "apps.termination", vertices_per_thread=vpt, detector="clocktree")
        out.append([num(vpt), num(hw["vertices"]), num(hw["time_steps"]), num(hw["cycles"]),
                    num(sw["cycles"]), num(ratio(sw["cycles"], hw["cycles"]), 2)])
    return md(["vertices per thread", "vertices", "time steps", "cycles, hardware",
               "cycles, clock tree", "speedup"], out) + source(
        figures, "apps", ["apps_termination.csv"],
        f" `{rows[0]['app']}`, hardware against software termination detection, cpi 1, modelled "
        "cycles at 240 MHz.")


# -- host cost: memory and scale -----------------------------------------------------------------

@table("memory")
def memory(figures):
    rows = figures.rows("memory.csv")
    out = [[num(r["harts"]), num(int(r["peak_rss_kib"]) / 1024, 1), num(r["boot_s"], 2)]
           for r in rows]
    a, b = rows[0], rows[-1]
    per_hart = (int(b["peak_rss_kib"]) - int(a["peak_rss_kib"])) / (int(b["harts"]) -
                                                                     int(a["harts"]))
    text = md(["harts", "peak RSS, MiB", "host s"], out)
    text += f"\nResident memory per hart: **{num(per_hart, 1)} KiB** (the difference of the two.)\n"
    try:
        parts = figures.rows("memory-breakdown.csv")
        total = sum(float(p["kib_per_hart"]) for p in parts)
        text += "\n" + md(["part of QEMU", "heap KiB per hart"],
                          [[p["part"], num(p["kib_per_hart"], 1)] for p in parts] +
                          [["**in all**", f"**{num(total, 1)}**"]])
        files = ["memory.csv", "memory-breakdown.csv"]
    except NoData:
        files = ["memory.csv"]
    return text + source(figures, "memory", files, " Peak RSS of `hello`; the breakdown is heap "
                         "allocated per hart (heaptrack), not necessarily resident.")


@table("scale")
def scale(figures):
    rows = figures.rows("scale.csv")
    out = [[num(r["harts"]), f"{r['boards_x']}×{r['boards_y']}", num(r["boot_s"], 2),
            num(float(r["s_per_hart"]) * 1e6), num(int(r["peak_rss_kib"]) / 1024, 1),
            num(r["kib_per_hart"], 1) if r["kib_per_hart"] else "—",
            num(float(r["host_s_per_sync"]) * 1e3, 2)] for r in rows]
    return md(["harts", "boards", "boot s", "µs per hart", "peak RSS, MiB", "KiB per added hart",
               "host ms per `tinselIdle`"], out) + source(
        figures, "scale", ["scale.csv"], " Boot: `hello` to its last check-in; host ms per "
        "synchronisation: `idle_loop`, boot excluded. Boards of 1,024 threads from 1,024 harts.")


@table("heat_large")
def heat_large(figures):
    rows = figures.rows("heat_large.csv")
    return md(["QEMU processes", "vertices", "edges", "time steps", "boards", "harts",
               "emulator host s", "whole run host s", "largest QEMU peak RSS, MiB",
               "host program peak RSS, MiB", "messages", "modelled cycles"],
              [[r["ranks"], num(r["vertices"]), num(r["edges"]), r["steps"], r["boards"],
                num(r["harts"]), num(r["host_s"], 1), num(r["total_s"], 1),
                num(r["qemu_peak_mib"]), num(r["host_peak_mib"]), num(r["messages"]),
                num(r["cycles"])] for r in rows]) + source(
        figures, "heat_large", ["heat_large.csv"], " Synchronous heat, every temperature equal "
        "to the host's reference in every row; emulator: boot to exit; whole run: with the "
        "graph's generation, METIS placement and check. One process runs without time windows, "
        "more than one with them (docs/ranks.md), so their modelled cycles may differ.")


def barrier_best_software(rows, p, arrival):
    software = [r for r in where(rows, p=p, arrival=arrival)
                if r["algorithm"] not in BARRIER_HARDWARE + ["auto", "delay-only"]]
    return min(software, key=lambda r: float(r["cycles_per_episode"]))


@table("barrier.hardware")
def barrier_hardware(figures):
    runs = {"1": figures.rows("barrier.csv"), "4": figures.rows("barrier_cpi4.csv")}
    largest = max(int(r["p"]) for r in runs["1"])
    best = {c: barrier_best_software(rows, largest, "simultaneous") for c, rows in runs.items()}
    out = []
    for name in BARRIER_HARDWARE:
        cells = [f"`{name}`"]
        for c, rows in runs.items():
            hw = one(rows, "barrier.hardware", algorithm=name, p=largest, arrival="simultaneous")
            cells.append(f"{num(ratio(best[c]['cycles_per_episode'], hw['cycles_per_episode']), 1)}×")
        out.append(cells)
    return md(["barrier", f"cpi 1 (over `{best['1']['algorithm']}`)",
               f"cpi 4 (over `{best['4']['algorithm']}`)"], out) + source(
        figures, "barrier", ["barrier.csv", "barrier_cpi4.csv"],
        f" P = {largest}, simultaneous arrival, modelled cycles.")


@table("barrier.auto")
def barrier_auto(figures):
    out = []
    for cpi, name in (("1", "barrier.csv"), ("4", "barrier_cpi4.csv")):
        rows = figures.rows(name)
        picks = hits = 0
        for arrival in ("simultaneous", "jittered"):
            for p in sorted({int(r["p"]) for r in rows}):
                auto = where(rows, algorithm="auto", p=p, arrival=arrival)
                if p == 1 or not auto:
                    continue
                best = float(barrier_best_software(rows, p, arrival)["cycles_per_episode"])
                chosen = where(rows, algorithm=auto[0]["chosen"], p=p, arrival=arrival)
                picks += 1
                # The measured best within 2%: algorithms that send the same messages tie.
                hits += bool(chosen) and float(chosen[0]["cycles_per_episode"]) <= best * 1.02
        out.append([cpi, f"{hits} of {picks}"])
    return md(["cpi", "`auto` picked the measured best (within 2%)"], out) + source(
        figures, "barrier", ["barrier.csv", "barrier_cpi4.csv"],
        " Every P > 1, both arrivals.")


@table("shake.cycles")
def shake_cycles(figures):
    rows = figures.rows("shake.csv")
    out = []
    for ring in dict.fromkeys(r["ring"] for r in rows):
        cells = [num(ring)]
        for method, _ in SHAKE_METHODS:
            r = one(rows, "shake.cycles", ring=ring, method=method)
            cells.append(f"{num(r['compute_cycles'])} + {num(r['check_cycles'])}")
        out.append(cells)
    return md(["P"] + [f"`{m}`" for m, _ in SHAKE_METHODS], out) + source(
        figures, "shake", ["shake.csv"], " Modelled cycles per SHAKE iteration at 240 MHz, cpi 1.")


@table("shake.crossing")
def shake_crossing(figures):
    rows = figures.rows("shake.csv")
    out = []
    for method, label in SHAKE_METHODS:
        pts = [(int(r["ring"]), float(r["check_share"])) for r in where(rows, method=method)]
        at = crossing(pts, 0.40)
        share64 = [s for p, s in pts if p == 64]
        out.append([f"`{method}` ({label})",
                    f"about {at:.0f} threads" if at else f"not within P ≤ {max(pts)[0]}",
                    share(share64[0]) if share64 else "—"])
    return md(["ACWT", "share reaches 40% at", "share at 64 threads"], out) + source(
        figures, "shake", ["shake.csv"], " The bench's chain (tests/bench/shake.sh), cpi 1; the "
        "crossing is interpolated on log2 P between the measured rings.")


APPS_PUBLISHED = {"pagerank": "equal messages", "heat": "equal messages",
                  "mssp": "about 2× the messages", "snn": "hundreds of times the messages",
                  "sssp": "async finishes sooner"}


@table("apps.shape")
def apps_shape(figures):
    cpi1, _ = means(figures.rows("apps.csv"), "app", "version")
    cpi4, _ = means(figures.rows("apps_cpi4.csv"), "app", "version")
    out = []
    for app in dict.fromkeys(a for a, _ in cpi1):
        def r(m, key):
            return ratio(m[(app, "async")][key], m[(app, "sync")][key])
        out.append([app, APPS_PUBLISHED.get(app, "—"), f"×{num(r(cpi1, 'messages'), 2)}",
                    f"×{num(r(cpi1, 'cycles'), 2)}", f"×{num(r(cpi4, 'cycles'), 2)}"])
    return md(["app", "published (async against sync)", "messages", "cycles, cpi 1",
               "cycles, cpi 4"], out) + source(
        figures, "apps", ["apps.csv", "apps_cpi4.csv"], " Async over sync, means over the seeds.")


# -- the model check -----------------------------------------------------------------------------

@table("model-check")
def model_check(figures):
    out = [[f"`{r['case']}`", f"{r['boards']} × {r['threads_per_board']}", r["messages"],
            num(r["states"]), num(r["transitions"]), r["depth"], f"{num(r['host_s'], 1)} s",
            f"{num(r['memory_mb'])} MB", "errors: 0, complete"]
           for r in figures.rows("model-check.csv")]
    return md(["case", "boards × threads per board", "messages", "states stored", "transitions",
               "depth", "time", "memory", "result"], out) + source(
        figures, "model", ["model-check.csv"], " Everything but the time and memory is "
        "deterministic.")


# -- debugging -----------------------------------------------------------------------------------

DEBUG_OPERATIONS = [
    ("attach", "`./tessera debug` to the gdb prompt"),
    ("info_threads", "`info threads`"),
    ("thread_id_first", "`thread-id`, first use (one name query per hart, then cached)"),
    ("thread_id_again", "`thread-id` again"),
    ("tbreak_thread_continue", "`tbreak-thread <last hart> main`, then `continue`"),
    ("blocked", "`blocked`, there"),
]


@table("debug")
def debug(figures):
    rows = figures.rows("debug.csv")
    shapes = list(dict.fromkeys(r["harts"] for r in rows))
    out = []
    for op, label in DEBUG_OPERATIONS:
        cells = [label]
        for harts in shapes:
            found = where(rows, harts=harts, operation=op)
            cells.append(f"{num(found[0]['host_s'], 3)} s" if found else "not measured")
        out.append(cells)
    return md(["what"] + [f"{num(h)} harts" for h in shapes], out) + source(
        figures, "debug", ["debug.csv"], " Host seconds with `apps/debug_probe`, everything "
        "built; the breakpoint is not timed on the largest shape (about 20 ms per hart).")


# -- the runs behind the figures -----------------------------------------------------------------

@table("figures.runs")
def figures_runs(figures):
    rows = figures.rows("runs.csv")
    out = [[f"`{r['bench']}`", r["date"], f"`{r['commit']}`", f"{num(r['host_s'])} s",
            r["load_average"], r["cores"]] for r in rows]
    total = sum(float(r["host_s"]) for r in rows)
    return md(["bench", "date", "commit", "host time", "load average at its start", "cores"],
              out) + f"\nIn all {num(total / 60, 1)} minutes of host time.\n"


# -- ranks ---------------------------------------------------------------------------------------

@table("ranks")
def ranks(figures):
    from ranks_report import projection  # the same figures as the bench's summary

    rows = figures.rows("ranks.csv")
    modes = {"off": "one process, windows off", "on": "shared memory", "tcp": "TCP"}
    body = md(["app", "ranks", "how", "host s", "speed-up over one process with windows",
               "windows", "host µs per window", "modelled cycles", "peak MiB a rank"],
              [[r["app"], r["ranks"],
                "one process, windows on" if r["ranks"] == "1" and r["mode"] == "on"
                else modes[r["mode"]], num(r["host_s"], 2), f"{float(r['speedup']):.2f}x",
                num(r["windows"]), r["host_us_per_window"] or "—", num(r["modelled_cycles"]),
                num(r["peak_rss_mib"])]
               for r in rows])
    return body + "\n" + "\n".join(f"    {line}" for line in projection(rows)) + "\n" + source(
        figures, "ranks", ["ranks.csv"], " GALS heat: 20,000 vertices, 20 steps, through "
        "HostLink; idle: the `tinselIdle` loop; 3x2 boards, 6,144 threads; host s: the median of "
        "three. Every ranked run's modelled figures equal one process's with windows. Peak MiB a rank: "
        "the largest peak resident memory of the run's processes (QEMU's own; heat's host program "
        "apart).")
