#!/bin/sh
# A leaf function's red zone survives a traced fast site. tests/libbpf/
# redzone.c keeps 112 bytes of live data below %rsp across two probes,
# traced through the call path by libbpf f7081a6b (every argument
# compared): rz:fast, <sys/sdt.h>'s fast site, must leave every word as it
# was on every hit; rz:raw, the same `nop; nop5' without the step over the
# red zone, must show damage (the kernel's call pushes there), which proves
# the check sees it. Built with gcc (its disassembly must show the data
# stored below %rsp) and clang, at -O2.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libbpf/lib.sh"
LC_ALL=C
export LC_ALL
need_cmd gcc clang objdump
need_libbpf_new
TRACER=$TRACER_NEW BPF_OBJ=$BPF_OBJ_NEW
N=200

PROG_PID= TRACER_PID=
trap '[ -n "$PROG_PID" ] && kill -9 "$PROG_PID" 2>/dev/null
	[ -n "$TRACER_PID" ] && kill "$TRACER_PID" 2>/dev/null; rm -rf "$T"' EXIT

# raw_site NAME PID OBJ: the bytes at rz:raw while attached.
raw_site() {
	off=$(sed -n 's/^rz:raw .*pc_off=\(0x[0-9a-f]*\).*/\1/p' "$T/notes-$1")
	site_bytes "$2" "$3" "$off" 2 >"$T/raw-$1"
}
ON_FIRED=raw_site

check() { # CC
	name=$1
	exe=$T/redzone-$1
	$1 -O2 -Wall -Wextra -DSDTKIT_FAST_ATTACH -I"$SDT_INCLUDE" -o "$exe" \
		"$top_srcdir/tests/libbpf/redzone.c" >"$T/cc.log" 2>&1 ||
		fail "$1: cannot build redzone.c: $(cat "$T/cc.log")"
	"$SDT_NOTES" --offsets "$exe" >"$T/notes-$name" || fail "$1: bad notes"
	if [ "$1" = gcc ]; then
		objdump -d --no-show-raw-insn "$exe" |
			sed -n '/<leaf_fast>:/,/^$/p' >"$T/leaf.s"
		grep -q 'mov .*,-0x[0-9a-f]*(%rsp' "$T/leaf.s" ||
			fail "gcc: leaf_fast stores nothing below %rsp: $(cat "$T/leaf.s")"
	fi
	"$exe" "$T/want-$name" $N >"$T/$name.prog" 2>&1 &
	PROG_PID=$!
	wait_line "$T/$name.prog" '^ready' "$PROG_PID" "$name: redzone"
	trace_and_compare "$name" "$PROG_PID" "$T/$name.prog" "$exe" rz:fast rz:raw
	PROG_PID=
	[ "$(cut -c1-4 "$T/raw-$name")" = 90e8 ] ||
		skip "the kernel did not turn the 5-byte nop into a call (rz:raw reads $(cat "$T/raw-$name")): no call path to test"
	set -- $(sed -n 's/^fired //p' "$T/$name.prog")
	expect_eq "$name: words of the red zone changed across rz:fast" 0 "$1"
	[ "$2" -gt 0 ] ||
		fail "$name: the bare nop; nop5 left the red zone intact: the check cannot see damage"
	note "$name: $N hits each, values exact; red zone intact at the fast site, $2 words hit at the bare one"
}

check gcc
check clang
echo "PASS: the fast site keeps a leaf's red zone intact under the call path"
