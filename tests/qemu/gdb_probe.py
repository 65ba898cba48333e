"""gdb batch script of the gdb test (tests/qemu/gdb_check.sh) on apps/debug_probe.

Attached to the machine stopped at its first instruction, with boards/tessera/gdb/tessera.py
loaded. Environment: PROBE_ID (the thread to stop), PROBE_HARTS (harts in the shape),
PROBE_CPI (the machine's cpi), PROBE_REPORT (a file for the figures the shell checks).
Fails (a gdb error ends the batch run with status 1) at the first check that does not hold.
"""

import os
import re

import gdb

probe = int(os.environ["PROBE_ID"], 0)
harts = int(os.environ["PROBE_HARTS"])
cpi = int(os.environ["PROBE_CPI"])
report = open(os.environ["PROBE_REPORT"], "w", encoding="utf-8")


def check(ok, what):
    if not ok:
        raise gdb.GdbError("FAILED: " + what)
    print("ok: " + what)


def thread_id(thread):
    return int(thread.details.split()[0], 16)


def register(name):
    return int(gdb.parse_and_eval("$" + name)) & 0xFFFFFFFF


# Thread names: every hart, by thread id and coordinates.
name = re.compile(r"^0x[0-9a-f]+ board \(\d+,\d+\) tile \(\d+,\d+\) core \d+ thread \d+ "
                  r"\[(halted |running)\]$")
threads = gdb.selected_inferior().threads()
names = [t.details for t in threads]
check(len(threads) == harts, "%d threads for %d harts" % (len(threads), harts))
check(all(name.match(n) for n in names), "every thread is named by id and coordinates: %s"
      % [n for n in names if not name.match(n)][:3])
check(len({thread_id(t) for t in threads}) == harts, "thread ids are distinct")
info = gdb.execute("info threads", to_string=True)
for line in os.environ.get("PROBE_NAMES", "").split(";"):
    if line:
        check("(" + line + " [" in info, "info threads shows '%s'" % line)

# A breakpoint on one thread, by its Tinsel id, on the csrr of tinselCycleCount().
gdb.execute("tbreak-thread %#x *read_cycle" % probe)
gdb.execute("continue")
stopped = gdb.selected_thread()
check(thread_id(stopped) == probe, "stopped in thread %#x" % thread_id(stopped))
insn = int.from_bytes(gdb.selected_inferior().read_memory(gdb.selected_frame().pc(), 4).tobytes(),
                      "little")
check(insn & 0xFFFFF07F == 0xC0002073, "at the csrr of cycle (0x%08x)" % insn)
before = register("cycle")

# The other harts, as they are now.
others = {}
for t in threads:
    if t.ptid != stopped.ptid:
        t.switch()
        others[thread_id(t)] = (int(gdb.selected_frame().pc()), register("cycle"),
                                "[halted" in t.details)
stopped.switch()
# Whether another hart is runnable at this stop depends on where gdb's stop caught the ring:
# when none is, the hold-back checks below hold trivially, and the run says so.
runnable = sum(not halted for _, _, halted in others.values())
print("ok: %d other harts could run if let (the steps below must hold them back)" % runnable
      if runnable else "note: every other hart is halted at this stop")
blocked = gdb.execute("blocked", to_string=True)
print(blocked, end="")
check(re.search(r"^  0x0\b.* waits: wait-until can-recv, in .*take_token", blocked, re.M),
      "blocked shows thread 0x0 waiting in wait-until can-recv")

# Step the csrr: the guest's tinselCycleCount() is in its destination register, and the
# debugger's modelled cycle register says the same, exactly.
gdb.execute("stepi")
rd = (insn >> 7) & 31
returned = int(gdb.selected_frame().read_register(
    "zero ra sp gp tp t0 t1 t2 s0 s1 a0 a1 a2 a3 a4 a5".split()[rd])) & 0xFFFFFFFF
after = register("cycle")
check(after == returned, "$cycle %d == what tinselCycleCount() returned (%d)" % (after, returned))
check(after == before + cpi, "one instruction is %d cycles: %d -> %d" % (cpi, before, after))
check(int(gdb.parse_and_eval("$cycles()")) == after + (register("cycleh") << 32),
      "$cycles() is $cycleh:$cycle")
report.write("gdb cycle %d\n" % after)

# A few more steps of this hart alone: nobody else moves.
for _ in range(4):
    gdb.execute("stepi")
check(register("cycle") == after + 4 * cpi, "four more steps, 4 x %d more cycles" % cpi)
moved = []
for t in threads:
    if t.ptid != stopped.ptid:
        t.switch()
        if (int(gdb.selected_frame().pc()), register("cycle")) != others[thread_id(t)][:2]:
            moved.append("%#x" % thread_id(t))
check(not moved, "the other %d harts stayed where they were (moved: %s)" % (len(others), moved))

# Reading the mailbox CSRs changes nothing: thread 0 still waits.
gdb.execute("thread-id 0")
for _ in range(2):
    check(register("wait_until") == 2 and register("can_recv") == 0 and register("recv") == 0,
          "thread 0x0 reads $wait_until = can-recv, $can_recv = 0, $recv = 0")
check("[halted" in gdb.selected_thread().details, "thread 0x0 still waits")
# Let go, the run ends; QEMU closes the connection as soon as it has sent gdb the exit status,
# so gdb reports a broken connection (docs/debugging.md). The shell checks the verdict.
stopped.switch()
try:
    gdb.execute("continue")
except gdb.error as e:
    print("continue: %s" % e)
report.write("passed\n")
report.close()
