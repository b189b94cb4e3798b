#!/bin/sh
# sdt-list --bpftrace and --perf print programs that really trace: the
# bpftrace program run with -c prints every argument of tests/sdt-list/
# typed.c's probes with the values the program passed (the string through
# str(), as the type record says it is one; unsigned 64-bit past INT64_MAX;
# signed and unsigned small ones), leaves out what bpftrace 0.17 cannot
# read with a comment; run with -p against a live libstapsdt provider in a
# memfd, it attaches through /proc/PID/fd/N and reads the probe's counter
# (tests/sdt-list/memfd-host) and the signed and unsigned extremes of every
# size (tests/libstapsdt/probe-host, whose 12-argument probe also meets
# bpftrace's limit).
# The perf commands make events that `perf record' fills with the same
# values.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "the expected values are x86_64's"
need_bpftrace
HOST=$top_builddir/tests/sdt-list/memfd-host
[ -x "$HOST" ] || fail "$HOST is not built"
PIDS=
trap 'for p in $PIDS; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT

bin=$T/typed
$CC -O2 -I"$top_srcdir/include" -o "$bin" "$top_srcdir/tests/sdt-list/typed.c" ||
	fail "cannot build typed.c"
"$SDT_LIST" --bpftrace "$bin" >"$T/typed.bt" 2>/dev/null || fail "--bpftrace failed"
grep -q '// bpftrace 0.17 reads only arg0-arg5 on x86_64: arguments 6-7 are not printed' \
	"$T/typed.bt" || fail "no comment on the argument limit: $(cat "$T/typed.bt")"
out=$(bpftrace_run "$T/typed.bt" -c "$bin" 2>&1) || fail "bpftrace refused the program: $out"
for want in \
	'sdtlist_shop:order__start customer=alice items=-3 cents=12345678901234567890' \
	'sdtlist_shop:refund amount=-42 arg1=0x[0-9a-f]*' \
	'sdtlist_shop:mismatch arg0=-3' \
	'sdtlist_shop:untyped arg0=200 arg1=-5' \
	'sdtlist_shop:many a=1 b=2 c=3 d=4 e=5 f=6'; do
	echo "$out" | grep -qx "$want" || fail "bpftrace did not print /$want/: $out"
done
note "bpftrace program: every value as passed"

# A stale note (clang+lld --gc-sections kept the note of a dropped
# function) is left out with a comment: the program still loads and runs.
if build_gc_stale "$T/gc"; then
	"$SDT_LIST" --bpftrace "$T/gc" >"$T/gc.bt" || fail "--bpftrace on gc"
	grep -q '^// gc:dropped: left out: every site is a stale note' "$T/gc.bt" ||
		fail "stale probe not left out: $(cat "$T/gc.bt")"
	out=$(bpftrace_run "$T/gc.bt" -c "$T/gc" 2>&1) || fail "bpftrace on gc.bt: $out"
	echo "$out" | grep -qx 'gc:kept argc=1' || fail "gc:kept not traced: $out"
fi

# A live libstapsdt provider in a memfd, by -p.
start_host "$T/host.out" "$HOST"
hpid=$HOST_PID
"$SDT_LIST" --bpftrace -p "$hpid" 'sdtlist:*' >"$T/pid.bt" || fail "--bpftrace -p failed"
grep -q "^usdt:\"/proc/$hpid/fd/[0-9]*\":sdtlist:tick$" "$T/pid.bt" ||
	fail "no /proc/PID/fd attach path: $(cat "$T/pid.bt")"
bpftrace_until "$T/bt.out" '[ "$(grep -c "^sdtlist:tick arg0=" "$T/bt.out")" -ge 3 ]' \
	-p "$hpid" "$T/pid.bt"
vals=$(sed -n 's/^sdtlist:tick arg0=\([0-9]*\)$/\1/p' "$T/bt.out")
[ "$(echo "$vals" | wc -w)" -ge 3 ] || fail "too few hits by -p: $(cat "$T/bt.out")"
echo "$vals" | awk 'NR > 1 && $1 != prev + 1 { exit 1 } { prev = $1 }' ||
	fail "tick counter not consecutive: $vals"
note "bpftrace -p on the memfd provider: $(echo "$vals" | wc -w) consecutive ticks"

PHOST=$top_builddir/tests/libstapsdt/probe-host
[ -x "$PHOST" ] || fail "$PHOST is not built"
start_host "$T/ph.out" "$PHOST" --provider sdtlistbt --seconds 60
ppid=$HOST_PID
"$SDT_LIST" --bpftrace -p "$ppid" 'sdtlistbt:[su]6' 'sdtlistbt:m12' >"$T/ph.bt" ||
	fail "--bpftrace -p on probe-host failed"
grep -q '// bpftrace 0.17 reads only arg0-arg5 on x86_64: arguments 6-11 are not printed' \
	"$T/ph.bt" || fail "no comment on m12's arguments: $(cat "$T/ph.bt")"
bpftrace_until "$T/ph.bt.out" \
	'[ "$(grep -o "^sdtlistbt:[a-z0-9]* " "$T/ph.bt.out" | sort -u | wc -l)" -ge 3 ]' \
	-p "$ppid" "$T/ph.bt"
for want in \
	'sdtlistbt:m12 arg0=-128 arg1=255 arg2=-32768 arg3=65535 arg4=-2147483648 arg5=4294967295' \
	'sdtlistbt:s6 arg0=-2147483648 arg1=-9223372036854775808 arg2=127 arg3=32767 arg4=2147483647 arg5=9223372036854775807' \
	'sdtlistbt:u6 arg0=255 arg1=65535 arg2=4294967295 arg3=18446744073709551615 arg4=-128 arg5=-32768'; do
	grep -qx -- "$want" "$T/ph.bt.out" ||
		fail "bpftrace -p did not print /$want/: $(sort -u "$T/ph.bt.out" | head)"
done
note "bpftrace -p on probe-host: every extreme as passed"

# perf: the printed commands, run with a private build-id cache.
need_cmd perf
"$SDT_LIST" --perf "$bin" 'sdtlist_shop:order__start' 'sdtlist_shop:untyped' >"$T/perf.sh" 2>/dev/null ||
	fail "--perf failed"
grep -q "^perf buildid-cache --add '$bin'$" "$T/perf.sh" || fail "no buildid-cache: $(cat "$T/perf.sh")"
PERF=$(command -v perf)
perf() { timeout 60 "$PERF" --buildid-dir "$T/debug" "$@"; }
tracefs_lock # the printed commands name sdt_sdtlist_shop
cleanup_perf() { perf probe -q -d 'sdt_sdtlist_shop:*' >/dev/null 2>&1; }
trap 'cleanup_perf; for p in $PIDS; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT
(. "$T/perf.sh") >"$T/perf.log" 2>&1 || fail "the perf commands failed: $(cat "$T/perf.log")"
perf record -q -o "$T/perf.data" -e 'sdt_sdtlist_shop:*' -- "$bin" >/dev/null 2>&1 ||
	fail "perf record"
perf script -i "$T/perf.data" >"$T/script.out" 2>/dev/null || fail "perf script"
# perf 7 names the event order_start: each `__' of a name as `_'.
grep -q 'sdt_sdtlist_shop:order__\{0,1\}start: .* arg2=-3 arg3=12345678901234567890$' "$T/script.out" ||
	fail "perf's order__start values: $(cat "$T/script.out")"
grep -q 'sdt_sdtlist_shop:untyped: .* arg1=200 ' "$T/script.out" ||
	fail "perf's untyped values: $(cat "$T/script.out")"
note "perf events from the printed commands carry the values"
exit 0
