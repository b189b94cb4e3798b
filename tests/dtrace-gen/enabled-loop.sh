#!/bin/sh
# _ENABLED() must read the semaphore afresh each time: a loop that spins
# until it turns true, compiled with -O2, has to stay in the loop while no
# tracer is attached and leave it once one attaches. Checked with $CC and,
# if installed, the other of gcc and clang.
#
# SystemTap's header reads the semaphore plainly, so the compiler may do
# what it likes with the empty loop; shown for information only, as it
# differs by compiler: gcc -O2 hoists the read (the loop never notices a
# tracer), clang -O2 deletes the loop outright (C11 6.8.5p6 lets it assume
# a loop with no side effects ends), so the program runs on with no tracer.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"

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

# $CC, then whichever of gcc and clang it is not.
compilers=$CC
for cc in gcc clang; do
	[ "$(basename "${CC%% *}")" = "$cc" ] && continue
	command -v "$cc" >/dev/null 2>&1 && compilers="$compilers
$cc"
done

pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	tr_cleanup
	rm -rf "$T"
}
trap cleanup EXIT
tr_setup "dgloop$$"

# spin_and_attach BIN SECS: start BIN spinning, attach a uprobe with the
# semaphore as ref_ctr, and wait up to SECS for the loop to notice.
# Returns 0 if it did, 1 if it did not, 2 if it left the loop before any
# tracer was attached (then nothing is attached).
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
	if grep -q seen run.out; then
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		pid=
		return 2
	fi
	kill -0 "$pid" 2>/dev/null || fail "$bin died in the loop: $(cat run.out)"
	printf 'p:%s/go %s:%s(%s)\n' "$TR_GRP" "$T/$bin" "$pc_off" "$sema_off" \
		>>"$TRACEFS/uprobe_events" || fail "cannot add the uprobe"
	echo 1 >"$TR_INST/events/$TR_GRP/go/enable" || fail "enable the uprobe"
	wait_for run.out seen 1 "$limit"
	r=$?
	[ $r = 0 ] && wait_for run.out "done" 1 5
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

# for_each_cc FN: FN CC TAG for each compiler (TAG names its binaries).
for_each_cc() {
	_old_ifs=$IFS
	IFS='
'
	set -- "$1" $compilers
	IFS=$_old_ifs
	_fn=$1
	shift
	for _cc; do
		"$_fn" "$_cc" "$(basename "${_cc%% *}")"
	done
}

ours() {
	$1 -O2 -I"$SDT_INCLUDE" -I. -o "loop-$2" loop.c probes.o ||
		fail "build the loop with $1"
	spin_and_attach "loop-$2" 10 </dev/null
	case $? in
	0) ;;
	2) fail "$1 -O2: left the loop with no tracer attached: $(cat run.out)" ;;
	*) fail "$1 -O2: the loop never saw _ENABLED() turn true" ;;
	esac
	hits=$(grep -c ' go: ' "trace.loop-$2")
	[ "$hits" -ge 10 ] ||
		fail "$1 -O2: expected the probe to fire after the loop, saw $hits hits"
	note "dtrace-gen header, $1 -O2: the loop waited, then noticed the tracer"
}

reference() {
	$1 -O2 $STAP_INC -I. -o "stap-$2" stap.c probes.o 2>/dev/null || return 0
	spin_and_attach "stap-$2" 2 </dev/null
	case $? in
	0) note "SystemTap header, $1 -O2: the loop noticed too (the read was kept)" ;;
	1) note "SystemTap header, $1 -O2: the loop never noticed (the read was hoisted)" ;;
	*) note "SystemTap header, $1 -O2: left the loop with no tracer attached (the empty loop was optimized away)" ;;
	esac
}

for_each_cc ours

# For information: the same with SystemTap's dtrace and header.
[ -x /usr/bin/dtrace ] && stap_header "$T/stap-inc" &&
	/usr/bin/dtrace -h -s loop.d -o stap.h >/dev/null 2>&1 || exit 0
sed 's/loop\.h/stap.h/' loop.c >stap.c
for_each_cc reference
exit 0
