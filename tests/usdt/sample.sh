#!/bin/sh
# samples/usdt/jobs, one C file with an implicit semaphore and no .d file:
# sdt-list --check finds every probe readable, and the bpftrace program
# sdt-list --bpftrace writes traces it: run by bpftrace (-c) every job's
# report is traced; alone, none; attached by -p to the running program,
# the report is traced while bpftrace runs and untraced again after.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libbpf/lib.sh"
. "$top_srcdir/tests/usdt/lib.sh"
LC_ALL=C
export LC_ALL
JOBS=$top_builddir/samples/usdt/jobs
[ -x "$JOBS" ] || fail "$JOBS is not built"

"$SDT_LIST" --check "$JOBS" >"$T/check" 2>&1 ||
	fail "sdt-list --check: $(cat "$T/check")"
expect_eq "sdt-list: the sample's probes" \
	"jobs:done jobs:report jobs:start" \
	"$(grep -v ': check passed: ' "$T/check" | awk '{ sub(/\(.*/, "", $1); print $1 }' |
		sort | tr '\n' ' ' | sed 's/ $//')"
grep -q "^$JOBS: check passed: 3 probes, 3 sites: " "$T/check" ||
	fail "no check verdict line: $(cat "$T/check")"
grep -q '^jobs:report(.*semaphore' "$T/check" || fail "jobs:report has no semaphore: $(cat "$T/check")"

"$JOBS" 3 0 >"$T/alone" || fail "jobs failed"
expect_eq "untraced run" "3" "$(grep -c 'report untraced$' "$T/alone")"

need_bpftrace
"$SDT_LIST" --bpftrace "$JOBS" >"$T/jobs.bt" || fail "sdt-list --bpftrace failed"
bpftrace_run "$T/jobs.bt" -c "$JOBS 3 50" >"$T/traced" ||
	fail "bpftrace with sdt-list's program: $(cat "$T/traced")"
expect_eq "traced run: reports" 3 "$(grep -c 'report traced$' "$T/traced")"
for id in 1 2 3; do
	grep -q "^jobs:start id=$id size=${id}000\$" "$T/traced" ||
		fail "bpftrace did not read jobs:start $id: $(cat "$T/traced")"
	# The text is a char *: the record <usdt.h> writes makes it a str().
	grep -q "^jobs:report id=$id text=job $id: ${id}000 bytes, status 0\$" "$T/traced" ||
		fail "bpftrace did not read jobs:report $id: $(cat "$T/traced")"
	grep -q "^jobs:done id=$id status=0\$" "$T/traced" ||
		fail "bpftrace did not read jobs:done $id: $(cat "$T/traced")"
done

# Attached to the running program and detached again.
PROG_PID= TR_PID=
trap '[ -n "$PROG_PID" ] && kill -9 "$PROG_PID" 2>/dev/null
	[ -n "$TR_PID" ] && kill -9 "$TR_PID" 2>/dev/null; rm -rf "$T"' EXIT
"$JOBS" 100000 20 >"$T/run" 2>&1 &
PROG_PID=$!
wait_line "$T/run" 'report untraced' "$PROG_PID" "jobs"
timeout 60 bpftrace -p "$PROG_PID" "$T/jobs.bt" >"$T/bt" 2>&1 &
TR_PID=$!
wait_line "$T/run" 'report traced$' "$PROG_PID" "jobs under bpftrace -p"
wait_line "$T/bt" '^jobs:report' "$TR_PID" "bpftrace -p"
stop_pid "$TR_PID"
TR_PID=
last=$(wc -l <"$T/run")
wait_count "$T/run" "job $((last + 3)) report untraced" 1 "$PROG_PID" "jobs after bpftrace left"
kill "$PROG_PID"
wait "$PROG_PID" 2>/dev/null
PROG_PID=
echo "PASS: the sample traces with sdt-list --bpftrace; USDT_IS_ACTIVE only while traced"
