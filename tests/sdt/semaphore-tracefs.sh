#!/bin/sh
# A semaphore-guarded probe through a raw tracefs uprobe with a reference
# counter (PATH:0xPC_OFF(0xSEMA_OFF), offsets from sdt-notes --offsets):
# the kernel counts the semaphore up while the event is enabled, the probe
# fires into the event's buffer, and the semaphore is back to 0 after.
. "$top_srcdir/tests/lib.sh"
need_tracefs

exe=$T/semaphore
$CC -I"$SDT_INCLUDE" -O2 -Wall -Wextra -o "$exe" \
	"$top_srcdir/tests/sdt/semaphore.c" || fail "build"
line=$("$SDT_NOTES" --offsets "$exe" | grep '^sem:hit ') ||
	fail "sdt-notes finds no sem:hit probe"
pc=$(echo "$line" | sed -n 's/.* pc_off=\(0x[0-9a-f]*\).*/\1/p')
sema=$(echo "$line" | sed -n 's/.* sema_off=\(0x[0-9a-f]*\).*/\1/p')
[ -n "$pc" ] && [ -n "$sema" ] && [ "$sema" != 0x0 ] ||
	fail "no offsets in: $line"

grp=sdt_sem_$$
inst=$TRACEFS/instances/$grp
cleanup() {
	echo 0 >"$inst/events/$grp/hit/enable" 2>/dev/null
	touch "$T/stop"
	rmdir "$inst" 2>/dev/null
	echo "-:$grp/hit" >>"$TRACEFS/uprobe_events" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

"$exe" "$T/status" "$T/stop" &
pid=$!

# status file: "SEMAPHORE FIRED"; wait until it says $1 (0 or nonzero).
wait_semaphore() {
	i=0
	while [ $i -lt 400 ]; do
		s=$(cut -d' ' -f1 "$T/status" 2>/dev/null)
		case "$1:$s" in
		0:0 | up:[1-9]*) return 0 ;;
		esac
		sleep 0.05
		i=$((i + 1))
	done
	fail "semaphore stayed at '$s', expected $1"
}

wait_semaphore 0
echo "p:$grp/hit $exe:$pc($sema) n=%di:u64" >>"$TRACEFS/uprobe_events" ||
	fail "the kernel refuses p:$grp/hit $exe:$pc($sema)"
mkdir "$inst" || fail "cannot create tracefs instance $inst"
echo 1 >"$inst/events/$grp/hit/enable" || fail "cannot enable $grp/hit"
wait_semaphore up
sleep 0.3
hits=$(grep -c "hit:" "$inst/trace")
[ "$hits" -gt 0 ] || fail "semaphore counted up but the probe never hit"
echo 0 >"$inst/events/$grp/hit/enable"
wait_semaphore 0
fired=$(cut -d' ' -f2 "$T/status")
touch "$T/stop"
wait $pid || fail "the probed program failed"
echo "PASS: semaphore up while enabled, $hits hits of $fired fired, back to 0"
