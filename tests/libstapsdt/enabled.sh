# probeIsEnabled() turns 1 while a tracer is attached and back to 0 after:
# bpftrace (counts the semaphore and plants a breakpoint), a raw tracefs
# uprobe with a ref_ctr offset (semaphore counted by the kernel), and raw
# uprobes without one, at the note's PC and at the 5-byte nop after it
# (only the stub's bytes change). The host checks that the header's inline
# probeIsEnabled() and the library's function always agree.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libstapsdt/lib.sh"
need_bpftrace
export TMPDIR=$T

# wait_state N: the host's last "enabled" report is N (within 60 s).
wait_state() {
	i=0
	while [ "$(grep '^enabled' "$T/host.out" | tail -n 1 | cut -d' ' -f2)" != "$1" ]; do
		[ "$1" = 0 ] && ! grep -q '^enabled' "$T/host.out" && return 0
		i=$((i + 1))
		[ $i -lt 600 ] || fail "probeIsEnabled did not become $1: $(cat "$T/host.out")"
		sleep 0.1
	done
}

# bpftrace, on both placements.
for mode in memfd file; do
	if [ $mode = file ]; then start_host --file; else start_host; fi
	sleep 0.2
	grep -q '^enabled 1' "$T/host.out" && fail "$mode: enabled before any tracer"
	# Attached until the host has seen it, however long that takes.
	bpftrace_until "$T/bt.out" 'grep -q "^enabled 1" "$T/host.out"' \
		-p "$HOST_PID" -e "usdt:$(bt_obj "$HOST_OBJ"):sdttest:a1 { @hits = count(); }"
	grep -q '^enabled 1' "$T/host.out" ||
		fail "$mode: probeIsEnabled never became 1 under bpftrace: $(cat "$T/host.out" "$T/bt.out")"
	wait_state 0
	note "$mode under bpftrace: $(grep '^enabled' "$T/host.out" | tr '\n' ' ')"
	host_alive
	stop_host
done

# Raw tracefs uprobes. With a ref_ctr offset only the semaphore says
# "traced" until the first hit, and the kernel counts it; without one the
# semaphore stays 0, and the breakpoint (or the optimized uprobe's call) in
# the stub, at the PC or at the 5-byte nop after it, is what
# probeIsEnabled() sees.
need_tracefs
start_host --file
line=$("$SDT_NOTES" --offsets "$HOST_OBJ" | grep '^sdttest:a1 ') || fail "no note for sdttest:a1 in $HOST_OBJ"
pc=$(echo "$line" | sed -n 's/.* pc_off=\(0x[0-9a-f]*\).*/\1/p')
sema=$(echo "$line" | sed -n 's/.* sema_off=\(0x[0-9a-f]*\).*/\1/p')
[ -n "$pc" ] && [ -n "$sema" ] || fail "cannot read offsets: $line"
grp=lsdt_enabled_$$
cleanup_uprobe() {
	[ -n "$HOST_PID" ] && kill "$HOST_PID" 2>/dev/null
	if [ -d "$TRACEFS/events/$grp" ]; then
		echo 0 >"$TRACEFS/events/$grp/enable"
		echo "-:$grp/a1" >>"$TRACEFS/uprobe_events"
	fi 2>/dev/null
	rm -rf "$T"
}
trap cleanup_uprobe EXIT
for at in "ref_ctr:$pc($sema)" "pc:$pc" "pc1:$(printf '0x%x' $((pc + 1)))"; do
	what=${at%%:*} off=${at#*:}
	echo "p:$grp/a1 $HOST_OBJ:$off" >>"$TRACEFS/uprobe_events" ||
		fail "tracefs refused p:$grp/a1 $HOST_OBJ:$off"
	echo 1 >"$TRACEFS/events/$grp/enable" || fail "cannot enable $grp ($what)"
	wait_state 1
	sleep 0.3
	echo 0 >"$TRACEFS/events/$grp/enable"
	wait_state 0
	echo "-:$grp/a1" >>"$TRACEFS/uprobe_events"
	note "tracefs uprobe, $what: $(grep '^enabled' "$T/host.out" | tr '\n' ' ')"
done
grep -q '^mismatch' "$T/host.out" && fail "inline probeIsEnabled() and the library's disagreed"
host_alive
