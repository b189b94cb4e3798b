#!/bin/sh
# sdt-list --bpftrace and --perf on what real binaries hold, run the way
# their own header says, checking the values the tracers print:
#  - a shared object under a path with `++' (bpftrace must quote it; -c
#    finds no probe in a shared object, so the program is started after
#    bpftrace attaches by path), and the same by -p, where only objects
#    with a matching probe are written;
#  - probes whose sites differ: an argument 4 bytes at one site and 8 at
#    another (5000000000 must not be cut to 32 bits), signed at one and
#    unsigned at another, one argument at one site and two at another
#    (bpftrace aborts reading one a site lacks); perf cannot put such sites
#    under one event, so --perf makes one per site (through tracefs for
#    a probe with a semaphore, which perf probe cannot give such an event);
#  - a double by its type record (raw bits, with a comment), an argument
#    name that is no C identifier (argN), a path holding `:' and one
#    holding U+202E (left out with a comment, nothing raw printed);
#  - 600 sites, over bpftrace's default limit of 512 probes.
# Every wait is for something to happen (a line printed, a round of hits),
# never for a fixed time, and the hosts traced by -p live until the end:
# a loaded machine only makes the test slower.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "the expected values are x86_64's"
need_bpftrace
PIDS=
trap 'for p in $PIDS; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT

# One sdtkit type record (the format dtrace-gen -G writes).
cat >"$T/sites.c" <<'C'
#include <sys/sdt.h>
#define NOTE(strings)                                                      \
	__asm__(".pushsection .note.sdtkit,\"\",%note\n.balign 4\n"        \
		".4byte 7\n.4byte 2f-1f\n.4byte 1\n.asciz \"sdtkit\"\n"      \
		".balign 4\n1:\n" strings "2:\n.balign 4\n.popsection\n")
#define S(text) ".asciz \"" text "\"\n"
NOTE(S("sites") S("ratio") S("1") S("double") S("ratio"));
NOTE(S("sites") S("named") S("2") S("int") S("ok_name") S("int")
	     S("bad\\033]0;x\\007name"));

volatile double r = 2.5;
__attribute__((noinline)) void at_int(int x) { DTRACE_PROBE1(sites, wide, x); }
__attribute__((noinline)) void at_long(long x) { DTRACE_PROBE1(sites, wide, x); }
__attribute__((noinline)) void one(int x) { DTRACE_PROBE1(sites, count, x); }
__attribute__((noinline)) void two(int x, int y) { DTRACE_PROBE2(sites, count, x, y); }
__attribute__((noinline)) void sign_u(unsigned char x) { DTRACE_PROBE1(sites, sign, x); }
__attribute__((noinline)) void sign_s(int x) { DTRACE_PROBE1(sites, sign, x); }
__attribute__((noinline)) void ratio(void) { DTRACE_PROBE1(sites, ratio, r); }
__attribute__((noinline)) void named(int a, int b) { DTRACE_PROBE2(sites, named, a, b); }
void fire_gated(void);
void fire_all(void)
{
	fire_gated();
	at_int(-7);
	at_long(5000000000L);
	one(1);
	two(2, 3);
	sign_u(200);
	sign_s(-5);
	ratio();
	named(10, 20);
}
C
# A probe with a semaphore whose sites differ (a file of its own, as
# _SDT_HAS_SEMAPHORES gives every probe of a file one).
cat >"$T/gated.c" <<'C'
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
__extension__ volatile unsigned short sites_gated_semaphore
	__attribute__((used, section(".probes"))) = 0;
__attribute__((noinline)) void g4(int x) { if (sites_gated_semaphore) DTRACE_PROBE1(sites, gated, x); }
__attribute__((noinline)) void g8(long x) { if (sites_gated_semaphore) DTRACE_PROBE1(sites, gated, x); }
void fire_gated(void)
{
	g4(-9);
	g8(6000000000L);
}
C
cat >"$T/main.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
void fire_all(void);
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;

	if (argc > 2) {
		printf("ready %d main\n", (int)getpid());
		fflush(stdout);
	}
	for (int i = 0; i < n; i++) {
		fire_all();
		if (argc > 2) {
			printf("tick %d\n", i + 1);
			fflush(stdout);
		}
		usleep(100000);
	}
	return 0;
}
C
lib=$T/lib++dir/libsites.so
mkdir -p "$T/lib++dir"
$CC -O2 -fPIC -shared -I"$top_srcdir/include" -o "$lib" "$T/sites.c" "$T/gated.c" ||
	fail "cannot build the library"
$CC -O2 -o "$T/main" "$T/main.c" -L"$T/lib++dir" -lsites -Wl,-rpath,"$T/lib++dir" ||
	fail "cannot build main"

# The listing shows the one signature and says where the sites differ.
"$SDT_LIST" --check "$lib" >"$T/list" 2>&1
grep -qx 'sites:wide(int64)  2 sites' "$T/list" || fail "wide: $(cat "$T/list")"
grep -qx '    sites differ: arg0 in size, shown as the widest' "$T/list" ||
	fail "no size difference: $(cat "$T/list")"
grep -qx '    sites differ: 1 to 2 arguments, only the 1 all have shown' "$T/list" ||
	fail "no count difference: $(cat "$T/list")"
grep -qx 'sites:sign(int32)  2 sites' "$T/list" || fail "sign: $(cat "$T/list")"
grep -qx '    sites differ: arg0 in size, shown as the widest; arg0 in sign, shown as signed' "$T/list" ||
	fail "no sign difference: $(cat "$T/list")"
grep -q '^    perf: its sites record different fields: perf probe -a keeps only the first' \
	"$T/list" || fail "--check does not say perf keeps one site: $(cat "$T/list")"
note "listing: one signature per probe, differences said"

# --bpftrace on the shared object: quoted path, run by path.
"$SDT_LIST" --bpftrace "$lib" >"$T/lib.bt" || fail "--bpftrace on the library"
grep -q '^// Run: bpftrace THIS-FILE, then start the program once it prints "attached: start the program"' "$T/lib.bt" ||
	fail "run line not for a shared object: $(head -5 "$T/lib.bt")"
grep -qx "usdt:\"$lib\":sites:wide" "$T/lib.bt" || fail "path not quoted: $(cat "$T/lib.bt")"
grep -q '// its sites have 1 to 2 arguments: only the 1 every site has are printed' \
	"$T/lib.bt" || fail "no comment on counts: $(cat "$T/lib.bt")"
grep -q '// arg0 is floating-point (double): bpftrace 0.17 cannot print floats; printed as its raw bits' \
	"$T/lib.bt" || fail "no comment on the double: $(cat "$T/lib.bt")"
grep -q 'printf("sites:named ok_name=%d arg1=%d\\n", arg0, arg1);' "$T/lib.bt" ||
	fail "argument names: $(cat "$T/lib.bt")"
if LC_ALL=C grep -q "$(printf '\033')" "$T/lib.bt"; then
	fail "a raw ESC reached the program"
fi

# printed FILE PID LINE...: until bpftrace (PID) has printed each LINE in
# FILE, or has exited, or 60 s have passed; then it is stopped. Waiting
# for what it prints, not for a time, so a slow machine cannot make it
# stop before the hits it was given are read.
printed() {
	_f=$1 _pid=$2
	shift 2
	_i=0
	while [ $_i -lt 600 ] && kill -0 "$_pid" 2>/dev/null; do
		_missing=
		for _w; do grep -qx -- "$_w" "$_f" || _missing=$_w; done
		[ -z "$_missing" ] && break
		_i=$((_i + 1))
		sleep 0.1
	done
	kill -INT "$_pid" 2>/dev/null
	wait "$_pid"
	for _w; do
		grep -qx -- "$_w" "$_f" || fail "bpftrace did not print /$_w/: $(sort -u "$_f")"
	done
}

# Run as its header says: attach, then start the program.
bpftrace "$T/lib.bt" >"$T/lib.out" 2>&1 &
bt=$!
PIDS="$PIDS $bt"
i=0
until grep -qs '^attached: start the program$' "$T/lib.out"; do
	i=$((i + 1))
	[ $i -lt 600 ] || fail "bpftrace did not attach: $(cat "$T/lib.out")"
	kill -0 $bt 2>/dev/null || fail "bpftrace exited: $(cat "$T/lib.out")"
	sleep 0.1
done
"$T/main" 3 || fail "main failed"
printed "$T/lib.out" $bt 'sites:wide arg0=-7' 'sites:wide arg0=5000000000' \
	'sites:count arg0=1' 'sites:count arg0=2' 'sites:sign arg0=200' \
	'sites:sign arg0=-5' 'sites:ratio ratio=0x4004000000000000' \
	'sites:named ok_name=10 arg1=20' 'sites:gated arg0=-9' \
	'sites:gated arg0=6000000000'
note "bpftrace on the shared object, by path: every value right at every site"

# By -p: only the library is written (libc has no sites: probes).
start_host "$T/host.out" "$T/main" 100000 ready
hpid=$HOST_PID
"$SDT_LIST" --bpftrace -p "$hpid" 'sites:*' >"$T/pid.bt" || fail "--bpftrace -p"
expect_eq "objects written by -p" 1 "$(grep -c '^// /' "$T/pid.bt")"
grep -qx "// Run: bpftrace THIS-FILE -p $hpid" "$T/pid.bt" || fail "-p run line: $(head -3 "$T/pid.bt")"
bpftrace "$T/pid.bt" -p "$hpid" >"$T/pid.out" 2>&1 &
printed "$T/pid.out" $! 'sites:wide arg0=5000000000'
note "bpftrace -p: only the object with probes, values right"

# Two processes sharing the library: one block for the file, by its path
# (both share our mount namespace, where it is the mapped file), and no
# -p in the run line.
start_host "$T/host2.out" "$T/main" 100000 ready
hpid2=$HOST_PID
"$SDT_LIST" --bpftrace -p "$hpid" -p "$hpid2" 'sites:wide' >"$T/two.bt" || fail "--bpftrace -p -p"
expect_eq "blocks for a shared file" 1 "$(grep -c '^usdt:' "$T/two.bt")"
grep -qx "usdt:\"$lib\":sites:wide" "$T/two.bt" || fail "two -p: $(cat "$T/two.bt")"
grep -qx "// $lib of pid $hpid2: the same file as above" "$T/two.bt" || fail "two -p: $(cat "$T/two.bt")"
grep -q '^// Run: bpftrace THIS-FILE (attached by path' "$T/two.bt" || fail "two -p run line: $(cat "$T/two.bt")"
# Nothing to trace: no program (bpftrace refuses one without a probe).
"$SDT_LIST" --bpftrace -p "$hpid" 'nomatch:*' >"$T/none.bt" 2>"$T/none.err"
expect_eq "--bpftrace -p, no match: status" 2 $?
[ -s "$T/none.bt" ] && fail "no match: a program was written: $(cat "$T/none.bt")"
grep -qx "sdt-list: no probe matches \`nomatch:\*'" "$T/none.err" ||
	fail "no match: $(cat "$T/none.err")"

# --perf: an event per site where the fields differ; the commands run.
need_cmd perf
PERF=$(command -v perf)
perf() { timeout 60 "$PERF" --buildid-dir "$T/debug" "$@"; }
tracefs_lock # the printed commands name sdt_sites
cleanup_perf() { perf probe -q -d 'sdt_sites:*' >/dev/null 2>&1; }
trap 'cleanup_perf; for p in $PIDS; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT
"$SDT_LIST" --perf "$lib" >"$T/perf.sh" || fail "--perf"
grep -q "^perf probe -x '$lib' -a 'sdt_sites:wide=0x[0-9a-f]* arg1=%di:s32'$" "$T/perf.sh" ||
	fail "no per-site event: $(cat "$T/perf.sh")"
grep -q "^perf probe -x '$lib' -a 'sdt_sites:wide_1=0x[0-9a-f]* arg1=%di:s64'$" "$T/perf.sh" ||
	fail "no second per-site event: $(cat "$T/perf.sh")"
grep -q "^echo 'p:sdt_sites/gated_1 $lib:0x[0-9a-f]*(0x[0-9a-f]*) arg1=%di:s64' >>/sys/kernel/tracing/uprobe_events$" \
	"$T/perf.sh" || fail "no tracefs event with the semaphore: $(cat "$T/perf.sh")"
# Someone else's event in the same group must survive our cleanup.
perf probe -q -x "$lib" -a "sdt_sites:theirs=fire_all" >/dev/null 2>&1 ||
	fail "cannot add an unrelated event"
(. "$T/perf.sh") >"$T/perf.log" 2>&1 || fail "the perf commands failed: $(cat "$T/perf.log")"
perf record -q -o "$T/perf.data" -e 'sdt_sites:*' -- "$T/main" >/dev/null 2>&1 ||
	fail "perf record"
perf script -i "$T/perf.data" >"$T/script.out" 2>/dev/null || fail "perf script"
for want in 'sdt_sites:wide: .* arg1=-7$' 'sdt_sites:wide_1: .* arg1=5000000000$' \
	'sdt_sites:count: .* arg1=1$' 'sdt_sites:count_1: .* arg1=2 arg2=3$' \
	'sdt_sites:sign: .* arg1=200$' 'sdt_sites:sign_1: .* arg1=-5$' \
	'sdt_sites:gated: .* arg1=-9$' 'sdt_sites:gated_1: .* arg1=6000000000$'; do
	grep -q -- "$want" "$T/script.out" || fail "perf did not record /$want/: $(cat "$T/script.out")"
done
rm_line=$(sed -n 's/^# remove the events: //p' "$T/perf.sh")
[ -n "$rm_line" ] || fail "no cleanup line"
eval "$rm_line" >/dev/null 2>&1 || fail "the cleanup failed: $rm_line"
left=$(grep '^p:sdt_sites/' "$TRACEFS/uprobe_events" | sed 's/ .*//')
expect_eq "events left after the cleanup" "p:sdt_sites/theirs" "$left"
note "perf: an event per site, every value, and a cleanup of our events only"

# A probe perf cannot add (the kernel knows no %xmm0): a comment, no
# command that would fail.
build_probes ours "$T/odd" -DODD_SPECS
"$SDT_LIST" --perf "$T/odd" 'odd:*' >"$T/odd.sh" || fail "--perf odd"
grep -q "^# odd:xmm: left out: argument 0 (\`8@%xmm0'): the kernel knows no register %xmm0" "$T/odd.sh" ||
	fail "odd:xmm not left out: $(cat "$T/odd.sh")"
if grep -q 'sdt_odd:xmm' "$T/odd.sh"; then fail "a perf command for odd:xmm"; fi

# --perf -p: the object by its own path (perf resolves links by their
# text: it gets the path they lead to), nothing for libc.
"$SDT_LIST" --perf -p "$hpid" 'sites:*' >"$T/pperf.sh" || fail "--perf -p"
expect_eq "objects written by --perf -p" 1 "$(grep -c '^perf buildid-cache' "$T/pperf.sh")"
grep -q "^perf buildid-cache --add '$(realpath "$lib")'$" "$T/pperf.sh" ||
	fail "-p path not the object's own: $(cat "$T/pperf.sh")"
(. "$T/pperf.sh") >"$T/pperf.log" 2>&1 || fail "the -p perf commands failed: $(cat "$T/pperf.log")"
# Recording lasts until the host has fired twice more (a whole round
# after recording began), however slow the machine.
perf record -q -o "$T/pperf.data" -e 'sdt_sites:*' -p "$hpid" -- sh -c '
	n=$(grep -c "^tick" "$1") i=0
	until [ "$(grep -c "^tick" "$1")" -ge $((n + 2)) ]; do
		i=$((i + 1)); [ $i -lt 600 ] || exit 1; sleep 0.1
	done' sh "$T/host.out" >/dev/null 2>&1
perf script -i "$T/pperf.data" 2>/dev/null | grep -q 'sdt_sites:wide_1: .* arg1=5000000000$' ||
	fail "perf -p recorded nothing: $(perf script -i "$T/pperf.data" 2>&1 | head -3)"
cleanup_perf
note "perf -p: by the object's path, values recorded"

# A path bpftrace 0.17 cannot attach to, and one with a bidi control.
mkdir -p "$T/c:d" "$T/$(printf 'r\342\200\256l')"
cp "$T/main" "$lib" "$T/c:d/"
cp "$lib" "$T/$(printf 'r\342\200\256l')/"
# With no probe left to trace, no program (bpftrace would refuse it): the
# reason goes to stderr, and the status is 2.
"$SDT_LIST" --bpftrace "$T/c:d/libsites.so" >"$T/colon.bt" 2>"$T/colon.err"
expect_eq "--bpftrace on c:d: status" 2 $?
[ -s "$T/colon.bt" ] && fail "a program with no probe: $(cat "$T/colon.bt")"
grep -q "^// left out: bpftrace 0.17 cannot attach to a path holding \`:'" "$T/colon.err" ||
	fail "no comment for a path with a colon: $(cat "$T/colon.err")"
for f in --bpftrace --perf; do
	"$SDT_LIST" $f "$T/$(printf 'r\342\200\256l')/libsites.so" >"$T/bidi.out" 2>&1
	rc=$?
	[ $rc = 0 ] || { [ $f = --bpftrace ] && [ $rc = 2 ]; } ||
		fail "$f on the bidi path: status $rc"
	if LC_ALL=C grep -q "$(printf '\342\200\256')" "$T/bidi.out"; then
		fail "$f printed U+202E raw: $(cat "$T/bidi.out")"
	fi
	grep -q 'left out: its path holds bytes' "$T/bidi.out" || fail "$f: $(cat "$T/bidi.out")"
done
note "paths bpftrace or a terminal cannot take: left out, said"

# 600 sites of one probe: over bpftrace's default limit of 512.
python3 - "$T/big.c" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("#include <sys/sdt.h>\nvolatile int sink;\n")
    for i in range(600):
        f.write("__attribute__((noinline)) void f%d(int x) { DTRACE_PROBE1(big, site, x); sink += x; }\n" % i)
    f.write("int main(void)\n{\n")
    for i in range(600):
        f.write("\tf%d(%d);\n" % (i, i))
    f.write("\treturn 0;\n}\n")
PY
$CC -O1 -I"$top_srcdir/include" -o "$T/big" "$T/big.c" || fail "cannot build big.c"
"$SDT_LIST" --bpftrace "$T/big" >"$T/big.bt" || fail "--bpftrace big"
run=$(sed -n 's/^\/\/ Run: //p' "$T/big.bt")
case "$run" in
"BPFTRACE_MAX_PROBES=600 BPFTRACE_MAX_BPF_PROGS=600 bpftrace THIS-FILE -c 'PROGRAM ARGS' (or -p PID)") ;;
*) fail "600 sites: run line $run" ;;
esac
# bpftrace 0.17 attaches 600 probes one by one: 80 to 170 s on two busy
# cores. The time-out only guards against a hang: one that fell while the
# program ran would cut the output short.
BPFTRACE_MAX_PROBES=600 BPFTRACE_MAX_BPF_PROGS=600 timeout 900 bpftrace "$T/big.bt" -c "$T/big" >"$T/big.out" 2>&1
expect_eq "600 sites traced" 600 "$(grep -c '^big:site x=[0-9]*$' "$T/big.out")"
expect_eq "600 distinct values" 600 "$(sed -n 's/^big:site x=//p' "$T/big.out" | sort -u | wc -l)"
note "600 sites: the run line's limits load it, every site fires"

# 300 probes of one site each: bpftrace 0.25 and later (libbpf) attach at
# most 256 argument specs in one run; the program says so, and 0.27 does
# refuse it.
python3 - "$T/many.c" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("#include <sys/sdt.h>\nint main(int argc, char **argv)\n{\n")
    for i in range(300):
        f.write("\tDTRACE_PROBE1(many, p%d, argc + %d);\n" % (i, i))
    f.write("\treturn 0;\n}\n")
PY
$CC -O1 -I"$top_srcdir/include" -o "$T/many" "$T/many.c" || fail "cannot build many.c"
"$SDT_LIST" --bpftrace "$T/many" >"$T/many.bt" || fail "--bpftrace many"
grep -qx '// 300 probes: bpftrace 0.25 and later attach at most 256 .*split the program' "$T/many.bt" ||
	fail "300 probes: no word on the limit: $(head -n 5 "$T/many.bt")"
"$SDT_LIST" --bpftrace "$T/many" 'many:p1*' | grep -q 'at most 256' &&
	fail "111 probes: a word on the limit"
if [ "$(bpftrace_minor)" -ge 24 ] 2>/dev/null; then
	bpftrace_compile "$T/many.elf" "$T/many.bt" &&
		fail "bpftrace $(bpftrace_minor) attached 300 probes: the limit is gone"
	grep -q 'Argument list too long' "$T/.bpftrace.out" ||
		fail "300 probes: not refused for the limit: $(cat "$T/.bpftrace.out")"
	note "300 probes: bpftrace $(bpftrace_minor) refuses them, as the program says"
fi
exit 0
