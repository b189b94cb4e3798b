#!/bin/sh
# --check's bcc/bpftrace verdict is what bpftrace really does: for every
# probe of a binary built with SystemTap's header (floats give `8f@...',
# globals `-4@gi(%rip)') plus hand-written specs, attach bpftrace to that
# one probe (one per run: a bad spec must not hide the others), read every
# argument, and compare accept/reject with sdt-list's verdict.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "the hand-written specs are x86_64"
need_bpftrace

bin=$T/probes
build_probes stap "$bin" -DFLOAT_GLOBAL -DODD_SPECS
"$SDT_LIST" --json --check "$bin" >"$T/check.json"
[ $? -le 1 ] || fail "sdt-list --check failed"
python3 - "$T/check.json" >"$T/probes.txt" <<'PY' || fail "bad JSON"
import json, sys
seen = set()
for s in json.load(open(sys.argv[1])):
    key = s["provider"] + ":" + s["name"]
    if key in seen: continue
    seen.add(key)
    print(key, len(s["arguments"]), "accept" if s["check"]["bcc/bpftrace"]["ok"] else "reject")
PY
n=0
while read -r probe nargs want; do
	prog="usdt:$bin:$probe { printf(\"got\");"
	i=0
	while [ $i -lt "$nargs" ]; do
		prog="$prog printf(\" %d\", arg$i);"
		i=$((i + 1))
	done
	prog="$prog printf(\"\\n\"); exit(); }"
	out=$(bpftrace_run -e "$prog" -c "$bin" 2>&1)
	rc=$?
	# bpftrace 0.17 may report losing its -c child after the probe fired
	# and exit() ran: not about the probe.
	case "$out" in
	*got*"waitpid("*"unexpected error"*)
		out=$(echo "$out" | grep -v 'waitpid(')
		rc=0
		;;
	esac
	case "$out" in
	*ERROR* | *FATAL* | *Assertion*) got=reject ;;
	*got*) [ $rc = 0 ] && got=accept || got=reject ;;
	*) got=reject ;;
	esac
	note "$probe ($nargs args): bpftrace $got, sdt-list says $want"
	[ "$got" = "$want" ] ||
		fail "$probe: bpftrace ${got}s it, sdt-list --check says $want; bpftrace said: $out"
	n=$((n + 1))
done <"$T/probes.txt"
[ $n -ge 10 ] || fail "only $n probes compared"
# The verdicts the comparison rests on, so a model that says "accept" to
# everything cannot pass.
grep -q '^probes:flt 1 reject$' "$T/probes.txt" || fail "float probe: $(cat "$T/probes.txt")"
grep -q '^probes:glob 1 reject$' "$T/probes.txt" || fail "global probe: $(cat "$T/probes.txt")"
grep -q '^probes:regs 2 accept$' "$T/probes.txt" || fail "plain probe: $(cat "$T/probes.txt")"
exit 0
