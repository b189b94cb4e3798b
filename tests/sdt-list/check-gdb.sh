#!/bin/sh
# --check's gdb verdict is what gdb 13 really does: stop at each probe of a
# binary with SystemTap-built and hand-written specs, and compare
# $_probe_argc (gdb shows no arguments when it cannot parse one) with
# sdt-list's verdict.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "the hand-written specs are x86_64"
need_cmd gdb

bin=$T/probes
build_probes stap "$bin" -DFLOAT_GLOBAL -DODD_SPECS
"$SDT_LIST" --json --check "$bin" >"$T/check.json"
[ $? -le 1 ] || fail "sdt-list --check failed"
verdicts "$T/check.json" gdb probes:gated >"$T/probes.txt" || fail "bad JSON"
n=0
while read -r probe nargs want; do
	out=$(timeout 60 gdb -q -batch -ex "break -probe-stap $probe" -ex run \
		-ex 'print $_probe_argc' "$bin" 2>&1)
	argc=$(echo "$out" | sed -n 's/^\$1 = \([0-9]*\)$/\1/p')
	case "$out" in
	*"Breakpoint 1,"* | *"Breakpoint 1.1,"*) ;;
	*) fail "$probe: gdb did not stop there: $out" ;;
	esac
	# When it cannot parse an argument, gdb errors out instead of printing.
	[ -n "$argc" ] || argc=0
	[ "$argc" = "$nargs" ] && got=accept || got=reject
	note "$probe: gdb sees $argc of $nargs arguments ($got), sdt-list says $want"
	[ "$got" = "$want" ] || fail "$probe: gdb ${got}s it, sdt-list says $want"
	n=$((n + 1))
done <"$T/probes.txt"
[ $n -ge 10 ] || fail "only $n probes compared"
grep -q '^odd:r8b 1 reject$' "$T/probes.txt" || fail "r8b: $(cat "$T/probes.txt")"
exit 0
