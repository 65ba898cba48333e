# ./tessera bench host: where the samples of one perf record of QEMU fall, from
#   perf script -F comm,ip,sym,dso
# lines ("<comm> <ip> <symbol> (<object>)"). Only the QEMU process's samples count (comm
# qemu-system-*, every thread). Each sample goes to the first class it fits:
#   guest      translated guest code: TCG's code buffer, which has no file behind it (perf's
#              [unknown] symbol in /tmp/perf-<pid>.map, [JIT] or [unknown] objects)
#   kernel     [kernel.kallsyms]
#   locks      a symbol with "mutex" in its name, bql_*, futex*
#   machine    the machine's code in QEMU: tessera_*, mbox_*, thread_csr, csr_*, termdet_*
#   qemu       the rest of the QEMU binary (the execution loop, TB lookup, helpers)
#   libraries  the rest (glib, libc, the loader)
# Prints the samples and each class's share: "samples guest machine qemu locks libraries kernel".
$1 ~ /^qemu-system/ {
    dso = $NF
    gsub(/^\(|\)$/, "", dso)
    sym = $3
    for (i = 4; i < NF; i++) sym = sym " " $i
    all++
    if (dso ~ /^\/tmp\/perf-[0-9]+\.map$/ || dso ~ /^\[JIT\]/ || dso == "[unknown]") c["guest"]++
    else if (dso == "[kernel.kallsyms]") c["kernel"]++
    else if (sym ~ /mutex|^bql_|^futex/) c["locks"]++
    else if (dso ~ /\/qemu-system-[^\/]*$/ && sym ~ /^(tessera_|mbox_|thread_csr|csr_|termdet_)/) c["machine"]++
    else if (dso ~ /\/qemu-system-[^\/]*$/) c["qemu"]++
    else c["libraries"]++
}
END {
    if (all == 0) exit 1
    printf "%d %.3f %.3f %.3f %.3f %.3f %.3f\n", all, c["guest"] / all, c["machine"] / all,
        c["qemu"] / all, c["locks"] / all, c["libraries"] / all, c["kernel"] / all
}
