# Shared by the libstapsdt shell tests (after tests/lib.sh): run the probe
# host, wait until it has loaded its provider, stop it on exit.
HOST=$top_builddir/tests/libstapsdt/probe-host
LIBTOOL=$top_builddir/libtool
HOST_PID=
trap '[ -n "$HOST_PID" ] && kill "$HOST_PID" 2>/dev/null; rm -rf "$T"' EXIT

# start_ready CMD...: runs CMD in the background (HOST_PID, output in
# $T/host.out) and waits until it prints "ready".
start_ready() {
	: >"$T/host.out"
	"$@" >"$T/host.out" 2>&1 &
	HOST_PID=$!
	i=0
	while ! have_ready "$T/host.out"; do
		i=$((i + 1))
		[ $i -lt 600 ] || fail "$1 did not get ready: $(cat "$T/host.out")"
		kill -0 "$HOST_PID" 2>/dev/null || fail "$1 died: $(cat "$T/host.out")"
		sleep 0.1
	done
}

# start_host [probe-host options]: sets HOST_PID and HOST_OBJ (the path the
# object was loaded from), output in $T/host.out.
start_host() {
	[ -x "$HOST" ] || fail "$HOST is not built"
	start_ready "$HOST" "$@"
	HOST_OBJ=$(sed -n 's/^ready [0-9]* //p' "$T/host.out")
}

stop_host() {
	kill "$HOST_PID" 2>/dev/null
	wait "$HOST_PID" 2>/dev/null
	HOST_PID=
}

# host_alive: the host has not crashed.
host_alive() {
	kill -0 "$HOST_PID" 2>/dev/null || fail "probe-host died: $(tail -n 5 "$T/host.out")"
}

# listed_while_unloaded PATTERN CMD...: with a --cycle host running, runs
# CMD (a listing of $HOST_PID) until one run falls wholly inside an
# unloaded phase (no cycle while it ran) and checks that no line of it
# matches PATTERN; runs inside a loaded phase must match it.
listed_while_unloaded() {
	pattern=$1; shift
	for try in $(seq 60); do
		before=$(wc -l <"$T/host.out")
		state=$(tail -n 1 "$T/host.out")
		out=$("$@" 2>&1)
		if [ "$(wc -l <"$T/host.out")" = "$before" ]; then
			n=$(echo "$out" | grep -c "$pattern")
			case $state in
			unloaded) expect_eq "$1: lines while unloaded" 0 "$n"; return 0 ;;
			*) [ "$n" -gt 0 ] || fail "$1 lists nothing while loaded: $out" ;;
			esac
		fi
		sleep 0.2
	done
	fail "$1 never listed while unloaded: $(cat "$T/host.out")"
}

# expect_hits OUT WORD SUFFIX: OUT has lines "WORD N SUFFIX-N" (a probe's
# two arguments, as the tracer printed them), and no other WORD lines.
expect_hits() {
	echo "$1" | grep -q "^$2 \([0-9]*\) $3-\1\$" ||
		fail "no $2 hit with its arguments: $1"
	! echo "$1" | grep "^$2 " | grep -qv "^$2 \([0-9]*\) $3-\1\$" ||
		fail "a $2 hit with wrong arguments: $1"
}

