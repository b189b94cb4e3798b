#!/bin/sh
# Every argument of <usdt.h> probes is read exactly by libbpf, bpftrace,
# gdb and perf: tests/usdt/values.c (0 to 12 arguments; extremes of every
# integer size and sign, constants, enums, bit-fields, pointers, floats'
# bits, struct values, a semaphore probe), built with gcc and clang, at
# -O0 and -O2. The semaphore probe also says whether it was traced: each
# of the four tracers raises the semaphore while attached. An i686 build
# (arguments in a frame block) is read by gdb where i386 binaries run.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libbpf/lib.sh"
. "$top_srcdir/tests/usdt/lib.sh"
LC_ALL=C
export LC_ALL
need_cmd gcc clang gdb perf python3
need_bpftrace
need_libbpf

PROG_PID= TRACER_PID=
trap '[ -n "$PROG_PID" ] && kill -9 "$PROG_PID" 2>/dev/null
	[ -n "$TRACER_PID" ] && kill "$TRACER_PID" 2>/dev/null
	perf_probe_cleanup usdtv; rm -rf "$T"' EXIT

check_build() {
	name=$1 exe=$T/values-$1
	shift
	"$@" -I"$SDT_INCLUDE" -Wall -Wextra -Werror -o "$exe" \
		"$USDT_SRC/values.c" || fail "$name: cannot build values.c"
	check_clean "$exe"
	"$exe" "$T/want-$name" now || fail "$name: values failed"
	probes=$(probe_argcs "$T/want-$name" | awk '{ print $1 }')

	"$exe" "$T/want-$name" >"$T/$name.prog" 2>&1 &
	PROG_PID=$!
	wait_line "$T/$name.prog" '^ready' "$PROG_PID" "$name: values"
	# shellcheck disable=SC2086
	trace_and_compare "$name" "$PROG_PID" "$T/$name.prog" "$exe" \
		$(echo "$probes" | sed 's/^/usdtv:/')
	PROG_PID=

	read_bpftrace "$name" "$exe" usdtv
	read_gdb "$name" "$exe" usdtv
	# shellcheck disable=SC2086
	read_perf "$name" "$exe" usdtv $probes
	for r in "" bt- gdb- perf-; do
		grep -qx 'guarded 2 -77 1' "$T/want-$r$name" ||
			fail "$name: USDT_IS_ACTIVE was not true under ${r:-libbpf-}tracer"
	done
	note "$name: $(echo "$probes" | wc -l) probes read by libbpf, bpftrace, gdb, perf"
}

check_build gcc-O0 gcc -O0
check_build gcc-O2 gcc -O2
check_build clang-O0 clang -O0
check_build clang-O2 clang -O2

# i386: arguments in one frame block ("-4@4(%esi)"), read by gdb.
if can_run_i386; then
	i686-linux-gnu-gcc -static -O2 -I"$SDT_INCLUDE" -Wall -Wextra -Werror \
		-o "$T/values-i686" "$USDT_SRC/values.c" || fail "i686: cannot build values.c"
	check_clean "$T/values-i686"
	"$T/values-i686" "$T/want-i686" now || fail "i686: values failed"
	read_gdb i686 "$T/values-i686" usdtv
	grep -qx 'guarded 2 -77 1' "$T/want-gdb-i686" ||
		fail "i686: USDT_IS_ACTIVE was not true under gdb"
	note "i686: every argument read by gdb"
else
	note "i686 part skipped: $why_i386"
fi
echo "PASS: every argument read exactly by libbpf, bpftrace, gdb and perf"
