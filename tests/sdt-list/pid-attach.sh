#!/bin/sh
# What sdt-list prints for tracers to open in a process (-p, -a; --perf,
# --bpftrace, --json) reaches the file the process maps, never a decoy the
# process's owner put at its name:
#  - a process in its own mount namespace maps app, then mounts over its
#    directory and leaves a link of the same name to a decoy (our
#    namespace still has app there; then one where it has another file);
#  - a file named with a newline (maps writes `\012') beside a link named
#    with the four characters `\012' to the decoy, and the other way round;
#  - a deleted file beside a link named as maps shows it, "NAME (deleted)";
#  - a process in a chroot.
# Where a command is printed, perf and bpftrace run it and the events come
# from the process itself; where none is, the reason is on stderr.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_root
need_tracefs
need_cmd unshare timeout perf bpftrace stat
tracefs_lock # the printed commands name sdt_pidattach
unshare -m true 2>/dev/null || skip "cannot make a mount namespace here"
PIDS=
INST=$TRACEFS/instances/sdtkit-pid-attach-$$
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	[ -d "$INST" ] && {
		echo 0 >"$INST/events/enable" 2>/dev/null
		rmdir "$INST" 2>/dev/null
	}
	perf probe -q -d 'sdt_pidattach:*' 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

# The program: pidattach:tick and pidattach:plain (with semaphores),
# fired every 10 ms; prints "ready PID" first. The decoy has the same
# probes at other offsets.
cat >"$T/app.c" <<'C'
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#include <stdio.h>
#include <unistd.h>
unsigned short pidattach_tick_semaphore __attribute__((section(".probes")));
unsigned short pidattach_plain_semaphore __attribute__((section(".probes")));
#ifdef DECOY
__attribute__((used, noinline)) void padding(void)
{
	__asm__ volatile(".fill 4096, 1, 0x90");
}
#endif
int main(int argc, char **argv)
{
	(void)argv;
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (;;) {
		STAP_PROBE1(pidattach, tick, argc);
		STAP_PROBE1(pidattach, plain, argc);
		usleep(10000);
	}
}
C
$CC -O2 -I"$top_srcdir/include" -o "$T/app" "$T/app.c" || fail "cannot build app"
$CC -O2 -DDECOY -I"$top_srcdir/include" -o "$T/decoy" "$T/app.c" ||
	fail "cannot build the decoy"
cp "$T/decoy" "$T/decoy2"
"$SDT_LIST" "$T/app" | grep -q '^pidattach:tick.*semaphore' ||
	fail "app has no pidattach:tick with a semaphore: $("$SDT_LIST" "$T/app")"

id() { stat -L -c %d:%i "$1" 2>/dev/null; }

# wait_file FILE PATTERN: until FILE has a line matching PATTERN (60 s).
wait_file() {
	i=0
	until grep -q -e "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 600 ] || fail "timed out waiting for $2 in $1: $(cat "$1" 2>&1)"
		sleep 0.1
	done
}

# run WHAT ARGS...: sdt-list ARGS into $T/out, $T/err; $rc its status.
run() {
	what=$1
	shift
	# Only our probes: the C library has its own on some systems.
	case " $* " in
	*" pidattach:*"*) ;;
	*) set -- "$@" 'pidattach:*' ;;
	esac
	timeout 60 "$SDT_LIST" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -lt 124 ] || fail "$what: sdt-list $*: died or blocked ($rc): $(cat "$T/err")"
}

# paths_reach WANT: every path $T/out gives a tracer (perf -x, uprobe_events,
# usdt:, JSON attach/paths) is the file WANT (device:inode); prints them.
paths_reach() {
	python3 - "$T/out" <<'PY' >"$T/paths" || fail "$what: cannot read the output: $(cat "$T/out")"
import json, re, sys
text = open(sys.argv[1]).read()
paths = re.findall(r"-x '([^']*)'", text)
paths += re.findall(r"^echo 'p:\S+ ([^:]+):", text, re.M)
paths += re.findall(r'usdt:"([^"]*)"', text)
try:
    doc = json.loads(text)
except ValueError:
    doc = None
if isinstance(doc, list):
    paths += [s["attach"] for s in doc if s.get("attach")]
elif isinstance(doc, dict):
    for o in doc["objects"]:
        paths += [p for p in o["paths"] if p]
for p in paths:
    print(p.encode("unicode_escape").decode())
PY
	[ -s "$T/paths" ] || return 0
	while IFS= read -r p; do
		p=$(printf '%b' "$p")
		got=$(id "$p")
		[ "$got" = "$1" ] || fail "$what: the output names $p ($got), not the mapped file ($1): $(cat "$T/out")"
	done <"$T/paths"
}

# left_out: the last run wrote no command and said why on stderr.
left_out() {
	[ $rc = 2 ] || fail "$what: status $rc, not 2: $(cat "$T/out" "$T/err")"
	grep -q 'left out' "$T/err" || fail "$what: no reason on stderr: $(cat "$T/err")"
	grep -Eq "^perf probe|^echo 'p:|^usdt:" "$T/out" &&
		fail "$what: a command was printed: $(cat "$T/out")"
	:
}

# perf_hits PID: run $T/out's perf commands, enable the events in a tracefs
# instance of our own and wait for one hit from PID.
perf_hits() {
	grep -E "^perf (buildid-cache|probe)|^echo 'p:" "$T/out" | grep -q . ||
		fail "$what: no perf command: $(cat "$T/out")"
	mkdir -p "$T/bid"
	grep -E "^perf (buildid-cache|probe)" "$T/out" |
		sed "s|^perf |perf --buildid-dir $T/bid |" >"$T/perf.sh"
	grep "^echo 'p:" "$T/out" >>"$T/perf.sh"
	sh -e "$T/perf.sh" >"$T/perf.out" 2>&1 || fail "$what: perf commands failed: $(cat "$T/perf.out")"
	mkdir "$INST" || fail "cannot make a tracefs instance"
	echo 1 >"$INST/events/sdt_pidattach/enable" || fail "$what: no sdt_pidattach events"
	wait_file "$INST/trace" "-$1 .* \(tick\|plain\): "
	echo 0 >"$INST/events/sdt_pidattach/enable"
	rmdir "$INST"
	perf probe -q -d 'sdt_pidattach:*' >/dev/null 2>&1
	note "$what: perf's events fire in pid $1"
}

# bpftrace_hits PID [ARGS]: bpftrace runs $T/out (ARGS: -p PID) and prints
# a line for a hit from PID.
bpftrace_hits() {
	pid=$1
	shift
	grep -q '^usdt:' "$T/out" || fail "$what: no bpftrace program: $(cat "$T/out")"
	timeout 120 bpftrace "$@" "$T/out" >"$T/bt.out" 2>&1 &
	bpid=$!
	PIDS="$PIDS $bpid"
	i=0
	until grep -q "^pidattach:plain argc=" "$T/bt.out"; do
		kill -0 $bpid 2>/dev/null || fail "$what: bpftrace ended: $(cat "$T/bt.out")"
		i=$((i + 1))
		[ $i -lt 1200 ] || fail "$what: no hit under bpftrace: $(cat "$T/bt.out")"
		sleep 0.1
	done
	kill -INT $bpid
	wait $bpid
	note "$what: bpftrace sees pid $pid's probes"
}

# start_ns DIR COVER: app in a mount namespace of its own, as $DIR/app
# (bind-mounted there when COVER=bind, over our $DIR/app); once it runs, a
# tmpfs over DIR holds a link app -> the decoy. HOST_PID: its pid.
start_ns() {
	rm -f "$T/ns.out"
	unshare -m --propagation private sh -c '
		[ "$2" = bind ] && { mount --bind "$3/app" "$1/app" || exit 1; }
		"$1/app" >"$3/ns.out" 2>&1 &
		i=0
		until grep -q "^ready" "$3/ns.out" 2>/dev/null; do
			i=$((i + 1)); [ $i -lt 600 ] || exit 1; sleep 0.1
		done
		mount -t tmpfs none "$1" && ln -s "$3/decoy" "$1/app" || exit 1
		echo covered >>"$3/ns.out"
		wait' sh "$1" "$2" "$T" &
	PIDS="$PIDS $!"
	wait_file "$T/ns.out" '^covered'
	HOST_PID=$(sed -n 's/^ready \([0-9]*\)$/\1/p' "$T/ns.out")
	PIDS="$PIDS $HOST_PID"
}

APP=$(id "$T/app")

# 1. Our namespace has app at the name: that path, never the link.
mkdir "$T/d"
cp "$T/app" "$T/d/app"
start_ns "$T/d" tmpfs
REAL=$(id "$T/d/app")
what="mount namespace, -p --perf"
run "$what" -p "$HOST_PID" --perf
[ $rc = 0 ] || fail "$what: status $rc: $(cat "$T/err")"
paths_reach "$REAL"
grep -q "^perf probe -x '$T/d/app' -a sdt_pidattach:tick\$" "$T/out" ||
	fail "$what: not attached by $T/d/app: $(cat "$T/out")"
perf_hits "$HOST_PID"
what="mount namespace, -p --bpftrace (bpftrace -p would follow the link)"
run "$what" -p "$HOST_PID" --bpftrace
left_out
what="mount namespace, -p --json"
run "$what" -p "$HOST_PID" --json
paths_reach "$REAL"
for fmt in --perf --bpftrace --json; do
	what="mount namespace, -a $fmt"
	run "$what" -a $fmt 'pidattach:*'
	paths_reach "$REAL"
	grep -q "$T/d/app" "$T/out" || fail "$what: $T/d/app not named: $(cat "$T/out")"
done
kill "$HOST_PID"

# 2. Our namespace has another file at the name: only map_files reaches
# the mapped one, which perf would resolve by its text.
mkdir "$T/x"
cp "$T/decoy2" "$T/x/app"
start_ns "$T/x" bind
what="another file at the name, -p --json"
run "$what" -p "$HOST_PID" --json
paths_reach "$APP"
grep -q "\"attach\":\"/proc/$HOST_PID/map_files/" "$T/out" ||
	fail "$what: not attached through map_files: $(head -c 400 "$T/out")"
what="another file at the name, -p --perf (perf resolves links by text)"
run "$what" -p "$HOST_PID" --perf
left_out
what="another file at the name, -p --bpftrace (bpftrace -p finds no probe by map_files)"
run "$what" -p "$HOST_PID" --bpftrace
left_out
what="another file at the name, -a --bpftrace"
run "$what" -a --bpftrace 'pidattach:*'
paths_reach "$APP"
bpftrace_hits "$HOST_PID"
what="another file at the name, -a --perf"
run "$what" -a --perf 'pidattach:*'
left_out
kill "$HOST_PID"

# 3. maps writes a newline as `\012'; a link may be named with those four
# characters. Each way round, only the mapped file is named.
mkdir "$T/e"
nl='
'
for real in "app${nl}x" 'app\012y'; do
	case $real in
	*x) link='app\012x' ;;
	*) link="app${nl}y" ;;
	esac
	cp "$T/app" "$T/e/$real"
	ln -s "$T/decoy" "$T/e/$link"
	"$T/e/$real" >"$T/e.out" 2>&1 &
	PIDS="$PIDS $!"
	wait_file "$T/e.out" '^ready'
	pid=$(sed -n 's/^ready \([0-9]*\)$/\1/p' "$T/e.out")
	want=$(id "$T/e/$real")
	for args in "-p $pid --json" "-a --json pidattach:*" "-p $pid --perf" "-p $pid --bpftrace"; do
		what="a name with \\012 ($(printf %s "$real" | od -An -c | tr -s ' ')): $args"
		# shellcheck disable=SC2086
		run "$what" $args
		paths_reach "$want"
	done
	run "-p --json" -p "$pid" --json
	python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); sys.exit(s[0]["file"] != sys.argv[2])' \
		"$T/out" "$T/e/$real" || fail "the name is not the mapped file's: $(head -c 300 "$T/out")"
	kill "$pid"
done

# 4. A deleted file, whose name in maps ends in " (deleted)", and a link
# of that very name to the decoy: the process's map_files, never the link.
cp "$T/app" "$T/victim"
want=$(id "$T/victim")
"$T/victim" >"$T/v.out" 2>&1 &
PIDS="$PIDS $!"
wait_file "$T/v.out" '^ready'
pid=$(sed -n 's/^ready \([0-9]*\)$/\1/p' "$T/v.out")
rm "$T/victim"
ln -s "$T/decoy" "$T/victim (deleted)"
for args in "-p $pid --json" "-a --json pidattach:*" "-a --bpftrace pidattach:*"; do
	what="a deleted file beside a link named as maps shows it: $args"
	# shellcheck disable=SC2086
	run "$what" $args
	paths_reach "$want"
	grep -q "/proc/$pid/map_files/" "$T/out" || fail "$what: not through map_files: $(cat "$T/out")"
done
what="a deleted file: -a --bpftrace, run"
bpftrace_hits "$pid"
what="a deleted file: -p --perf (perf would follow the link)"
run "$what" -p "$pid" --perf
left_out
kill "$pid"

# 5. A chroot: maps gives the path from our root, where it is the file.
mkdir "$T/jail"
if $CC -static -O2 -I"$top_srcdir/include" -o "$T/jail/app" "$T/app.c" 2>/dev/null; then
	chroot "$T/jail" /app >"$T/jail.out" 2>&1 &
	PIDS="$PIDS $!"
	wait_file "$T/jail.out" '^ready'
	pid=$(sed -n 's/^ready \([0-9]*\)$/\1/p' "$T/jail.out")
	what="a chroot, -p --perf"
	run "$what" -p "$pid" --perf
	[ $rc = 0 ] || fail "$what: status $rc: $(cat "$T/err")"
	paths_reach "$(id "$T/jail/app")"
	grep -q "^perf probe -x '$T/jail/app'" "$T/out" || fail "$what: $(cat "$T/out")"
	perf_hits "$pid"
	what="a chroot, -p --bpftrace"
	run "$what" -p "$pid" --bpftrace
	paths_reach "$(id "$T/jail/app")"
	# By path: bpftrace 0.17 -p looks for the maps name under the
	# process's root, where a chroot does not have it.
	bpftrace_hits "$pid"
else
	note "no static C library: no chroot case"
fi
exit 0
