#!/bin/sh
# _ENABLED() must read the semaphore afresh each time: a loop that spins
# until it turns true, compiled with -O2, has to end once a tracer
# attaches while it spins. (SystemTap's header reads it plainly, and gcc
# -O2 hoists that read out of the loop: shown below for information.)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/dg-lib.sh"

need_tracefs
cd "$T" || fail "cd"
cat >loop.d <<'D'
provider loop { probe go(int); };
D
cat >loop.c <<'C'
#include <stdio.h>
#include <unistd.h>
#include "loop.h"

int main(void)
{
	puts("waiting");
	fflush(stdout);
	while (!LOOP_GO_ENABLED())
		;
	puts("seen");
	fflush(stdout);
	/* The kernel counts the semaphore up just before it plants the
	 * breakpoint: give it a moment before firing. */
	for (int i = 0; i < 20; i++) {
		usleep(10000);
		LOOP_GO(42);
	}
	puts("done");
	return 0;
}
C
"$DG" -h -s loop.d -o loop.h || fail "dtrace-gen -h"
"$DG" -G -s loop.d -o probes.o || fail "dtrace-gen -G"
$CC -O2 -I"$SDT_INCLUDE" -I. -o loop loop.c probes.o || fail "build the loop"

pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	tr_cleanup
	rm -rf "$T"
}
trap cleanup EXIT
tr_setup "dgloop$$"

# Start it spinning, attach a uprobe with the semaphore as ref_ctr, and
# wait for the loop to notice. Returns 0 if it did within SECS.
spin_and_attach() {
	bin=$1 limit=$2
	"$SDT_NOTES" --offsets "$bin" >notes || fail "sdt-notes $bin"
	pc_off=$(sed -n 's/^loop:go .*pc_off=\(0x[0-9a-f]*\).*/\1/p' notes)
	sema_off=$(sed -n 's/^loop:go .*sema_off=\(0x[0-9a-f]*\).*/\1/p' notes)
	[ -n "$pc_off" ] && [ -n "$sema_off" ] || fail "no loop:go probe: $(cat notes)"
	: >run.out
	"./$bin" >run.out 2>&1 &
	pid=$!
	wait_for run.out waiting || fail "$bin did not start"
	sleep 0.3
	grep -q seen run.out && fail "$bin left the loop with no tracer"
	printf 'p:%s/go %s:%s(%s)\n' "$TR_GRP" "$T/$bin" "$pc_off" "$sema_off" \
		>>"$TRACEFS/uprobe_events" || fail "cannot add the uprobe"
	echo 1 >"$TR_INST/events/$TR_GRP/go/enable" || fail "enable the uprobe"
	wait_for run.out seen 1 "$limit"
	r=$?
	[ $r = 0 ] && wait_for run.out done 1 5
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	pid=
	echo 0 >"$TR_INST/events/$TR_GRP/go/enable"
	# Read the hits while the event still exists to name them.
	cat "$TR_INST/trace" >"trace.$bin"
	echo >"$TR_INST/trace"
	echo "-:$TR_GRP/go" >>"$TRACEFS/uprobe_events"
	return $r
}

spin_and_attach loop 10 || fail "the -O2 loop never saw _ENABLED() turn true"
hits=$(grep -c ' go: ' trace.loop)
[ "$hits" -ge 10 ] || fail "expected the probe to fire after the loop, saw $hits hits"
note "dtrace-gen header: the spinning loop noticed the tracer"

# For information: the same with SystemTap's dtrace and header.
if [ -x /usr/bin/dtrace ] && [ -e /usr/include/x86_64-linux-gnu/sys/sdt.h ] &&
	/usr/bin/dtrace -h -s loop.d -o stap.h >/dev/null 2>&1; then
	sed 's/loop\.h/stap.h/' loop.c >stap.c
	if $CC -O2 -I. -o stap stap.c probes.o 2>/dev/null; then
		if spin_and_attach stap 2; then
			note "SystemTap header: the loop noticed too (this compiler kept the read)"
		else
			note "SystemTap header: the loop never noticed (read hoisted by -O2)"
		fi
	fi
fi
exit 0
