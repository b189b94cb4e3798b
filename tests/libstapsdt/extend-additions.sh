# A traced probe keeps being counted across 100 providerExtend() calls
# (extend-host additions): libbpf (tests/libbpf's tracer, attached to the
# load's object by path and PID, in a memfd and in a file) and bpftrace
# (-p PID) count every fire of jit:a. The 100 added probes are attachable
# afterwards: `bpftrace -l -p' lists them all, a bpftrace started then
# hits every one of them, and libbpf reads the first's and the last's
# argument in their own objects, found with `sdt-list -p'.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libbpf/lib.sh"
LC_ALL=C
export LC_ALL
need_bpftrace
need_libbpf
export TMPDIR=$T
EHOST=$top_builddir/tests/libstapsdt/extend-host
SDT_LIST=$top_builddir/sdt-list/sdt-list
[ -x "$EHOST" ] || fail "$EHOST is not built"
[ -x "$SDT_LIST" ] || fail "$SDT_LIST is not built"
HOST_PID= TRACER_PID=
trap '[ -n "$HOST_PID" ] && kill "$HOST_PID" 2>/dev/null
	[ -n "$TRACER_PID" ] && kill "$TRACER_PID" 2>/dev/null; rm -rf "$T"' EXIT
N=100

# start HOST-ARGS...: extend-host in the background, its object in $OBJ.
start() {
	: >"$T/host.out"
	"$EHOST" "$@" >"$T/host.out" 2>&1 &
	HOST_PID=$!
	wait_line "$T/host.out" '^ready' "$HOST_PID" extend-host
	OBJ=$(awk '/^ready/ { print $3 }' "$T/host.out")
}

# finish: the host's exit and its count of a's fires in $FIRES.
finish() {
	wait "$HOST_PID" || fail "extend-host failed: $(cat "$T/host.out")"
	HOST_PID=
	FIRES=$(sed -n 's/^fires //p' "$T/host.out")
	expect_eq "fires of a" $((2 * N + 1)) "$FIRES"
}

# libbpf, counting a in the load's object while the host extends N times.
for mode in memfd file; do
	opt=
	[ $mode = file ] && opt=--file
	start $opt additions $N
	"$TRACER" -m count -t 60 -p "$HOST_PID" "$BPF_OBJ" "$OBJ" jit:a \
		>"$T/count.out" 2>"$T/count.err" &
	TRACER_PID=$!
	wait_line "$T/count.out" '^attached' "$TRACER_PID" usdt-trace
	kill -USR2 "$HOST_PID"
	finish
	wait "$TRACER_PID" || fail "$mode: usdt-trace failed: $(cat "$T/count.err")"
	TRACER_PID=
	expect_eq "$mode: libbpf's count of a over $N extends" \
		"attached 1;hits $FIRES" "$(paste -sd ';' "$T/count.out")"
	note "$mode: libbpf counted all $FIRES fires of a across $N extends"
done

# bpftrace, counting a (and exiting at end) while the host extends.
# Its BEGIN runs once every probe is attached. From bpftrace 0.25 on the
# provider goes in files, where `-p' and `*' find each of its objects
# (tests/libstapsdt/lib.sh says why).
# shellcheck disable=SC2046
start $(bt_place) --wait-end --linger additions $N
timeout 60 bpftrace -p "$HOST_PID" -e 'BEGIN { printf("go\n"); }
	usdt:*:jit:a { @a = count(); } usdt:*:jit:end { exit(); }' \
	>"$T/bt.out" 2>&1 &
TRACER_PID=$!
wait_line "$T/bt.out" '^go' "$TRACER_PID" bpftrace
kill -USR2 "$HOST_PID"
wait "$TRACER_PID" || fail "bpftrace failed: $(cat "$T/bt.out")"
TRACER_PID=
out=$(cat "$T/bt.out")
wait_line "$T/host.out" '^lingering' "$HOST_PID" extend-host
expect_eq "bpftrace's count of a over $N extends" "@a: $((2 * N + 1))" \
	"$(echo "$out" | grep '^@a:')"
note "bpftrace counted all $((2 * N + 1)) fires of a across $N extends"

# The added probes, afterwards: listed, and each one hit.
listed=$(bpftrace_run -l -p "$HOST_PID" 'usdt:*:jit:p*' | grep -c ':jit:p[0-9]*$')
expect_eq "added probes bpftrace -l lists" $N "$listed"
out=$(BPFTRACE_MAX_PROBES=1024 bpftrace_run -p "$HOST_PID" -e 'usdt:*:jit:p* { @[probe] = count(); }
	interval:ms:1500 { exit(); }') || fail "bpftrace on p*: $out"
hit=$(echo "$out" | grep -c '^@\[usdt:.*:jit:p[0-9]*\]: [1-9]')
expect_eq "added probes a later bpftrace hits" $N "$hit"
note "bpftrace -l lists the $N added probes; a later bpftrace hits all $N"

# libbpf on the first and the last added probe, each in its own object.
"$SDT_LIST" -p "$HOST_PID" >"$T/list" 2>&1 || fail "sdt-list -p: $(cat "$T/list")"
for p in p1 p$N; do
	# An object's line: "PATH: ... attach as PATH2" (a memfd) or "PATH: ...".
	obj=$(awk -v p="jit:$p(" '/^\// { o = $0; if (!sub(/.*, attach as /, "", o)) sub(/: [^:]*$/, "", o) }
		index($0, p) == 1 { print o; exit }' "$T/list")
	[ -n "$obj" ] || fail "sdt-list -p does not list $p: $(cat "$T/list")"
	"$TRACER" -t 60 -p "$HOST_PID" "$BPF_OBJ" "$obj" "jit:$p" \
		>"$T/$p.trace" 2>"$T/$p.err" &
	TRACER_PID=$!
	wait_line "$T/$p.trace" "^$p 1 ${p#p}\$" "$TRACER_PID" "usdt-trace on $p"
	kill "$TRACER_PID"
	wait "$TRACER_PID"
	TRACER_PID=
	note "libbpf reads $p in $obj: $(grep -m 1 "^$p " "$T/$p.trace")"
done
[ "$obj" != "$OBJ" ] || fail "p$N is in the load's object $OBJ"
kill -USR1 "$HOST_PID"
wait "$HOST_PID" || fail "extend-host failed: $(cat "$T/host.out")"
HOST_PID=
left=$(find "$T" -name 'libstapsdt-*')
expect_eq "files left behind" "" "$left"
