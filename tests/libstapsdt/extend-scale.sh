# providerExtend() at JIT scale: 20,000 single-probe extends (extend-host
# additions) under the default `ulimit -n' of 1024. libbpf (tests/libbpf's
# tracer, on the load's object) and bpftrace (-p PID), both attached before
# the first addition, count every fire of jit:a across all of them. Then,
# with the process grown: its descriptors and mappings are at most 2% of
# the additions; `sdt-list -p' lists every probe; a bpftrace started now
# hits p19999 and p20000 (added last, in the newest object), libbpf reads
# p19999's argument there, gdb lists p19999, and its stub and semaphore
# have their symbols.
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
HOST_PID= TRACER_PID= BT_PID=
trap 'for p in $HOST_PID $TRACER_PID $BT_PID; do kill "$p" 2>/dev/null; done
	rm -rf "$T"' EXIT
N=20000

(ulimit -n 1024 && exec "$EHOST" --wait-end --linger additions $N) \
	>"$T/host.out" 2>&1 &
HOST_PID=$!
wait_line "$T/host.out" '^ready' "$HOST_PID" extend-host
OBJ=$(awk '/^ready/ { print $3 }' "$T/host.out")

# Both tracers on a before the first extend; the host goes on their word.
"$TRACER" -m count -t 120 -p "$HOST_PID" "$BPF_OBJ" "$OBJ" jit:a \
	>"$T/count.out" 2>"$T/count.err" &
TRACER_PID=$!
wait_line "$T/count.out" '^attached' "$TRACER_PID" usdt-trace
# a and end are in the load's object (bt_obj: named by path where bpftrace
# -p cannot find a memfd).
timeout 120 bpftrace -p "$HOST_PID" -e "$(bt_script "$OBJ" 'BEGIN { printf("go\n"); }
	usdt:*:jit:a { @a = count(); } usdt:*:jit:end { exit(); }')" \
	>"$T/bt.out" 2>&1 &
BT_PID=$!
wait_line "$T/bt.out" '^go' "$BT_PID" bpftrace
kill -USR2 "$HOST_PID"
wait "$BT_PID" || fail "bpftrace failed: $(cat "$T/bt.out")"
BT_PID=
wait_line "$T/host.out" '^lingering' "$HOST_PID" extend-host
FIRES=$(sed -n 's/^fires //p' "$T/host.out")
expect_eq "fires of a" $((2 * N + 1)) "$FIRES"
expect_eq "bpftrace's count of a over $N extends" "@a: $FIRES" \
	"$(grep '^@a:' "$T/bt.out")"
note "bpftrace, attached first, counted all $FIRES fires of a across $N extends"

# What the grown process holds.
fds=$(ls "/proc/$HOST_PID/fd" | wc -l)
maps=$(wc -l <"/proc/$HOST_PID/maps")
[ "$fds" -le $((N / 50)) ] || fail "$fds descriptors after $N extends"
[ "$maps" -le $((N / 50)) ] || fail "$maps mappings after $N extends"
note "after $N extends: $fds descriptors, $maps mappings"

# A tracer started now sees the newest probes, in the newest object, found
# with sdt-list -p. bpftrace attaches by that object's path: given -p, bcc
# reads every probe of the process, at a cost that grows with the square
# of their number (a minute for 20,000 here), whatever objects hold them.
"$SDT_LIST" -p "$HOST_PID" >"$T/list" 2>&1 || fail "sdt-list -p: $(head -n 5 "$T/list")"
listed=$(grep -c '^jit:p[0-9]*(' "$T/list")
expect_eq "added probes sdt-list -p lists" $N "$listed"
obj=$(awk '/attach as/ { o = $NF } index($0, "jit:p19999(") == 1 { print o; exit }' "$T/list")
[ -n "$obj" ] || fail "sdt-list -p does not say where p19999 is"
out=$(bpftrace_run -e "usdt:$obj:jit:p19999 { @[probe] = count(); }
	usdt:$obj:jit:p20000 { @[probe] = count(); } interval:ms:1500 { exit(); }") ||
	fail "bpftrace on p19999, p20000: $out"
hit=$(echo "$out" | grep -c '^@\[usdt:.*:jit:p\(19999\|20000\)\]: [1-9]')
expect_eq "newest probes a later bpftrace hits ($out)" 2 "$hit"
"$TRACER" -t 60 -p "$HOST_PID" "$BPF_OBJ" "$obj" jit:p19999 \
	>"$T/p.trace" 2>"$T/p.err" &
p_pid=$!
wait_line "$T/p.trace" '^p19999 1 19999$' "$p_pid" "usdt-trace on p19999"
kill "$p_pid"
wait "$p_pid"
note "a later bpftrace hits p19999 and p20000; libbpf reads p19999 = 19999 in $obj; sdt-list -p lists $listed"
if command -v readelf >/dev/null 2>&1; then
	syms=$(readelf -sW "$obj" | grep -c ' \(p19999\|jit_p19999_semaphore\)$')
	expect_eq "p19999's symbols in $obj" 2 "$syms"
fi
if command -v gdb >/dev/null 2>&1; then
	g=$(timeout 60 gdb -batch -nx -p "$HOST_PID" -ex 'info probes stap jit p19999' 2>&1)
	echo "$g" | grep -q 'jit *p19999' || fail "gdb does not list p19999: $g"
	note "gdb -p lists p19999"
fi

# The first tracer's count, once the host is gone.
kill -USR1 "$HOST_PID"
wait "$HOST_PID" || fail "extend-host failed: $(cat "$T/host.out")"
HOST_PID=
wait "$TRACER_PID" || fail "usdt-trace failed: $(cat "$T/count.err")"
TRACER_PID=
expect_eq "libbpf's count of a over $N extends" "attached 1;hits $FIRES" \
	"$(paste -sd ';' "$T/count.out")"
note "libbpf, attached first, counted all $FIRES fires of a across $N extends"
