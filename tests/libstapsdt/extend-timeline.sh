# The measurement of issue 23, redone with providerExtend(): probe jit:a
# fires every 100 ms under `bpftrace -p PID'; at the 21st fire the program
# adds probe b with providerExtend(). bpftrace must count every fire of a,
# before and after the addition (a reload made it miss every later one).
# Afterwards b is listed by `bpftrace -l -p' and `sdt-list -p' (with the
# argument type given with probeSetArgInfo() before the extend), and a
# bpftrace started then traces it. In a memfd and in a file; and, for
# comparison, the same run adding b by unload and load: bpftrace must
# then miss the fires after the 21st (so this test can tell the two).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libstapsdt/lib.sh"
need_bpftrace
export TMPDIR=$T
EHOST=$top_builddir/tests/libstapsdt/extend-host
SDT_LIST=$top_builddir/sdt-list/sdt-list
[ -x "$EHOST" ] || fail "$EHOST is not built"
[ -x "$SDT_LIST" ] || fail "$SDT_LIST is not built"
TRACE_PID=
trap '[ -n "$HOST_PID" ] && kill "$HOST_PID" 2>/dev/null
	[ -n "$TRACE_PID" ] && kill "$TRACE_PID" 2>/dev/null; rm -rf "$T"' EXIT

# wait_for FILE PATTERN WHAT: until a line of FILE matches (60 s).
wait_for() {
	i=0
	until grep -q "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 600 ] || fail "$3: no '$2' in 60 s: $(tail -n 5 "$1")"
		host_alive
		sleep 0.1
	done
}

for mode in memfd file reload; do
	opt=
	[ $mode = file ] && opt=--file
	[ $mode = reload ] && opt=--reload
	start_ready "$EHOST" $opt --wait-end timeline 21 100
	HOST_OBJ=$(sed -n 's/^ready [0-9]* //p' "$T/host.out")
	# The first tracer: every fire of a, until the host fires end.
	# Its BEGIN runs once every probe is attached: then the host starts.
	# a and end are in the load's object.
	timeout 120 bpftrace -p "$HOST_PID" -e "$(bt_script "$HOST_OBJ" 'BEGIN { printf("go\n"); }
		usdt:*:jit:a { printf("a %d\n", arg0); }
		usdt:*:jit:end { exit(); }')" >"$T/a.out" 2>&1 &
	TRACE_PID=$!
	wait_for "$T/a.out" '^go' "$mode: bpftrace"
	kill -USR2 "$HOST_PID"
	wait_for "$T/host.out" '^extended' "$mode: host"

	# Seen by tracers that look after the call.
	list=$("$SDT_LIST" -p "$HOST_PID" 2>&1)
	echo "$list" | grep -q '^jit:b(uint64_t tick) ' ||
		fail "$mode: sdt-list -p misses b or its type: $list"
	bobj=$(echo "$list" | awk '/attach as/ { o = $NF } /^jit:b\(/ { print o; exit }')
	list=$(bpftrace_run -l -p "$HOST_PID" "usdt:$(bt_obj "$bobj"):jit:*")
	echo "$list" | grep -q ':jit:b$' || fail "$mode: bpftrace -l misses b: $list"
	b=$(bpftrace_run -p "$HOST_PID" -e "usdt:$(bt_obj "$bobj"):jit:b { printf(\"b %d\\n\", arg0); exit(); }" |
		grep '^b ')
	echo "$b" | grep -q '^b [0-9][0-9]*$' || fail "$mode: b is not traced: $b"

	kill -USR1 "$HOST_PID"
	if [ $mode = reload ]; then
		# The old object's end probe is gone with it: bpftrace waits.
		sleep 1
		kill -INT "$TRACE_PID" 2>/dev/null
	fi
	wait "$HOST_PID" || fail "$mode: host failed: $(cat "$T/host.out")"
	HOST_PID=
	wait "$TRACE_PID"
	TRACE_PID=
	total=$(sed -n 's/^fires //p' "$T/host.out")
	[ "${total:-0}" -gt 21 ] || fail "$mode: only ${total:-0} fires: $(cat "$T/host.out")"
	seen=$(sed -n 's/^a //p' "$T/a.out")
	if [ $mode = reload ]; then
		expect_eq "reload: fires of a bpftrace saw (1..21)" "$(seq 21)" "$seen"
		note "reload: bpftrace saw fires 1-21 of $total, none after the reload"
		continue
	fi
	expect_eq "$mode: fires of a bpftrace saw (1..$total)" "$(seq "$total")" "$seen"
	note "$mode: bpftrace counted all $total fires of a, extended at 21; then traced $b"
done
left=$(find "$T" -name 'libstapsdt-*')
expect_eq "files left behind" "" "$left"
