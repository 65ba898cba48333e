"""Tessera's gdb set-up: the gdbinit that ./tessera debug loads (docs/debugging.md).

Load it into any gdb-multiarch attached to -M tessera with
    source boards/tessera/gdb/tessera.py

Every hart is a gdb thread, named by its Tinsel thread id and coordinates
("0x1f board (0,0) tile (1,0) core 3 thread 3", qemu/patches/0008). This file
sets what works well with many harts and adds:

    thread-id ID               select the hart whose thread id is ID
    break-thread ID LOCATION   a breakpoint that stops only that hart
    tbreak-thread ID LOCATION  the same, deleted after its first stop
    blocked                    the halted harts, grouped by what they wait on
    $cycles()                  the selected hart's modelled cycle count, 64 bits

The Tessera CSRs are registers named after their macros in
hal/include/tessera/hw/regs.h, in lower case: $cycle and $cycleh (the
hart's modelled count), $can_send, $can_recv, $recv, $wait_until,
$mbox_fault, ... Reading them changes nothing (tessera_mailbox_peek_csr).
"""

import os
import re

import gdb

_REPO = os.path.realpath(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..",
                                      ".."))
_REGS_H = os.path.join(_REPO, "hal", "include", "tessera", "hw", "regs.h")


def _read_regs_h():
    """CSR numbers and wait-until bits from the machine description, the one source of truth."""
    with open(_REGS_H, encoding="utf-8") as f:
        text = f.read()
    csrs = {int(number, 16): name.lower().replace("_", "-")
            for name, number in re.findall(r"#define TESSERA_CSR_(\w+)\s+(0x[0-9a-fA-F]+)", text)}
    waits = {1 << int(bit): name.lower().replace("_", "-")
             for name, bit in re.findall(r"#define TESSERA_WAIT_(\w+)\s+\(1u << (\d+)\)", text)}
    return csrs, waits


_CSR_NAMES, _WAIT_BITS = _read_regs_h()
_WAIT_UNTIL = next(n for n, name in _CSR_NAMES.items() if name == "wait-until")
_WFI = 0x10500073
_ABI_NAMES = ("zero ra sp gp tp t0 t1 t2 s0 s1 a0 a1 a2 a3 a4 a5 a6 a7 "
              "s2 s3 s4 s5 s6 s7 s8 s9 s10 s11 t3 t4 t5 t6").split()
_NAME = re.compile(r"0x([0-9a-f]+) ")

# Settings for many harts: connecting does not print a line per hart, and
# waits for a machine of thousands of harts, which takes seconds to set up
# before its gdbstub answers (gdb's default gives up after 2 s); stepping
# moves only the selected hart (continue still runs them all). gdb takes
# scheduler-locking only from a connected target: until then, it is set as
# the first thread appears.
gdb.execute("set print thread-events off")
gdb.execute("set remotetimeout 60")


def _lock_scheduler_for_steps(event=None):
    try:
        gdb.execute("set scheduler-locking step")
    except gdb.error:
        return
    if event is not None:
        gdb.events.new_thread.disconnect(_lock_scheduler_for_steps)


try:
    gdb.execute("set scheduler-locking step")
except gdb.error:
    gdb.events.new_thread.connect(_lock_scheduler_for_steps)


def _thread_id(thread):
    """The Tinsel thread id in a thread's name, or None (not a Tessera hart)."""
    match = _NAME.match(thread.details or "")
    return int(match.group(1), 16) if match else None


class _Harts:
    """Thread id -> gdb thread of the current connection. Names never change while connected,
    so the map is built once (one packet per hart) and checked on every use."""

    def __init__(self):
        self._key = None
        self._by_id = {}

    def all(self):
        """(thread id, gdb thread) of every hart, in gdb's order."""
        inferior = gdb.selected_inferior()
        threads = inferior.threads()
        key = (inferior.num, inferior.pid, len(threads))
        if key != self._key:
            self._by_id = {}
            for thread in threads:
                tid = _thread_id(thread)
                if tid is not None:
                    self._by_id[tid] = thread
            self._key = key
        return sorted(self._by_id.items(), key=lambda item: item[1].num)

    def find(self, tid):
        self.all()
        thread = self._by_id.get(tid)
        if thread is not None and thread.is_valid() and _thread_id(thread) == tid:
            return thread
        self._key = None  # another machine since: look again
        self.all()
        thread = self._by_id.get(tid)
        if thread is None:
            raise gdb.GdbError("no hart with thread id 0x%x (info threads lists them)" % tid)
        return thread


_harts = _Harts()


def _parse_id(text):
    try:
        return int(gdb.parse_and_eval(text))
    except gdb.error as e:
        raise gdb.GdbError("not a thread id: %s (%s)" % (text, e)) from None


class ThreadId(gdb.Command):
    """Select the hart with the given Tinsel thread id.
Usage: thread-id ID    (e.g. thread-id 0x1f)"""

    def __init__(self):
        super().__init__("thread-id", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        if not arg.strip():
            raise gdb.GdbError("usage: thread-id ID")
        thread = _harts.find(_parse_id(arg))
        gdb.execute("thread %d.%d" % (thread.inferior.num, thread.num), from_tty)


class BreakThread(gdb.Command):
    """Set a breakpoint that stops only the hart with the given Tinsel thread id.
Usage: break-thread ID LOCATION    (e.g. break-thread 0x1f handle_message)
Other harts pass the location without stopping."""

    def __init__(self, name, gdb_command):
        super().__init__(name, gdb.COMMAND_BREAKPOINTS)
        self._name = name
        self._gdb_command = gdb_command

    def invoke(self, arg, from_tty):
        words = arg.split(None, 1)
        if len(words) != 2:
            raise gdb.GdbError("usage: %s ID LOCATION" % self._name)
        thread = _harts.find(_parse_id(words[0]))
        gdb.execute("%s %s thread %d.%d" % (self._gdb_command, words[1], thread.inferior.num,
                                             thread.num), from_tty)


def _wait_conditions(value):
    names = [name for bit, name in sorted(_WAIT_BITS.items()) if value & bit]
    unknown = value & ~sum(_WAIT_BITS)
    if unknown:
        names.append("0x%x" % unknown)
    return "|".join(names) or "nothing"


def _operation(frame):
    """What a halted hart waits in: the instruction at its pc, which it issues again when woken
    (a blocking CSR, or wfi)."""
    pc = frame.pc()
    try:
        insn = int.from_bytes(gdb.selected_inferior().read_memory(pc, 4).tobytes(), "little")
    except gdb.MemoryError:
        # QEMU parks a hart that faults at its own trap vector (docs/machine.md)
        return "halted at 0x%x, where no memory is (parked at its trap vector?)" % pc
    if insn == _WFI:
        return "wfi"
    funct3 = (insn >> 12) & 7
    if insn & 0x7F == 0x73 and funct3 not in (0, 4):
        csr = insn >> 20
        rs1 = (insn >> 15) & 31
        name = _CSR_NAMES.get(csr, "csr 0x%03x" % csr)
        value = rs1 if funct3 >= 5 else int(frame.read_register(_ABI_NAMES[rs1])) & 0xFFFFFFFF
        if csr == _WAIT_UNTIL:
            return "%s %s" % (name, _wait_conditions(value))
        return "%s 0x%x" % (name, value)
    return "halted at 0x%x, not in a blocking instruction" % pc


_LIBRARY = tuple(os.path.join(_REPO, folder) + os.sep for folder in ("hal", "drivers", "firmware"))


def _place(frame):
    """The first function up the stack outside the HAL, drivers and runtime, with its line; if
    there is none (e.g. main has returned), the first that is not inlined."""
    at_pc = "0x%x" % frame.pc()
    first_call = None
    for _ in range(8):
        if frame is None or not frame.is_valid():
            break
        sal = frame.find_sal()
        name = frame.name() or "0x%x" % frame.pc()
        where = "%s (%s:%d)" % (name, os.path.basename(sal.symtab.filename), sal.line) \
            if sal.symtab else name
        if sal.symtab and not os.path.realpath(sal.symtab.fullname()).startswith(_LIBRARY):
            return where
        if first_call is None and frame.type() != gdb.INLINE_FRAME:
            first_call = where
        try:
            frame = frame.older()
        except gdb.error:  # no unwinding further (e.g. pc where no code is)
            break
    return first_call or at_pc


def _ranges(ids):
    ids = sorted(ids)
    out = []
    start = prev = ids[0]
    for tid in ids[1:] + [None]:
        if tid is not None and tid == prev + 1:
            prev = tid
            continue
        out.append("0x%x" % start if start == prev else "0x%x-0x%x" % (start, prev))
        if tid is not None:
            start = prev = tid
    return ", ".join(out)


class Blocked(gdb.Command):
    """List the halted harts and what they wait on, grouped by operation and place.
Usage: blocked
A hart blocked in a mailbox CSR is halted on its csrrw, which it issues again
when woken: the line names the CSR and its operand (for wait-until, the
conditions). wfi is a hart asleep until an interrupt (e.g. after main returned,
or waiting for the boot release)."""

    def __init__(self):
        super().__init__("blocked", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        harts = _harts.all()
        if not harts:
            raise gdb.GdbError("no Tessera harts: is gdb attached to -M tessera?")
        selected = gdb.selected_thread()
        groups = {}
        try:
            for tid, thread in harts:
                if "[halted" not in (thread.details or ""):
                    continue
                thread.switch()
                frame = gdb.newest_frame()
                groups.setdefault((_operation(frame), _place(frame)), []).append(tid)
        finally:
            if selected is not None and selected.is_valid():
                selected.switch()
        halted = sum(len(ids) for ids in groups.values())
        print("%d of %d harts halted" % (halted, len(harts)) + (":" if halted else ""))
        for (operation, place), ids in sorted(groups.items(), key=lambda g: min(g[1])):
            count = " (%d harts)" % len(ids) if len(ids) > 1 else ""
            print("  %s%s waits: %s, in %s" % (_ranges(ids), count, operation, place))


class Cycles(gdb.Function):
    """$cycles() - the selected hart's modelled cycle count, all 64 bits ($cycleh:$cycle)."""

    def __init__(self):
        super().__init__("cycles")

    def invoke(self):
        frame = gdb.selected_frame()
        high = int(frame.read_register("cycleh")) & 0xFFFFFFFF
        low = int(frame.read_register("cycle")) & 0xFFFFFFFF
        return gdb.Value((high << 32) | low).cast(gdb.lookup_type("unsigned long long"))


ThreadId()
BreakThread("break-thread", "break")
BreakThread("tbreak-thread", "tbreak")
Blocked()
Cycles()


def _kill_on_exit(event):
    """gdb detaches from a remote target when it exits, which would let the run go on until
    ./tessera debug kills QEMU: stop it where it is instead (quit has already asked)."""
    if gdb.selected_inferior().pid != 0:
        gdb.execute("set confirm off")
        try:
            gdb.execute("kill")
        except gdb.error:
            pass  # QEMU exits at once, so gdb may see the connection close under it


gdb.events.gdb_exiting.connect(_kill_on_exit)
