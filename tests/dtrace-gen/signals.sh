#!/bin/sh
# A signal that kills dtrace-gen while it writes an output leaves no
# temporary file, leaves the earlier output as it was, and still kills it
# (the parent sees the signal, not an exit status). Each signal arrives
# exactly mid-write: strace delivers it when the first write to the
# temporary starts. SIGXFSZ also comes from the kernel itself, through a
# file size limit.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"
mkdir "$T/out" && cd "$T" || fail "cd"
printf 'provider a { probe x(int); probe y(char *, long); };\n' >p.d

# check_clean WHAT: the output is the earlier one, nothing else is there.
check_clean() {
	for f in p.h p.o; do
		expect_eq "$1: earlier $f" "earlier $f" "$(cat out/$f)"
	done
	left=$(ls -A out | grep -v -x -e p.h -e p.o)
	[ -z "$left" ] || fail "$1: left behind: $left"
}
echo "earlier p.h" >out/p.h && echo "earlier p.o" >out/p.o

# A file size limit: the kernel sends SIGXFSZ (25) as a write passes it.
awk 'BEGIN { print "provider big {"
	for (i = 0; i < 2000; i++) printf "probe p%d(int);\n", i; print "};" }' >big.d
for mode in h G; do
	(ulimit -f 8 && exec "$DG" -$mode -s big.d -o out/p.$mode 2>/dev/null)
	expect_eq "-$mode over the file size limit: exit status" 153 $?
	check_clean "-$mode over the file size limit"
done

command -v strace >/dev/null 2>&1 || skip "strace is not installed (it sends the other signals mid-write)"
strace -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
# Linux's numbers: HUP INT QUIT ABRT USR1 USR2 PIPE ALRM TERM XCPU XFSZ
# VTALRM PROF IO PWR, and the first and last real-time signals.
# A signal ignored when this suite started (SIGHUP under `nohup make
# check') stays ignored in every child: a shell cannot un-ignore it, so
# dtrace-gen would rightly finish its run; such a signal is skipped.
ignored=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/self/status)
is_ignored() { # SIG: bit SIG-1 of the hex mask children inherit
	[ -n "$ignored" ] || return 1
	digit=$(printf %s "$ignored" | cut -c$((${#ignored} - ($1 - 1) / 4)))
	[ $((0x$digit >> (($1 - 1) % 4) & 1)) = 1 ]
}
for sig in 1 2 3 6 10 12 13 14 15 24 25 26 27 29 30 34 64; do
	if is_ignored $sig; then
		note "signal $sig was ignored when the tests started (nohup?):" \
			"a shell cannot restore it for dtrace-gen, so it is not tested"
		continue
	fi
	# -h writes with write(), -G through libelf with pwrite64().
	for mode in h G; do
		call=write
		[ $mode = G ] && call=pwrite64
		strace -o /dev/null -e trace=$call \
			-e inject=$call:signal=$sig:when=1 \
			"$DG" -$mode -s p.d -o out/p.$mode 2>/dev/null
		expect_eq "-$mode, signal $sig mid-write: exit status" $((128 + sig)) $?
		check_clean "-$mode, signal $sig mid-write"
	done
done

# A signal ignored when we started stays ignored: the run completes.
strace -o /dev/null -e trace=write -e inject=write:signal=1:when=1 \
	nohup "$DG" -h -s p.d -o out/p.h >/dev/null 2>&1 ||
	fail "SIGHUP under nohup killed the run"
"$DG" -h -s p.d -o ref.h && cmp -s ref.h out/p.h || fail "nohup run: wrong output"
exit 0
