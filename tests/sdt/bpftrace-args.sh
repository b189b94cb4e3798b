#!/bin/sh
# bpftrace attaches to every probe of tests/sdt/values.c (0 to 12 arguments:
# negative, zero, extremes, globals, thread-locals, pointers, strings, float
# bits) and prints each argument; the program wrote what it passed. Built
# with gcc and clang, -O0 and -O2, so registers, constants and frame slots
# are all read back. bpftrace 0.17 reads arg0..arg5 of a USDT probe on
# x86_64 ("x86_64 doesn't support arg6"): gdb-probes.sh reads all twelve.
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL
need_bpftrace

script='
usdt:$1:vals:a0 { printf("a0\n"); }
usdt:$1:vals:a1 { printf("a1 %d\n", arg0); }
usdt:$1:vals:a2 { printf("a2 %lld %llu\n", arg0, arg1); }
usdt:$1:vals:a3 { printf("a3 %u %d %d\n", arg0, arg1, arg2); }
usdt:$1:vals:a4 { printf("a4 %u %u %d %d\n", arg0, arg1, arg2, arg3); }
usdt:$1:vals:a5 { printf("a5 %d %ld %d %d %d\n", arg0, arg1, arg2, arg3, arg4); }
usdt:$1:vals:a6 { printf("a6 %d %d %d %d %d %d\n", arg0, arg1, arg2, arg3, arg4, arg5); }
usdt:$1:vals:a7 { printf("a7 %d %lld %llu %u %d %d\n", arg0, arg1, arg2, arg3, arg4, arg5); }
usdt:$1:vals:a8 { printf("a8 %llu %lld %u %d %u %d\n", arg0, arg1, arg2, arg3, arg4, arg5); }
usdt:$1:vals:a9 { printf("a9 %d %d %d %d %d %d\n", arg0, arg1, arg2, arg3, arg4, arg5); }
usdt:$1:vals:a10 { printf("a10 %lld %llu %lld %llu %lld %llu\n", arg0, arg1, arg2, arg3, arg4, arg5); }
usdt:$1:vals:a11 { printf("a11 %d %d %d %lld %llu %llu\n", arg0, arg1, arg2, arg3, arg4, arg5); }
usdt:$1:vals:a12 { printf("a12 %s %d %lld %llu %d %d\n", str(arg0), arg1, arg2, arg3, arg4, arg5); }
usdt:$1:vals:strings { printf("strings %s %s %s\n", str(arg0), str(arg1), str(arg2)); }
usdt:$1:vals:floats { printf("floats %u %llu\n", arg0, arg1); }
'
runs=0
for cc in gcc clang; do
	for o in -O0 -O2; do
		exe=$T/values-$cc$o
		$cc -I"$SDT_INCLUDE" $o -Wall -Wextra -o "$exe" \
			"$top_srcdir/tests/sdt/values.c" || fail "$cc $o: build"
		"$SDT_NOTES" "$exe" >/dev/null || fail "$cc $o: invalid spec"
		prog=$(printf '%s\n' "$script" | sed "s|\\\$1|$exe|")
		bpftrace_run -e "$prog" -c "$exe $T/expected" >"$T/out" ||
			{ cat "$T/out"; fail "$cc $o: bpftrace failed"; }
		grep -v '^#' "$T/expected" |
			awk '{ l = $1; for (i = 2; i <= NF && i <= 7; i++) l = l " " $i; print l }' |
			sort >"$T/want"
		grep -E '^(a[0-9]+|strings|floats)( |$)' "$T/out" | sort >"$T/got"
		expect_eq "$cc $o: values read by bpftrace" "$(cat "$T/want")" \
			"$(cat "$T/got")"
		runs=$((runs + 1))
	done
done
echo "PASS: $runs builds, 15 probes each, every value read back"
