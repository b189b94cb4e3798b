#!/bin/sh
# --check's gdb verdict is what gdb 13 really does: stop at each probe of a
# binary with SystemTap-built and hand-written specs, and compare
# $_probe_argc (gdb keeps the arguments before one it cannot parse) with
# sdt-list's verdict and with the count of arguments it says gdb reads.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "the hand-written specs are x86_64"
need_cmd gdb

bin=$T/probes
build_probes stap "$bin" -DFLOAT_GLOBAL -DODD_SPECS
"$SDT_LIST" --json --check "$bin" >"$T/check.json"
[ $? -le 1 ] || fail "sdt-list --check failed"
# PROBE NARGS accept|reject READS: READS, the arguments gdb reads.
python3 - "$T/check.json" >"$T/probes.txt" <<'PY' || fail "bad JSON"
import json, sys
seen = {"probes:gated"}
for s in json.load(open(sys.argv[1])):
    key = s["provider"] + ":" + s["name"]
    if key in seen:
        continue
    seen.add(key)
    v = s["check"]["gdb"]
    n = len(s["arguments"])
    print(key, n, "accept" if v["ok"] else "reject",
          n if v["ok"] else max(v.get("argument", 0), 0))
PY
n=0
while read -r probe nargs want reads; do
	out=$(timeout 60 gdb -q -batch -ex "break -probe-stap $probe" -ex run \
		-ex 'print $_probe_argc' -ex 'print $_probe_argc' "$bin" 2>&1)
	# The first look at a probe with a bad argument errors out; gdb
	# keeps the arguments it parsed before it, and the second look
	# counts them.
	argc=$(echo "$out" | sed -n 's/^\$[12] = \([0-9]*\)$/\1/p' | tail -n 1)
	case "$out" in
	*"Breakpoint 1,"* | *"Breakpoint 1.1,"*) ;;
	*) fail "$probe: gdb did not stop there: $out" ;;
	esac
	[ -n "$argc" ] || argc=0
	[ "$argc" = "$nargs" ] && got=accept || got=reject
	note "$probe: gdb sees $argc of $nargs arguments ($got), sdt-list says $want, $reads"
	[ "$got" = "$want" ] || fail "$probe: gdb ${got}s it, sdt-list says $want"
	[ "$argc" = "$reads" ] || fail "$probe: gdb reads $argc arguments, sdt-list says $reads"
	n=$((n + 1))
done <"$T/probes.txt"
[ $n -ge 10 ] || fail "only $n probes compared"
grep -q '^odd:r8b 1 reject 0$' "$T/probes.txt" || fail "r8b: $(cat "$T/probes.txt")"
grep -q "^odd:later 2 reject 1$" "$T/probes.txt" || fail "later: $(cat "$T/probes.txt")"
# glibc 2.43's own probes write `8@16+mp_(%rip)': gdb 13 and 18 parse no
# argument of it ("Unknown numeric token").
grep -q "^odd:symoff 1 reject 0$" "$T/probes.txt" || fail "symoff: $(cat "$T/probes.txt")"
exit 0
