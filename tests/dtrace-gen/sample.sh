#!/bin/sh
# The autotools sample (samples/autotools) configured and built with
# DTRACE=dtrace-gen in a scratch directory, then traced two ways while it
# runs: a raw tracefs uprobe with a reference counter on the semaphore,
# and bpftrace. Each time, _ENABLED() must turn true while attached and
# false after, and the arguments read back must be the ones the program
# says it passed.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"

need_cmd autoreconf make awk
[ "$(uname -m)" = x86_64 ] || skip "the fetch-argument translation is for x86-64"
need_tracefs

cp -R "$top_srcdir/samples/autotools" "$T/src" || fail "copy sample"
chmod -R u+w "$T/src"
rm -f "$T/src/local.mk"
cd "$T/src" || fail "cd"
autoreconf -fi >"$T/autoreconf.log" 2>&1 ||
	{ cat "$T/autoreconf.log"; fail "autoreconf -fi in the sample"; }
./configure DTRACE="$DG" SDT_LIST="$top_builddir/sdt-list/sdt-list" \
	CC="$CC" CPPFLAGS="-I$top_srcdir/include" \
	>"$T/configure.log" 2>&1 ||
	{ cat "$T/configure.log" config.log; fail "configure the sample"; }
grep -q "^DTRACE = $DG\$" Makefile || fail "configure did not take DTRACE=$DG"
make >"$T/make.log" 2>&1 || { cat "$T/make.log"; fail "make the sample"; }
grep -q "dtrace-gen -C -h" "$T/make.log" || fail "probes.h was not made by dtrace-gen"
grep -q "dtrace-gen -G" "$T/make.log" || fail "probes.o was not made by dtrace-gen"
# make check: sdt-list --against probes.d passes on the sample.
make check >"$T/check.log" 2>&1 || { cat "$T/check.log"; fail "make check in the sample"; }
grep -q '3 probes declared: 3 present as declared' "$T/check.log" ||
	{ cat "$T/check.log"; fail "make check did not run sdt-list --against"; }
BIN=$T/src/sdt-sample

# Every probe has its semaphore, and it lives in .probes.
"$SDT_NOTES" --offsets "$BIN" >"$T/notes" || fail "sdt-notes on the sample"
cat "$T/notes"
expect_eq "probes" "sample:request__done
sample:request__start
sample:tick" "$(awk '{print $1}' "$T/notes" | sort)"
grep -q 'sema=0x0 ' "$T/notes" && fail "a probe has no semaphore"
line=$(grep '^sample:request__start ' "$T/notes")
pc_off=$(echo "$line" | sed 's/.*pc_off=\(0x[0-9a-f]*\).*/\1/')
sema_off=$(echo "$line" | sed 's/.*sema_off=\(0x[0-9a-f]*\).*/\1/')
id_spec=$(probe_arg "$BIN" sample:request__start 1)
path_spec=$(probe_arg "$BIN" sample:request__start 2)
id_arg=$(spec_fetcharg "$id_spec")
path_arg=$(spec_fetcharg "$path_spec")
[ -n "$id_arg" ] && [ -n "$path_arg" ] ||
	skip "tracefs cannot fetch $id_spec / $path_spec"
path_arg="+0(${path_arg%:*}):string"

"$BIN" 100000 >"$T/run.out" 2>&1 &
pid=$!
cleanup() {
	kill "$pid" 2>/dev/null
	tr_cleanup
	rm -rf "$T"
}
trap cleanup EXIT
wait_for "$T/run.out" '^ready' || fail "the sample did not start"
sleep 0.3
grep -q enabled "$T/run.out" && fail "request__start enabled before any tracer"

# Tracer 1: tracefs uprobe, the kernel counting the semaphore.
tr_setup "dgsample$$"
printf 'p:%s/req %s:%s(%s) id=%s path=%s\n' "$TR_GRP" "$BIN" "$pc_off" \
	"$sema_off" "$id_arg" "$path_arg" >>"$TRACEFS/uprobe_events" ||
	fail "cannot add uprobe with ref_ctr: $BIN:$pc_off($sema_off)"
echo 1 >"$TR_INST/events/$TR_GRP/req/enable" || fail "enable uprobe"
wait_for "$T/run.out" 'request__start enabled' 1 ||
	fail "_ENABLED() stayed false with a tracefs uprobe attached"
sleep 0.5
echo 0 >"$TR_INST/events/$TR_GRP/req/enable"
wait_for "$T/run.out" 'request__start disabled' 1 ||
	fail "_ENABLED() stayed true after the uprobe was disabled"
sed -n 's/.* req: ([^)]*) id=\([-0-9]*\) path="\(.*\)"$/fired \1 \2/p' \
	"$TR_INST/trace" >"$T/tracefs.got"
tr_cleanup
n=$(wc -l <"$T/tracefs.got")
[ "$n" -ge 3 ] || { cat "$TR_INST/trace" 2>/dev/null; fail "tracefs saw $n hits"; }
grep '^fired ' "$T/run.out" >"$T/fired"
bad=$(grep -vxF -f "$T/fired" "$T/tracefs.got")
[ -z "$bad" ] || fail "tracefs read arguments the program did not pass: $bad"
note "tracefs: $n hits, arguments exact"

# Tracer 2: bpftrace, attached to the running process.
need_bpftrace
before=$(grep -c '^fired ' "$T/run.out")
bpftrace_run -p "$pid" -e "usdt:$BIN:sample:request__start {
	printf(\"fired %d %s\\n\", arg0, str(arg1)); }
	interval:ms:1500 { exit(); }" >"$T/bpf.out"
grep '^fired ' "$T/bpf.out" >"$T/bpf.got"
wait_for "$T/run.out" 'request__start enabled' 2 ||
	{ cat "$T/bpf.out"; fail "_ENABLED() stayed false with bpftrace attached"; }
wait_for "$T/run.out" 'request__start disabled' 2 ||
	fail "_ENABLED() stayed true after bpftrace detached"
n=$(wc -l <"$T/bpf.got")
[ "$n" -ge 3 ] || { cat "$T/bpf.out"; fail "bpftrace saw $n hits"; }
grep '^fired ' "$T/run.out" >"$T/fired"
bad=$(grep -vxF -f "$T/fired" "$T/bpf.got")
[ -z "$bad" ] || fail "bpftrace read arguments the program did not pass: $bad"
note "bpftrace: $n hits, arguments exact (program fired $before before)"
exit 0
