# Shared by the tests/usdt tests (after tests/lib.sh).
USDT_SRC=$top_srcdir/tests/usdt
SDT_LIST=$top_builddir/sdt-list/sdt-list
[ -x "$SDT_LIST" ] || fail "$SDT_LIST is not built"

# check_clean FILE...: every probe of each FILE passes the strict spec
# validator and sdt-list --check (readable by libbpf, bcc/bpftrace, gdb
# and perf).
check_clean() {
	for f; do
		"$SDT_NOTES" "$f" >"$T/.notes" 2>"$T/.notes.err" ||
			fail "${f##*/}: the validator refuses a spec: $(cat "$T/.notes.err")"
		[ -s "$T/.notes" ] || fail "${f##*/}: no probes"
		"$SDT_LIST" --check "$f" >"$T/.check" 2>&1 ||
			fail "${f##*/}: sdt-list --check: $(cat "$T/.check")"
	done
}

# wait_count FILE LINE N PID WHAT: until FILE holds the exact LINE N times
# (20 s); fails if process PID dies first.
wait_count() {
	i=0
	while [ "$(grep -cxF "$2" "$1" 2>/dev/null)" -lt "$3" ]; do
		i=$((i + 1))
		[ $i -lt 400 ] ||
			fail "$5: '$2' not seen $3 times in 20 s: $(tail -n 5 "$1")"
		kill -0 "$4" 2>/dev/null || fail "$5: process $4 died: $(tail -n 5 "$1")"
		sleep 0.05
	done
}

# stop_pid PID: SIGTERM (timeout passes it on) and wait for it.
stop_pid() {
	kill -TERM "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 0
}
