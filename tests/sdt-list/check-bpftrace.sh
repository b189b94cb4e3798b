#!/bin/sh
# --check's verdict for the installed bpftrace (the bcc/bpftrace column up
# to 0.24, bpftrace 0.25+ from 0.25 on) is what it really does: for every
# probe of a binary built with SystemTap's header (a float gives `8f@...',
# a global whatever operand the compiler picks: `-4@gi(%rip)' with gcc, a
# stack slot with clang) plus hand-written specs (among them the symbol
# operand `-4@gi(%rip)', whatever the compiler), attach bpftrace to that one
# probe (one per run: a bad spec must not hide the others), read every
# argument, and compare accept/reject with sdt-list's verdict. Where the
# value is known (regs, cst, glob), reading a wrong one counts as reject.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "the hand-written specs are x86_64"
need_bpftrace

bin=$T/probes
build_probes stap "$bin" -DFLOAT_GLOBAL -DODD_SPECS
"$SDT_LIST" --json --check "$bin" >"$T/check.json"
[ $? -le 1 ] || fail "sdt-list --check failed"
col=$(bpftrace_column)
note "bpftrace 0.$(bpftrace_minor): the \`$col' column"
verdicts "$T/check.json" "$col" >"$T/probes.txt" || fail "bad JSON"
n=0
valued=0
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
	# What probes.c passes: fire(i, 3 * i + 1000) with i > 0, 42, gi = 7.
	vals=$(echo "$out" | sed -n 's/^got *//p' | head -n 1)
	case $got:$probe in
	accept:probes:regs) right=$(echo "$vals" | awk '{ print ($1 > 0 && $2 == 3 * $1 + 1000) }') ;;
	accept:probes:cst) [ "$vals" = 42 ] && right=1 || right=0 ;;
	accept:probes:glob) [ "$vals" = 7 ] && right=1 || right=0 ;;
	*) right= ;;
	esac
	if [ "$right" = 1 ]; then
		valued=$((valued + 1))
	elif [ "$right" = 0 ]; then
		note "$probe: bpftrace reads the wrong value(s): $vals"
		got=reject
	fi
	note "$probe ($nargs args): bpftrace $got${vals:+ (read $vals)}, sdt-list says $want"
	[ "$got" = "$want" ] ||
		fail "$probe: bpftrace ${got}s it, sdt-list --check says $want; bpftrace said: $out"
	n=$((n + 1))
done <"$T/probes.txt"
[ $n -ge 10 ] || fail "only $n probes compared"
[ $valued -ge 2 ] || fail "only $valued accepted probes had their values checked"
# The verdicts the comparison rests on, so a model that says "accept" to
# everything cannot pass; none depends on the compiler's operand choices.
for v in 'probes:flt 1 reject' 'odd:sym 1 reject' 'probes:regs 2 accept' \
	'odd:xmm 1 reject' 'odd:twoargs 2 accept'; do
	grep -qx "$v" "$T/probes.txt" || fail "expected \`$v'; got: $(cat "$T/probes.txt")"
done
exit 0
