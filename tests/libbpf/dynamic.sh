#!/bin/sh
# libbpf traces a libstapsdt provider in a running process (dyn-host.c):
# every ArgType_t at its extremes (narrow ones with junk above them, which
# the note's size must drop), all eight types in one probe, 0 to 12 int64
# arguments and a 12-argument probe of mixed types, each value compared.
# libbpf attaches by path and PID (bpf_program__attach_usdt()) to the
# object as it is placed: a memfd, reached as /proc/PID/fd/N (the path the
# library loaded it by) and as /proc/PID/map_files/START-END, and a file
# (providerUseMemfd(memfd_disabled)). probeIsEnabled() and
# probeIsEnabledInline() (the semaphore, counted by the kernel's ref_ctr)
# must say 1 for every probe while libbpf is attached and 0 before and
# after.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libbpf/lib.sh"
LC_ALL=C
export LC_ALL
need_cmd clang
need_libbpf

LIB=$top_builddir/libstapsdt/.libs/libstapsdt.so
[ -r "$LIB" ] || fail "$LIB is not built"
HOST_PID= TRACER_PID=
trap '[ -n "$HOST_PID" ] && kill -9 "$HOST_PID" 2>/dev/null
	[ -n "$TRACER_PID" ] && kill "$TRACER_PID" 2>/dev/null; rm -rf "$T"' EXIT

${CC:-cc} -Wall -Wextra -O2 -I"$top_srcdir/libstapsdt" -o "$T/dyn-host" \
	"$top_srcdir/tests/libbpf/dyn-host.c" "$LIB" \
	-Wl,-rpath,"$top_builddir/libstapsdt/.libs" >"$T/cc.log" 2>&1 ||
	fail "cannot build dyn-host.c: $(cat "$T/cc.log")"
export TMPDIR=$T # where --file puts its object

# check_mode NAME [--file]: trace one placement, compare everything.
check_mode() {
	name=$1
	shift
	"$T/dyn-host" "$@" "$T/want-$name" >"$T/$name.host" 2>&1 &
	HOST_PID=$!
	wait_line "$T/$name.host" '^ready' "$HOST_PID" "$name: dyn-host"
	obj=$(awk '/^ready/ { print $3 }' "$T/$name.host")
	case $name in
	map_files)
		# The same memfd, by the entry of one of its mappings.
		ino=$(stat -L -c %i "$obj") || fail "$name: cannot stat $obj"
		range=$(awk -v ino="$ino" '$5 == ino { print $1; exit }' \
			"/proc/$HOST_PID/maps")
		[ -n "$range" ] || fail "$name: $obj (inode $ino) is not mapped"
		obj=/proc/$HOST_PID/map_files/$range
		;;
	esac
	note "$name: object at $obj"
	"$SDT_NOTES" "$obj" >"$T/notes-$name" ||
		fail "$name: sdt-notes rejects $obj"
	probes=$(awk '{ print $1 }' "$T/notes-$name")
	nprobes=$(echo "$probes" | wc -l)
	[ "$nprobes" = 23 ] || fail "$name: $nprobes probes in $obj, not 23"

	# shellcheck disable=SC2086
	trace_and_compare "$name" "$HOST_PID" "$T/$name.host" "$obj" $probes
	HOST_PID=
	expect_eq "$name: probeIsEnabled/Inline before, attached, fired, after" \
		"enabled 0 0;attached 23 23;fired 23 23;detached 0 0" \
		"$(sed -n 's/^ready [^ ]* [^ ]* //p; /^attached/p; /^fired/p; /^detached/p' \
			"$T/$name.host" | paste -sd ';')"
}

check_mode fd
check_mode map_files
check_mode file --file
echo "PASS: memfd by /proc/PID/fd and map_files, and a file: 23 probes each, every value read back"
