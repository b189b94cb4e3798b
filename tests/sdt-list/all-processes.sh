#!/bin/sh
# sdt-list --all-processes on 300 processes of four programs that share a
# library with probes, plus one in another mount namespace (its own copy of
# a program and the library, on a tmpfs only it sees) and one in a chroot:
#  - each object is one record with every PID that maps it; the copies in
#    the namespace share the record by build-id, as another file, reached
#    through /proc/PID/root; the namespace and the chroot are named and
#    their paths are the ones they see;
#  - semaphore values are each process's: a tracefs uprobe with the
#    inventory's semaphore offset raises the semaphore in every process
#    that maps the host's library (1), not in the namespace's copy (0);
#  - globs and --check work on it, the JSON validates against the schema;
#  - the --bpftrace program printed for invlib:tick, run by bpftrace,
#    attaches to every process the inventory names: each one fires once and
#    is counted once;
#  - processes exiting during the scan are no error.
# Other processes on the machine are listed too: only ours are checked.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_root
need_cmd timeout
N=300
trap 'kill $(cat "$T/pids" 2>/dev/null) $CHURN $BT 2>/dev/null; [ -n "$EVENT" ] && { echo 0 >"$TRACEFS/events/invtest/enable"; echo "-:invtest/gated" >>"$TRACEFS/uprobe_events"; } 2>/dev/null; rm -rf "$T"' EXIT
CHURN=
BT=
EVENT=
chmod 755 "$T"

cat >"$T/tick.c" <<'C'
#include <sys/sdt.h>
void lib_gated(int);
void lib_fire(int x) { DTRACE_PROBE1(invlib, tick, x); lib_gated(x); }
C
cat >"$T/gated.c" <<'C'
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
__extension__ volatile unsigned short invlib_gated_semaphore
	__attribute__((used, section(".probes"))) = 0;
void lib_gated(int x) { if (invlib_gated_semaphore) DTRACE_PROBE1(invlib, gated, x); }
C
# prog [exit]: "ready PID" on $T/ready, then on each SIGUSR1 fires its own
# probe and the library's, and says "fired PID" on $T/fired; with "exit",
# fires once and exits.
cat >"$T/prog.c" <<'C'
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <unistd.h>
void lib_fire(int);
static void say(const char *what)
{
	char path[4200], line[64];
	int fd, n;
	snprintf(path, sizeof(path), "%s/%s", getenv("INV_DIR"), what);
	n = snprintf(line, sizeof(line), "%s %d\n", what, (int)getpid());
	if ((fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644)) >= 0) {
		if (write(fd, line, (size_t)n) != n)
			_exit(3);
		close(fd);
	}
}
int main(int argc, char **argv)
{
	sigset_t s;
	int sig;
	(void)argv;
	if (argc > 1) {
		DTRACE_PROBE1(invprog, PROG, argc);
		lib_fire(argc);
		return 0;
	}
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigprocmask(SIG_BLOCK, &s, NULL);
	say("ready");
	for (;;) {
		if (sigwait(&s, &sig) == 0) {
			DTRACE_PROBE1(invprog, PROG, getpid());
			lib_fire(getpid());
			say("fired");
		}
	}
}
C
$CC -O2 -fPIC -shared -I"$SDT_INCLUDE" -o "$T/libinv.so" "$T/tick.c" "$T/gated.c" ||
	fail "cannot build the library"
# progN.c: its own probe, invprog:mainN.
for i in 0 1 2 3 jailed; do
	sed "s/PROG/main$i/" "$T/prog.c" >"$T/prog$i.c"
done
for i in 0 1 2 3; do
	$CC -O2 -I"$SDT_INCLUDE" -o "$T/prog$i" "$T/prog$i.c" \
		-L"$T" -linv -Wl,-rpath,'$ORIGIN' || fail "cannot build prog$i"
done
export INV_DIR="$T"

# ready_count FILE: whole "ready"/"fired" lines in FILE.
lines() { [ -f "$1" ] && grep -c "^[a-z]* [0-9]*\$" "$1" || echo 0; }
# wait_lines FILE N: until FILE has N whole lines (at most 60 s).
wait_lines() {
	i=0
	while [ "$(lines "$1")" -lt "$2" ]; do
		i=$((i + 1))
		[ $i -lt 600 ] || fail "$1: $(lines "$1") of $2 lines"
		sleep 0.1
	done
}

i=0
while [ $i -lt $N ]; do
	"$T/prog$((i % 4))" &
	echo $! >>"$T/pids"
	i=$((i + 1))
done
wait_lines "$T/ready" $N
EXPECT=$N

# Another mount namespace: prog0 and the library copied onto a tmpfs at
# $T/ns, which our namespace sees empty.
mkdir "$T/ns"
NS=0
if unshare -m true 2>/dev/null; then
	unshare -m --propagation private sh -c '
		mount -t tmpfs none "$1/ns" || exit 1
		cp "$1/prog0" "$1/libinv.so" "$1/ns/" || exit 1
		exec "$1/ns/prog0"' sh "$T" &
	echo $! >>"$T/pids"
	EXPECT=$((EXPECT + 1))
	wait_lines "$T/ready" $EXPECT
	NS_PID=$(tail -n 1 "$T/ready" | cut -d' ' -f2)
	[ -e "/proc/$NS_PID/root$T/ns/libinv.so" ] && NS=1
fi
[ $NS = 1 ] || note "cannot make a mount namespace here: no namespace case"

# A chroot: a static program of its own (no library inside the jail).
CHROOT=0
mkdir -p "$T/jail/bin"
if $CC -static -O2 -I"$SDT_INCLUDE" -o "$T/jail/bin/prog" \
	"$T/progjailed.c" "$T/tick.c" "$T/gated.c" 2>/dev/null; then
	mkdir "$T/jail/tmp"
	INV_DIR=/tmp chroot "$T/jail" /bin/prog &
	echo $! >>"$T/pids"
	wait_lines "$T/jail/tmp/ready" 1
	CHROOT_PID=$(cut -d' ' -f2 "$T/jail/tmp/ready")
	CHROOT=1
else
	note "no static C library: no chroot case"
fi

# inventory ARGS...: sdt-list -a ARGS in under 60 s; exit status 0.
inventory() {
	note "sdt-list -a $*"
	timeout 60 "$SDT_LIST" -a "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc != 124 ] || fail "sdt-list -a $* blocked"
	expect_eq "sdt-list -a $*: exit status ($(head -n 5 "$T/err"))" 0 "$rc"
}

# check_inv JSON SEMA [GLOB]: the records as described above; SEMA is the
# value invlib:gated's semaphore must have in the processes mapping our
# library; with GLOB (invlib:*) only the library is listed.
check_inv() {
	python3 - "$1" "$T" "$N" "$NS" "${NS_PID:-0}" "$CHROOT" "${CHROOT_PID:-0}" "$2" "$T/pids" "${3:-}" <<'PY'
import json, os, sys
doc, T = json.load(open(sys.argv[1])), sys.argv[2]
N, NS, NS_PID, CH, CH_PID, SEMA = (int(x) for x in sys.argv[3:9])
GLOB = sys.argv[10]
ours = {int(x) for x in open(sys.argv[9]).read().split()}
def fail(msg):
    print("FAIL:", msg); sys.exit(1)
by_path = {}
for o in doc["objects"]:
    for p in o["paths"]:
        by_path[p] = o
lib = by_path.get(T + "/libinv.so") or fail("no record for libinv.so")
pids = {p["pid"] for p in lib["processes"]}
want = N + NS
if len(pids & ours) != want:
    fail("libinv.so: %d of our %d processes" % (len(pids & ours), want))
if not lib["build_id"]:
    fail("libinv.so: no build-id")
for o in doc["objects"] if GLOB else []:
    for q in o["probes"]:
        if q["provider"] != "invlib":
            fail("the glob %s lets through %s" % (GLOB, q))
for i in range(0 if GLOB else 4):
    prog = by_path.get(T + "/prog%d" % i) or fail("no record for prog%d" % i)
    n = len({p["pid"] for p in prog["processes"]} & ours)
    if n != N // 4 + (i == 0) * NS:
        fail("prog%d: %d processes" % (i, n))
    probes = {p["provider"] + ":" + p["name"] for p in prog["probes"]}
    if "invprog:main%d" % i not in probes:
        fail("prog%d: probes %s" % (i, probes))
for p in lib["processes"]:
    if p["pid"] not in ours:
        continue
    sem = {s["provider"] + ":" + s["name"]: s["value"] for s in p["semaphores"]}
    if "invlib:tick" in sem or "invlib:gated" not in sem:
        fail("semaphores of %d: %s" % (p["pid"], sem))
    in_ns = p["pid"] == NS_PID
    want_sema = 0 if in_ns else SEMA
    if sem["invlib:gated"] != want_sema:
        fail("pid %d: invlib:gated semaphore %s, not %d" % (p["pid"], sem["invlib:gated"], want_sema))
    f = lib["files"][p["file"]]
    if in_ns:
        if not p["mount_namespace"] or p["path"] != T + "/ns/libinv.so":
            fail("namespace process: %s" % p)
        if f["path"] != "/proc/%d/root%s/ns/libinv.so" % (NS_PID, T):
            fail("namespace copy's file: %s" % f)
        if os.stat(f["path"]).st_ino != f["inode"]:
            fail("namespace copy's path is another file")
    elif p["mount_namespace"] or p["root"] or f["path"] != T + "/libinv.so":
        fail("host process: %s" % p)
    if not p["cgroup"]:
        fail("no cgroup: %s" % p)
if CH and not GLOB:
    jail = by_path.get(T + "/jail/bin/prog") or fail("no record for the chroot's program")
    p = [p for p in jail["processes"] if p["pid"] == CH_PID]
    if len(p) != 1 or p[0]["root"] != T + "/jail" or p[0]["path"] != "/bin/prog" or p[0]["exe"] != "/bin/prog":
        fail("the chroot's process: %s" % p)
print(json.dumps({"semaphore_offset": [q for q in lib["probes"] if q["name"] == "gated"][0]["semaphore_offset"],
                  "site": [q for q in lib["probes"] if q["name"] == "gated"][0]["sites"][0]["file_offset"],
                  "pids": sorted(p["pid"] for p in lib["processes"] if p["pid"] in ours)}))
PY
}

inventory --json
check_inv "$T/out" 0 >"$T/facts" || fail "$(cat "$T/facts")"

# The schema, on our probes (other processes here may have thousands).
inventory --json --check 'inv*:*'
cp "$T/out" "$T/first.json"
if python3 -c 'import jsonschema' 2>/dev/null; then
	python3 - "$top_srcdir/docs/inventory.schema.json" "$T/first.json" <<'PY' || fail "the inventory does not validate"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
jsonschema.Draft7Validator(schema).validate(json.load(open(sys.argv[2])))
PY
else
	note "python3-jsonschema is not installed: schema not checked"
fi

# A semaphore up: the kernel counts it in every process mapping the file.
if [ -w "$TRACEFS/uprobe_events" ] || { mount -t tracefs nodev "$TRACEFS" 2>/dev/null && [ -w "$TRACEFS/uprobe_events" ]; }; then
	tracefs_lock # the group invtest
	off=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["site"])' "$T/facts")
	sema=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["semaphore_offset"])' "$T/facts")
	echo "p:invtest/gated $T/libinv.so:$off($sema)" >>"$TRACEFS/uprobe_events" ||
		fail "tracefs refused p:invtest/gated $T/libinv.so:$off($sema)"
	EVENT=1
	echo 1 >"$TRACEFS/events/invtest/enable" || fail "cannot enable the uprobe"
	inventory --json 'invlib:*'
	check_inv "$T/out" 1 'invlib:*' >"$T/facts1" || fail "semaphore up: $(cat "$T/facts1")"
	echo 0 >"$TRACEFS/events/invtest/enable"
	echo "-:invtest/gated" >>"$TRACEFS/uprobe_events"
	EVENT=
else
	note "tracefs is not writable: semaphore values not raised"
fi

# Globs and --check, in text: one line per process of the library's.
inventory --check 'invlib:*'
grep -q '^invlib:gated(int x)  1 site, semaphore$' "$T/out" || fail "invlib:gated: $(head "$T/out")"
grep -q '^invprog' "$T/out" && fail "the glob let invprog through"
n=$(grep -c "^  pid [0-9]* .*: semaphores invlib:gated=0\$" "$T/out")
[ "$n" -ge $((N + NS)) ] || fail "$n process lines for libinv.so: $(head -n 20 "$T/out")"
tail -n 1 "$T/out" | grep -q '^[0-9]* processes read (' || fail "no totals: $(tail -n 1 "$T/out")"

# bpftrace, through the program printed for invlib:tick: every process the
# inventory names is traced, each hit counted once.
bpftrace_works() {
	command -v bpftrace >/dev/null &&
		timeout 60 bpftrace -e 'BEGIN { printf("ok\n"); exit(); }' 2>&1 | grep -q ok
}
if bpftrace_works; then
	inventory --bpftrace 'invlib:tick'
	grep -q "pids mapping it:" "$T/out" || fail "no pids named: $(cat "$T/out")"
	awk '/^usdt:/ { print; print "{ @hits[pid] = count(); }"; skip = 1; next }
		skip && /^}/ { skip = 0; next } !skip' "$T/out" >"$T/count.bt"
	printf 'BEGIN { printf("attached\\n"); }\n' >>"$T/count.bt"
	grep -q '^usdt:' "$T/count.bt" || fail "no usdt probe in the program: $(cat "$T/out")"
	rm -f "$T/fired"
	BPFTRACE_MAX_PROBES=4096 timeout 120 bpftrace "$T/count.bt" >"$T/bt.out" 2>&1 &
	BT=$!
	i=0
	until grep -q '^attached' "$T/bt.out"; do
		i=$((i + 1))
		[ $i -lt 600 ] || fail "bpftrace did not attach: $(cat "$T/bt.out")"
		kill -0 $BT 2>/dev/null || fail "bpftrace: $(cat "$T/bt.out")"
		sleep 0.1
	done
	python3 -c 'import json,sys; print(*json.load(open(sys.argv[1]))["pids"])' "$T/facts" >"$T/named"
	for p in $(cat "$T/named"); do kill -USR1 "$p"; done
	wait_lines "$T/fired" "$(wc -w <"$T/named")"
	kill -INT $BT
	wait $BT
	BT=
	python3 - "$T/named" "$T/bt.out" <<'PY' || fail "bpftrace: $(head -n 20 "$T/bt.out")"
import re, sys
named = [int(x) for x in open(sys.argv[1]).read().split()]
hits = {int(m.group(1)): int(m.group(2))
        for m in re.finditer(r"@hits\[(\d+)\]: (\d+)", open(sys.argv[2]).read())}
bad = [p for p in named if hits.get(p) != 1]
if bad:
    print("FAIL: %d of %d processes not counted once: %s" % (len(bad), len(named), [(p, hits.get(p)) for p in bad[:10]]))
    sys.exit(1)
print("# bpftrace counted one hit in each of the %d processes" % len(named))
PY
else
	note "bpftrace cannot load programs here: no attach case"
fi

# Processes that exit during the scan: no error, a valid inventory.
(while :; do "$T/prog1" exit; done) &
CHURN=$!
for k in 1 2 3; do
	inventory --json 'inv*:*'
	grep -F "$T" "$T/err" && fail "churn: an error about our processes"
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out" || fail "churn: invalid JSON"
done
kill $CHURN
CHURN=
exit 0
