#!/bin/sh
# An allocation that fails is an error the user sees, never a shorter
# answer. Each mode of sdt-list runs once per allocation it makes, with
# that one allocation failing (tests/tools/failalloc.c, LD_PRELOAD'ed):
# every run prints the whole answer with the usual status, or ends with
# status 2 and a message on standard error. Never a crash, never status 0
# or 1 with less (or other) output than the run without failures.
# Also: --script over 60,001 attach points (one naming a probe that does
# not exist) in 400 MB of address space finds that one. (-p once failed
# this way: libelf's failure to allocate read as "not ELF", passed over.)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_cmd timeout
HOOK=$top_builddir/tests/tools/.libs/libfailalloc.so
[ -f "$HOOK" ] || fail "$HOOK is not built"
case "$(ldd "$SDT_LIST" 2>/dev/null)" in
*libasan* | *libubsan*) skip "sdt-list is built with a sanitizer: it has its own malloc" ;;
esac

build_probes ours "$T/probes"
$CC -O2 -c -I"$SDT_INCLUDE" -o "$T/gated.o" "$top_srcdir/tests/sdt-list/gated.c" ||
	fail "cannot build gated.o"
mkdir "$T/tree"
cp "$T/probes" "$T/gated.o" "$T/tree/"
cat >"$T/s.bt" <<EOF2
usdt:$T/probes:probes:*, usdt:$T/probes:probes:nosuch { printf("%d\n", arg0); }
usdt:$T/probes:*:* { @n = count(); }
EOF2

# each WHAT ARGS...: sdt-list ARGS with each allocation failing in turn.
each() {
	what=$1
	shift
	timeout 60 env SDTKIT_FAIL_ALLOC=0 SDTKIT_FAIL_ALLOC_COUNT="$T/count" \
		LD_PRELOAD="$HOOK" "$SDT_LIST" "$@" >"$T/ref.out" 2>"$T/ref.err"
	ref=$?
	[ $ref -le 1 ] || fail "$what: status $ref without failures: $(cat "$T/ref.err")"
	total=$(cat "$T/count")
	[ "$total" -gt 0 ] || fail "$what: the hook counted no allocation"
	n=1
	while [ "$n" -le "$total" ]; do
		timeout 60 env SDTKIT_FAIL_ALLOC=$n LD_PRELOAD="$HOOK" \
			"$SDT_LIST" "$@" >"$T/out" 2>"$T/err"
		rc=$?
		if [ $rc = 2 ]; then
			[ -s "$T/err" ] ||
				fail "$what: allocation $n failed: status 2 with no word"
		elif [ $rc != "$ref" ] || ! cmp -s "$T/out" "$T/ref.out"; then
			fail "$what: allocation $n of $total failed: status $rc (want $ref or 2), output $(diff "$T/ref.out" "$T/out" | head -n 5)"
		fi
		n=$((n + 1))
	done
	note "$what: $total allocations, each failing once: whole answer or an error"
}

each "listing" "$T/probes"
each "--json" --json "$T/probes"
each "--check -v" --check -v "$T/probes"
each "--bpftrace" --bpftrace "$T/probes"
each "--perf" --perf "$T/probes"
each "a relocatable object" --json "$T/gated.o"
each "a walk" --json "$T/tree"
each "--diff" --diff "$T/probes" "$T/probes"
each "--script" --script "$T/s.bt" "$T/probes"

# A process: its maps, the objects it maps.
cat >"$T/w.c" <<'C'
#include <sys/sdt.h>
#include <unistd.h>
int main(void) { DTRACE_PROBE(allocfail, wait); pause(); return 0; }
C
$CC -O2 -I"$SDT_INCLUDE" -o "$T/w" "$T/w.c" || fail "cannot build w.c"
"$T/w" &
W=$!
trap 'kill $W 2>/dev/null; rm -rf "$T"' EXIT
wait_exe $W "$T/w"
each "-p" -p $W
each "-p --json" --json -p $W
each "-p --bpftrace" --bpftrace -p $W

# 60,001 attach points in one clause, in 400 MB: all checked.
python3 - "$T/big.bt" "$T/probes" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(60000):
        f.write("usdt:%s:probes:*,\n" % sys.argv[2])
    f.write("usdt:%s:probes:nosuch\n{ @n = count(); }\n" % sys.argv[2])
PY
(
	ulimit -v 400000
	exec timeout 120 "$SDT_LIST" --script "$T/big.bt" "$T/probes"
) >"$T/out" 2>"$T/err"
rc=$?
expect_eq "60,001 attach points: status ($(cat "$T/err"))" 1 $rc
grep -q "big.bt:60001: .*would not attach: no probe probes:nosuch" "$T/out" ||
	fail "60,001 attach points: the missing probe is not named: $(tail -n 3 "$T/out")"
tail -n 1 "$T/out" | grep -q ": 60001 usdt attach points, 1 problem$" ||
	fail "60,001 attach points: $(tail -n 1 "$T/out")"
note "60,001 attach points in 400 MB: the one missing probe found"
