#!/bin/sh
# sdt-list --bpftrace and --perf over a DIR given by a relative path attach
# by absolute paths, as they do for a FILE: the program printed in one
# directory attaches to the object when bpftrace runs it from another.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_bpftrace

mkdir -p "$T/w/d" "$T/elsewhere"
cat >"$T/p.c" <<'C'
#include <sys/sdt.h>
int main(int argc, char **argv) { (void)argv; DTRACE_PROBE1(walkattach, hit, argc); return 0; }
C
$CC -O2 -I"$SDT_INCLUDE" -o "$T/w/d/prog" "$T/p.c" || fail "cannot build p.c"
abs=$(cd "$T/w/d" && pwd -P)/prog

(cd "$T/w" && "$SDT_LIST" --bpftrace d) >"$T/w.bt" 2>"$T/err" ||
	fail "--bpftrace d: $(cat "$T/err")"
grep -qF "usdt:\"$abs\":walkattach:hit" "$T/w.bt" ||
	fail "--bpftrace d does not attach by $abs: $(grep usdt: "$T/w.bt")"
(cd "$T/w" && "$SDT_LIST" --perf d) >"$T/w.perf" 2>"$T/err" ||
	fail "--perf d: $(cat "$T/err")"
grep -qF "perf probe -x '$abs' -a sdt_walkattach:hit" "$T/w.perf" ||
	fail "--perf d does not name $abs: $(grep 'probe -x' "$T/w.perf")"

# The real tracer, started from another directory than sdt-list was.
cd "$T/elsewhere" || fail "cannot enter $T/elsewhere"
bpftrace_until "$T/bt.out" 'grep -q "walkattach:hit" "$T/bt.out"' \
	"$T/w.bt" -c "$abs two"
grep -q 'walkattach:hit argc=2' "$T/bt.out" ||
	fail "the program printed over d did not trace $abs from elsewhere: $(cat "$T/bt.out")"
