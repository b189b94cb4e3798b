#!/bin/sh
# sdt-list -p reads the file a process maps, never another one at its path.
# A process in its own mount namespace maps nsprov's object at a path where
# our namespace has hostprov's object, or a FIFO; a FIFO is then mounted
# over the path in its namespace too. Listed as root (through
# /proc/PID/map_files) and as the process's unprivileged owner (no
# map_files: /proc/PID/root/PATH, checked against the mapping's device and
# inode): nsprov, or a warning and exit 2; never hostprov, never a wait on
# the FIFO. A process in a chroot is found by the path as we see it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_root
need_cmd unshare setpriv timeout mkfifo
PIDS=
trap 'for p in $PIDS; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT
unshare -m true 2>/dev/null || skip "cannot make a mount namespace here"
chmod 755 "$T"
# sdt-list runs as nobody from a copy it can reach (the build tree may be
# under /root, mode 700).
need_nobody
NOBODY_LIST=$(nobody_copy "$SDT_LIST") || exit 1

# obj PROVIDER OUT: a small executable with probe PROVIDER:evt.
obj() {
	printf '#include <sys/sdt.h>\nint main(int c, char **v) { (void)v; DTRACE_PROBE1(%s, evt, c); return 0; }\n' "$1" >"$T/$1.c"
	$CC -O2 -I"$top_srcdir/include" -o "$2" "$T/$1.c" || fail "cannot build $1"
}
obj nsprov "$T/ns.bin"
obj hostprov "$T/path"
mkfifo "$T/fifo" "$T/fifopath"
chmod 644 "$T/ns.bin" "$T/path"

# The host: as nobody, maps its argument, closes it and waits; prints
# "ready PID".
cat >"$T/host.c" <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	int fd = open(argv[argc - 1], O_RDONLY);
	if (fd < 0 || mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0) == MAP_FAILED)
		return 1;
	close(fd); /* as ld.so does: no descriptor to read it through */
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	pause();
	return 0;
}
C
$CC -O2 -o "$T/host" "$T/host.c" || fail "cannot build the host"

# start_ns COVER [PATH]: the host in a namespace where $T/PATH (path) is
# ns.bin; with COVER=1 the FIFO is mounted over it there once it is mapped.
start_ns() {
	rm -f "$T/host.out"
	unshare -m --propagation private sh -c '
		mount --bind "$1/ns.bin" "$1/$3" || exit 1
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$1/host" "$1/$3" >"$1/host.out" 2>&1 &
		i=0
		until grep -q "^ready" "$1/host.out" 2>/dev/null; do
			i=$((i + 1)); [ $i -lt 600 ] || exit 1; sleep 0.1
		done
		[ "$2" = 1 ] && { mount --bind "$1/fifo" "$1/$3" || exit 1; }
		echo covered >>"$1/host.out"
		wait' sh "$T" "$1" "${2:-path}" &
	PIDS="$PIDS $!"
	wait_ready "$T/host.out" covered
}

# wait_ready FILE [LINE]: until FILE has LINE (ready); HOST_PID its pid.
wait_ready() {
	i=0
	until grep -q "^${2:-ready}" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 600 ] || fail "the host did not start: $(cat "$1" 2>&1)"
		sleep 0.1
	done
	HOST_PID=$(sed -n 's/^ready \([0-9]*\)$/\1/p' "$1")
	PIDS="$PIDS $HOST_PID"
}

# list AS WANT-STATUS: sdt-list -p as root or nobody, in under 10 s.
list() {
	if [ "$1" = root ]; then
		timeout 10 "$SDT_LIST" -p "$HOST_PID" >"$T/out" 2>"$T/err"
	else
		timeout 10 setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$NOBODY_LIST" -p "$HOST_PID" >"$T/out" 2>"$T/err"
	fi
	rc=$?
	[ $rc != 124 ] || fail "$1: sdt-list -p blocked"
	[ $rc -lt 128 ] || fail "$1: sdt-list -p died ($rc): $(cat "$T/err")"
	[ "$rc" = "$2" ] || note "$1, $what: $(cat "$T/err")"
	expect_eq "$1, $what: exit status" "$2" "$rc"
	grep -q hostprov "$T/out" && fail "$1, $what: listed the file at the path in our namespace: $(cat "$T/out")"
	:
}

what="path shadowed in our namespace"
start_ns 0
grep -q "$T/path\$" "/proc/$HOST_PID/maps" || fail "$T/path not mapped: $(cat "/proc/$HOST_PID/maps")"
for who in root nobody; do
	list $who 0
	grep -q '^nsprov:evt' "$T/out" || fail "$who: nsprov:evt not listed: $(cat "$T/out" "$T/err")"
done
kill "$HOST_PID"

what="a FIFO at the path in our namespace"
start_ns 0 fifopath
for who in root nobody; do
	list $who 0
	grep -q '^nsprov:evt' "$T/out" || fail "$who: nsprov:evt not listed: $(cat "$T/out" "$T/err")"
done
kill "$HOST_PID"

what="a FIFO over the mapped path"
start_ns 1
list root 0
grep -q '^nsprov:evt' "$T/out" || fail "root: nsprov:evt not listed through map_files: $(cat "$T/out" "$T/err")"
list nobody 2
grep -q "^sdt-list: pid $HOST_PID: $T/path: not listed: /proc/$HOST_PID/root$T/path is another file than the one mapped" "$T/err" ||
	fail "nobody: no warning for the FIFO: $(cat "$T/err")"
note "nobody: $(cat "$T/err")"
kill "$HOST_PID"

# A chroot: maps gives the path from our root, /proc/PID/root/PATH is no
# file, the path itself is the mapped one.
what="a chroot"
mkdir "$T/jail"
if $CC -static -O2 -o "$T/jail/host" "$T/host.c" 2>/dev/null; then
	cp "$T/ns.bin" "$T/jail/ns.bin"
	chmod 755 "$T/jail"
	rm -f "$T/host.out" # not the last host's ready line
	chroot --userspec=65534:65534 "$T/jail" /host /ns.bin >"$T/host.out" 2>&1 &
	PIDS="$PIDS $!"
	wait_ready "$T/host.out"
	list nobody 0
	grep -q '^nsprov:evt' "$T/out" || fail "nobody: nsprov:evt not listed in a chroot: $(cat "$T/out" "$T/err")"
else
	note "no static C library: no chroot case"
fi
exit 0
