#!/bin/sh
# sdt-list -p PID: finds a libstapsdt provider loaded through a memfd and
# shows its semaphore go 0 -> 1 while bpftrace is attached (and back to 0
# after); in a PIE executable, the semaphore's run-time address is the one
# the process itself prints (so the load bias is right); listed as the
# process's unprivileged owner too.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_root
HOST=$top_builddir/tests/sdt-list/memfd-host
[ -x "$HOST" ] || fail "$HOST is not built"
PIDS=
trap 'for p in $PIDS; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT

# wait_line FILE PATTERN: until FILE has a whole line (its newline
# written) matching PATTERN (60 s at most).
wait_line() {
	i=0
	until n=$(grep -n -m 1 "$2" "$1" | cut -d: -f1) && [ -n "$n" ] &&
		[ "$n" -le "$(wc -l <"$1")" ]; do
		i=$((i + 1))
		[ $i -lt 600 ] || fail "timed out waiting for $2 in $1: $(cat "$1")"
		sleep 0.1
	done
}

# sema PID: the semaphore value sdt-list shows for sdtlist:tick (memfd).
sema() {
	"$SDT_LIST" --json -p "$1" 'sdtlist:*' >"$T/p.json" ||
		fail "sdt-list -p $1 failed: $(cat "$T/p.json")"
	python3 - "$T/p.json" <<'PY'
import json, sys
sites = [s for s in json.load(open(sys.argv[1]))
         if s["provider"] == "sdtlist" and s["name"] == "tick"]
if len(sites) != 1 or not sites[0]["file"].startswith("/memfd:"):
    print("FAIL: sdtlist:tick in a memfd not found: %s" % sites); sys.exit(1)
print(sites[0]["semaphore_value"])
PY
}

"$HOST" >"$T/host.out" 2>&1 &
hpid=$!
PIDS=$hpid
wait_line "$T/host.out" '^ready'
hpid=$(sed -n 's/^ready \([0-9]*\) .*/\1/p' "$T/host.out")
hsema=$(sed -n 's/^ready [0-9]* //p' "$T/host.out")
PIDS="$PIDS $hpid"

v=$(sema "$hpid") || fail "$v"
expect_eq "semaphore before tracing" 0 "$v"
at=$(python3 -c 'import json,sys; print([s["semaphore_runtime_address"] for s in json.load(open(sys.argv[1])) if s["name"]=="tick"][0])' "$T/p.json")
expect_eq "memfd semaphore address" "$hsema" "$at"
"$SDT_LIST" -p "$hpid" >"$T/list.txt" || fail "sdt-list -p (text) failed"
grep -q 'in a memfd, attach as /proc/'"$hpid"'/fd/[0-9]*$' "$T/list.txt" ||
	fail "memfd and its attach path not named: $(cat "$T/list.txt")"
obj=$(sed -n 's/.* in a memfd, attach as //p' "$T/list.txt")
grep -q '^sdtlist:tick(int32)  1 site, semaphore = 0$' "$T/list.txt" ||
	fail "no one-line probe: $(cat "$T/list.txt")"
"$SDT_LIST" -v -p "$hpid" >"$T/list.txt" || fail "sdt-list -v -p (text) failed"
grep -q '= 0 (no tracer attached)' "$T/list.txt" || fail "no value: $(cat "$T/list.txt")"

if need_bpftrace_ok=$(timeout 30 bpftrace -e 'BEGIN { exit(); }' 2>&1); then
	# bpftrace stays attached until stopped: however long it takes to
	# attach on a loaded machine, both listings happen while it is. It
	# attaches by the path sdt-list printed: bpftrace 0.25 on, given -p,
	# looks for probes in no object whose name /proc/PID/maps marks
	# "(deleted)", as a memfd's always is.
	timeout 300 bpftrace -p "$hpid" -e "usdt:$obj:sdtlist:tick { @n = count(); }" \
		>"$T/bt.out" 2>&1 &
	bpid=$!
	PIDS="$PIDS $bpid"
	i=0
	while :; do
		v=$(sema "$hpid") || fail "$v"
		# bpftrace counts it up itself and the kernel does too (ref_ctr).
		[ "$v" != None ] && [ "$v" -ge 1 ] && break
		kill -0 $bpid 2>/dev/null || fail "bpftrace exited: $(cat "$T/bt.out")"
		i=$((i + 1))
		[ $i -lt 600 ] || fail "semaphore never 1 under bpftrace (last $v): $(cat "$T/bt.out")"
		sleep 0.1
	done
	note "semaphore 0 -> $v with bpftrace attached"
	"$SDT_LIST" -v -p "$hpid" 'sdtlist:tick' | grep -q '= [1-9][0-9]* (a tracer is attached)' ||
		fail "text listing does not show the tracer"
	kill -INT $bpid
	wait $bpid
	# The kernel drops its count when it frees bpftrace's links, which
	# it may do after bpftrace has exited (deferred work): wait for it.
	i=0
	until v=$(sema "$hpid") && [ "$v" = 0 ]; do
		case $v in FAIL*) fail "$v" ;; esac
		i=$((i + 1))
		[ $i -lt 600 ] || break
		sleep 0.1
	done
	expect_eq "semaphore after bpftrace left" 0 "$v"
else
	fail "bpftrace cannot load programs here: $need_bpftrace_ok"
fi

# A PIE executable: where the process says its semaphore is.
build_probes stap "$T/pie" -fPIE -pie
"$T/pie" addr >"$T/pie.out" &
ppid=$!
PIDS="$PIDS $ppid"
wait_line "$T/pie.out" '^0x'
want=$(head -n 1 "$T/pie.out")
"$SDT_LIST" --json -p "$ppid" 'probes:gated' >"$T/pie.json" || fail "sdt-list -p pie"
got=$(python3 -c 'import json,sys; s=[x for x in json.load(open(sys.argv[1])) if x["name"]=="gated"]; print(s[0]["semaphore_runtime_address"], s[0]["semaphore_value"])' "$T/pie.json")
expect_eq "PIE semaphore address and value" "$want 0" "$got"

# Without root: the process's own user has no /proc/PID/map_files; the
# memfd is read through the process's fd, the libraries through
# /proc/PID/root, each checked against the mapping's device and inode.
# Both programs run as nobody from copies it can reach.
if can_nobody; then
	nhost=$(nobody_copy "$HOST") || exit 1
	nlist=$(nobody_copy "$SDT_LIST") || exit 1
	as_nobody "$nhost" >"$T/host2.out" 2>&1 &
	PIDS="$PIDS $!"
	wait_line "$T/host2.out" '^ready'
	npid=$(sed -n 's/^ready \([0-9]*\) .*/\1/p' "$T/host2.out")
	PIDS="$PIDS $npid"
	as_nobody "$nlist" -p "$npid" >"$T/list.txt" 2>"$T/err.txt"
	expect_eq "sdt-list -p as the process's unprivileged owner: status" 0 $?
	grep -q 'in a memfd, attach as /proc/'"$npid"'/fd/[0-9]*$' "$T/list.txt" ||
		fail "unprivileged: the memfd not found: $(cat "$T/list.txt" "$T/err.txt")"
	grep -q '^sdtlist:tick(int32)  1 site, semaphore = 0$' "$T/list.txt" ||
		fail "unprivileged: no probe: $(cat "$T/list.txt")"
	[ -s "$T/err.txt" ] && fail "unprivileged: warnings: $(cat "$T/err.txt")"
else
	note "not listed as an unprivileged owner: $why_nobody"
fi
exit 0
