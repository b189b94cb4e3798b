#!/bin/sh
# `make demo`: the static sample's probes, listed, then traced live with
# bpftrace where the kernel lets us (root, BPF allowed). Never fails for
# lack of tracing: it says why it cannot trace and stops there.
: "${top_srcdir:?run through make demo}" "${top_builddir:?run through make demo}"
server=$top_builddir/samples/static/server
sdt_list=$top_builddir/sdt-list/sdt-list

if [ ! -x "$server" ] || [ ! -x "$sdt_list" ]; then
	echo "demo: the sample or sdt-list is not built; run 'make demo' from the build directory" >&2
	exit 1
fi

echo "== The sample: $server (source: samples/static/server.c, stats.c)"
echo
echo "== Its probes, checked against every tracer's reading of their arguments (sdt-list --check;"
echo "   sdt-list -v --check shows each argument and which tracers read it):"
"$sdt_list" --check "$server" | sed 's/^/   /'
echo

why=
if [ "$(id -u)" != 0 ]; then
	why="tracing needs root (try: sudo make demo)"
elif ! command -v bpftrace >/dev/null 2>&1; then
	why="bpftrace is not installed (apt-get install bpftrace)"
else
	if [ ! -e /sys/kernel/tracing/uprobe_events ]; then
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	fi
	out=$(timeout 30 bpftrace -e 'BEGIN { printf("ok\n"); exit(); }' 2>&1)
	case "$out" in
	*ok*) ;;
	*) why="bpftrace cannot load programs here: $(echo "$out" | tail -n 1)" ;;
	esac
fi
if [ -n "$why" ]; then
	echo "== Not tracing live: $why"
	exit 0
fi

# bpftrace takes the program's path in a probe and the command to run as
# words: from the sample's own directory both are ./server, whatever the
# directory is called (spaces, quotes).
cd "$(dirname "$server")" || exit 1
echo "== bpftrace lists them too:"
timeout 30 bpftrace -l 'usdt:./server:*' 2>/dev/null | sed 's/^/   /'
echo
echo "== Tracing './server 5' live (the stats probe fires only while traced):"
prog='usdt:./server:server:request { printf("   request %d %s\n", arg0, str(arg1)); }
usdt:./server:server:reply { printf("   reply   %d status %d, %d bytes\n", arg0, arg1, arg2); }
usdt:./server:server:stats { printf("   stats   %s\n", str(arg2)); }'
echo "   bpftrace -e '$(echo "$prog" | head -n 1 | sed 's/   //')' ..."
timeout 30 bpftrace -e "$prog" -c './server 5' 2>&1 | grep -v -e RLIMIT_MEMLOCK -e '^$'
exit 0
