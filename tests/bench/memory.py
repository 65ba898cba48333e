#!/usr/bin/env python3
"""Host memory per hart of -M tessera (./tessera bench memory).

Boots hello on two shapes, takes each run's peak RSS (the kernel's maxrss of
the QEMU process) and reports the memory per hart as the difference between
the two shapes over the difference in harts, so that what every run has
whatever its size (the binary, glib, the code buffer) drops out.

With heaptrack installed it also says where the bytes go: the same two runs
under heaptrack, every allocation attributed by its call stack to a part of
QEMU (soft TLB, jump cache, ...), and each part's bytes per hart, again as a
difference between the shapes. That is heap allocated, not resident: memory
that is allocated but never written (most of the soft TLB's full entries)
counts there and not in the RSS.

Usage: memory.py QEMU_CMD_SH QEMU ELF OUT_DIR SHAPE_A SHAPE_B
  each SHAPE is HARTS:key=value,key=value (machine properties)
Writes OUT_DIR/memory.csv (harts,peak_rss_kib,boot_s) and, with heaptrack,
OUT_DIR/memory-breakdown.csv (part,kib_per_hart).
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

# Parts of QEMU, each named by the functions whose call stacks allocate it.
# The first part any frame of a stack matches, leaf first, takes the bytes.
PARTS = [
    ("soft TLB (tables of every MMU mode)",
     {"tlb_mmu_init", "tlb_mmu_resize_locked", "tlb_mmu_alloc_locked", "tlb_set_page_full", "tlb_init"}),
    ("TB jump cache", {"tcg_exec_realizefn"}),
    ("gdbstub CSR description",
     {"riscv_gen_dynamic_csr_feature", "gdb_feature_builder_append_reg",
      "gdb_feature_builder_end", "gdb_register_coprocessor"}),
    ("IRQ lines (GPIO inputs)",
     {"qdev_init_gpio_in_named_with_opaque", "qemu_extend_irqs"}),
    ("per-instance extension properties",
     {"riscv_tcg_cpu_instance_init", "riscv_cpu_add_user_properties",
      "cpu_add_multi_ext_prop", "riscv_cpu_add_misa_properties",
      "riscv_cpu_add_profiles"}),
    ("migration state registration", {"vmstate_register_with_alias_id"}),
    ("vCPU address space", {"cpu_address_space_init"}),
]
CPU_OBJECTS = "CPU objects (one RISCVCPU per hart)"
OTHER = "other"


def run_rss(cmd):
    """Runs cmd; returns (exit status, peak RSS in KiB, wall seconds)."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    err = proc.stderr.read()
    proc.stderr.close()
    proc.returncode = os.waitstatus_to_exitcode(status)
    for line in err.splitlines():
        if "icount sleep disabled" not in line:
            print(line, file=sys.stderr)
    return proc.returncode, usage.ru_maxrss, wall


def frame_name(frame):
    return frame.split(" (")[0].strip()


def part_of(frames):
    names = [frame_name(f) for f in frames]
    for name in reversed(names):
        for part, functions in PARTS:
            if name in functions:
                return part
    # The array of harts itself: allocated by the machine, nothing between but the allocator
    # (qemu_memalign: the harts sit on transparent huge pages).
    qemu = [n for n in names
            if not n.startswith(("g_", "0x")) and n not in ("qemu_memalign", "qemu_try_memalign")]
    if qemu and qemu[-1] in ("tessera_create_harts", "tessera_machine_init") \
            and "tessera_create_harts" in qemu:
        return CPU_OBJECTS
    return OTHER


def heap_by_part(cmd, work):
    """Runs cmd under heaptrack; returns {part: bytes at their peak}."""
    out = os.path.join(work, "run")
    subprocess.run(["heaptrack", "-o", out] + cmd, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    data = [f for f in os.listdir(work) if f.startswith("run.")][0]
    flame = os.path.join(work, "flame.txt")
    subprocess.run(["heaptrack_print", "-f", os.path.join(work, data),
                    "--print-peaks", "0", "--print-allocators", "0",
                    "--print-temporary", "0", "--print-leaks", "0",
                    "--print-flamegraph", flame,
                    "--flamegraph-cost-type", "peak"],
                   check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    parts = {}
    with open(flame) as f:
        for line in f:
            stack, _, cost = line.rstrip("\n").rpartition(" ")
            frames = [s for s in stack.split(";") if s.strip()]
            part = part_of(frames)
            parts[part] = parts.get(part, 0) + int(cost)
    for f in os.listdir(work):
        os.remove(os.path.join(work, f))
    return parts


def main():
    if len(sys.argv) != 7:
        sys.exit(__doc__.split("\n\n")[-1])
    qemu_cmd_sh, qemu, elf, out_dir = sys.argv[1:5]
    shapes = []
    for arg in sys.argv[5:7]:
        harts, _, props = arg.partition(":")
        shapes.append((int(harts), props))

    def command(props):
        line = subprocess.run([qemu_cmd_sh, "--print", qemu, elf] +
                              props.split(","), check=True,
                              capture_output=True, text=True).stdout
        return shlex.split(line)

    rows = []
    print("Peak RSS of hello (deterministic mode):")
    for harts, props in shapes:
        status, rss, wall = run_rss(command(props))
        if status != 0:
            sys.exit(f"memory bench: hello on {props} exited {status}")
        rows.append((harts, rss, wall))
        print(f"  {harts:6d} harts  {rss / 1024:8.1f} MiB  {wall:6.2f} s"
              f"  ({props})")
    with open(os.path.join(out_dir, "memory.csv"), "w") as f:
        f.write("harts,peak_rss_kib,boot_s\n")
        for harts, rss, wall in rows:
            f.write(f"{harts},{rss},{wall:.2f}\n")
    (ha, ra, _), (hb, rb, _) = rows
    per_hart = (rb - ra) / (hb - ha)
    print(f"Resident per hart: {per_hart:.1f} KiB "
          f"(({rb} - {ra}) KiB / ({hb} - {ha}) harts)")

    if not shutil.which("heaptrack") or not shutil.which("heaptrack_print"):
        print("Where it goes: needs heaptrack (apt-get install heaptrack)")
        return
    heaps = []
    with tempfile.TemporaryDirectory() as work:
        for harts, props in shapes:
            heaps.append(heap_by_part(command(props), work))
    names = [p for p, _ in PARTS] + [CPU_OBJECTS, OTHER]
    print("Heap allocated per hart, by part of QEMU (heaptrack; allocated, "
          "not necessarily resident):")
    # Every hart has a RISCVCPU: a breakdown that finds none has lost the machine's allocation
    # of the harts among the other stacks, and would publish a wrong table.
    if heaps[1].get(CPU_OBJECTS, 0) <= heaps[0].get(CPU_OBJECTS, 0):
        sys.exit("memory bench: no stack allocates the harts (RISCVCPU) per hart; "
                 "part_of() in tests/bench/memory.py no longer matches the machine")
    total = 0.0
    with open(os.path.join(out_dir, "memory-breakdown.csv"), "w") as f:
        f.write("part,kib_per_hart\n")
        for name in names:
            kib = (heaps[1].get(name, 0) - heaps[0].get(name, 0)) / \
                (hb - ha) / 1024
            total += kib
            f.write(f"{name},{kib:.1f}\n")
            print(f"  {kib:7.1f} KiB  {name}")
    print(f"  {total:7.1f} KiB  in all")


if __name__ == "__main__":
    main()
