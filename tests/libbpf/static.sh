#!/bin/sh
# libbpf reads back every argument of sys/sdt.h probes: tests/libbpf/probes.c
# (0 to 12 arguments of every integer kind, extremes, constants, globals,
# thread-locals, pointers, struct fields, floats' bits), built with gcc and
# clang at -O0 and -O2 (and without PIE), traced by usdt-trace, a tracer
# built on libbpf's own USDT support (bpf_program__attach_usdt() and
# bpf_usdt_arg()). Unlike bpftrace 0.17, which stops at arg5, libbpf 1.1
# reads all 12, so every value of every probe is compared. A probe whose
# note libbpf refuses shows as an "attach-error" line in the diff (as
# SystemTap's own header gets here: libbpf 1.1 refuses its `g(%rip)',
# `%fs:t@tpoff' and `4f@' float operands).
#
# Also the semaphore: libbpf passes it to the kernel as the uprobe's
# ref_ctr_offset, so it reads 0 before, 1 while attached (the guarded
# probe fires), and 0 again once the tracer has detached.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libbpf/lib.sh"
LC_ALL=C
export LC_ALL
need_cmd gcc clang
need_libbpf

PROG_PID= TRACER_PID=
trap '[ -n "$PROG_PID" ] && kill -9 "$PROG_PID" 2>/dev/null
	[ -n "$TRACER_PID" ] && kill "$TRACER_PID" 2>/dev/null; rm -rf "$T"' EXIT

# check_build NAME CC FLAGS...: build, trace and compare one variant.
check_build() {
	name=$1
	build_probes "$@"
	nprobes=$(echo "$probes" | wc -l)
	[ "$nprobes" = 17 ] || fail "$name: $nprobes probes in the notes, not 17"

	"$exe" "$T/want-$name" >"$T/$name.prog" 2>&1 &
	PROG_PID=$!
	wait_line "$T/$name.prog" '^ready' "$PROG_PID" "$name: probes"
	# shellcheck disable=SC2086
	trace_and_compare "$name" "$PROG_PID" "$T/$name.prog" "$exe" $probes
	PROG_PID=
	# Semaphore before, while attached, after: 0, 1, 0.
	expect_eq "$name: semaphore before/during/after libbpf" \
		"ready 0;fired 0 1;detached 0" \
		"$(sed -n 's/^ready [0-9]* /ready /p; /^fired/p; /^detached/p' \
			"$T/$name.prog" | paste -sd ';')"
	note "$name: $nprobes probes, $(wc -l <"$T/want") hits, all values match"
}

check_build gcc-O0 gcc -O0
check_build gcc-O2 gcc -O2
check_build clang-O0 clang -O0
check_build clang-O2 clang -O2
check_build gcc-O3-nopie gcc -O3 -fno-pie -no-pie
check_build clang-Os-nopie clang -Os -fno-pie -no-pie
echo "PASS: 6 builds, every argument of every probe read back by libbpf"
