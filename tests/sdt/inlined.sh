#!/bin/sh
# libbpf on probes in always-inline functions (tests/sdt/inlined.c), as
# libbpf's own USDT tests place them: all 300 sites of a probe whose sites
# pass 300 different constants attach and read their constant (every site
# has the same spec, so libbpf's 256 spec slots suffice; sdt-notes counts
# the distinct specs), and a 12-argument probe at two sites, guarded by a
# semaphore the program defines itself, reads array elements, a volatile struct's signed char, a
# negative constant, a 64-bit pattern and an address. gcc and clang at
# -O2, through usdt-trace (libbpf's bpf_program__attach_usdt()). Slow:
# the kernel takes about a minute here to remove 300 uprobes.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libbpf/lib.sh"
LC_ALL=C
export LC_ALL
need_cmd gcc clang
need_libbpf

PROG_PID= TRACER_PID=
trap '[ -n "$PROG_PID" ] && kill -9 "$PROG_PID" 2>/dev/null
	[ -n "$TRACER_PID" ] && kill "$TRACER_PID" 2>/dev/null; rm -rf "$T"' EXIT

runs=0
for cc in gcc clang; do
	for o in -O2; do
		name=$cc$o exe=$T/inlined-$cc$o
		$cc -I"$SDT_INCLUDE" -Wall -Wextra -Werror $o \
			"$top_srcdir/tests/sdt/inlined.c" -o "$exe" ||
			fail "$name: does not compile"
		"$SDT_NOTES" "$exe" >"$T/notes" || fail "$name: the validator refuses a spec"
		expect_eq "$name: sites of inlined:konst" 300 \
			"$(grep -c '^inlined:konst ' "$T/notes")"
		expect_eq "$name: distinct specs of inlined:konst" 1 \
			"$(sed -n 's/^inlined:konst .* args=//p' "$T/notes" | sort -u | wc -l | tr -d ' ')"
		"$exe" "$T/want-$name" >"$T/$name.prog" 2>&1 &
		PROG_PID=$!
		wait_line "$T/$name.prog" '^ready' "$PROG_PID" "$name: probes"
		trace_and_compare "$name" "$PROG_PID" "$T/$name.prog" "$exe" \
			inlined:konst inlined:mixed
		PROG_PID=
		runs=$((runs + 1))
	done
done
echo "PASS: $runs builds: libbpf attaches every inlined site and reads each value"
