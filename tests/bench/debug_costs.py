"""gdb batch script of ./tessera bench debug: the host time of what a user does first under
./tessera debug on a large machine. Attached to apps/debug_probe stopped at its first
instruction, with boards/tessera/gdb/tessera.py loaded. Environment: COST_START (the host time,
time.time(), at which debug.sh was started), COST_LAST (the last hart's thread id), COST_BREAK
(1: also time a thread-specific breakpoint at a place every hart passes), COST_REPORT (a file
for the lines `<operation> <seconds>`).
"""

import os
import time

import gdb

report = open(os.environ["COST_REPORT"], "w", encoding="utf-8")
last = os.environ["COST_LAST"]


def record(operation, seconds):
    report.write(f"{operation} {seconds:.4f}\n")
    report.flush()


def timed(operation, command):
    start = time.time()
    gdb.execute(command, to_string=True)
    record(operation, time.time() - start)


record("attach", time.time() - float(os.environ["COST_START"]))
timed("info_threads", "info threads")
timed("thread_id_first", f"thread-id {last}")
timed("thread_id_again", f"thread-id {last}")
if os.environ.get("COST_BREAK") == "1":
    # gdb's remote protocol has no per-thread breakpoints: every hart that reaches main stops
    # the machine, and gdb steps it over and goes on, until the last hart's turn.
    gdb.execute(f"tbreak-thread {last} main", to_string=True)
    timed("tbreak_thread_continue", "continue")
    timed("blocked", "blocked")
report.write("done\n")
report.close()
