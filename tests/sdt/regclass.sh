#!/bin/sh
# Arguments held in explicit register variables of every class x86
# compilers can name (general, xmm, mm, st; ymm, zmm, xmm16 and k with
# -mavx512f): tests/sdt/regclass.c compiles with gcc and clang, C and C++,
# -O0 to -O3, for x86_64, i686 (-m32) and x32 (-mx32), without a warning;
# sdt-list --check finds every argument readable by every tracer (so no
# %xmm0, %mm0 or %st spec); and gdb, stopped at each probe, reads the
# value the program had (x86_64, and i686 where it runs): a float as its
# raw bits, which print/f turns back into the number.
. "$top_srcdir/tests/lib.sh"
need_cmd gcc g++ clang clang++
SDT_LIST=$top_builddir/sdt-list/sdt-list
[ -x "$SDT_LIST" ] || fail "$SDT_LIST is not built"
SRC=$top_srcdir/tests/sdt/regclass.c
W="-Wall -Wextra -Werror"
PROBES="general sse_int sse_wide sse_double sse_float mmx_int x87_double x87_float"

{
	echo "set pagination off"
	echo "set confirm off"
	for p in $PROBES; do echo "break -probe-stap regs:$p"; done
	echo "run"
	for p in $PROBES; do
		echo "printf \"$p \""
		echo "output \$_probe_arg0"
		case $p in
		*double | *float) echo 'echo \040' && echo "output/f \$_probe_arg0" ;;
		esac
		echo "echo \\n"
		echo "continue"
	done
} >"$T/cmds"

have_gdb=no
command -v gdb >/dev/null 2>&1 && have_gdb=yes
builds=0 runs=0
# check WHAT FILE: every probe there, every argument readable by all.
check() {
	"$SDT_LIST" --check -v "$2" >"$T/check" 2>&1 ||
		{ cat "$T/check"; fail "$1: sdt-list --check refuses a probe"; }
	grep -q 'libbpf NO\|bpftrace NO\|gdb NO\|perf NO' "$T/check" &&
		{ cat "$T/check"; fail "$1: a tracer cannot read an argument"; }
	for p in $PROBES; do
		grep -q "^regs:$p\$" "$T/check" ||
			{ cat "$T/check"; fail "$1: no probe regs:$p"; }
	done
	builds=$((builds + 1))
}
# run_gdb WHAT EXE: gdb reads what the program wrote down.
run_gdb() {
	[ $have_gdb = yes ] || return 0
	timeout 60 gdb -batch -nx -x "$T/cmds" --args "$2" "$T/expected" \
		>"$T/gdb.out" 2>&1 || { cat "$T/gdb.out"; fail "$1: gdb failed"; }
	expect_eq "$1: values read by gdb" "$(cat "$T/expected")" \
		"$(grep -E "^($(echo $PROBES | tr ' ' '|')) " "$T/gdb.out")"
	runs=$((runs + 1))
}

for o in -O0 -O1 -O2 -O3; do
	for cc in gcc clang "g++ -x c++ -std=c++14" "clang++ -x c++ -std=c++14"; do
		what="$cc $o"
		$cc -I"$SDT_INCLUDE" $W $o -g "$SRC" -o "$T/rc" ||
			fail "$what: does not compile"
		check "$what" "$T/rc"
		run_gdb "$what" "$T/rc"
		# AVX-512 registers: compiled, as the machine may not have them.
		$cc -I"$SDT_INCLUDE" $W $o -mavx512f -DNO_MAIN -c "$SRC" \
			-o "$T/avx.o" || fail "$what -mavx512f: does not compile"
		check "$what -mavx512f" "$T/avx.o"
		for p in avx512_ymm avx512_zmm avx512_xmm17 avx512_k; do
			grep -q "^regs:$p\$" "$T/check" || fail "$what: no regs:$p"
		done
	done
	# x32: Debian ships no x32 C library; the object is what counts.
	for cc in gcc clang; do
		$cc -mx32 -I"$SDT_INCLUDE" $W $o -DNO_MAIN -c "$SRC" -o "$T/x32.o" ||
			fail "$cc -mx32 $o: does not compile"
		check "$cc -mx32 $o" "$T/x32.o"
	done
done

if command -v i686-linux-gnu-gcc >/dev/null 2>&1; then
	for o in -O0 -O1 -O2 -O3; do
		for cc in "i686-linux-gnu-gcc" "clang --target=i686-linux-gnu" \
			"clang++ --target=i686-linux-gnu -x c++ -std=c++14"; do
			what="$cc $o"
			$cc -msse2 -I"$SDT_INCLUDE" $W $o -g "$SRC" -o "$T/rc32" ||
				fail "$what: does not compile"
			check "$what" "$T/rc32"
			can_run_i386 && run_gdb "$what" "$T/rc32"
		done
	done
	can_run_i386 || note "i686 programs not run: $why_i386"
else
	note "i686-linux-gnu-gcc is not installed: -m32 not covered"
fi
[ $have_gdb = yes ] || note "gdb is not installed: values not read"
echo "PASS: $builds builds readable by every tracer, $runs read back by gdb"
