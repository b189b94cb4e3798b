#!/bin/sh
# <usdt.h> in C++: probes in an inline function used by two units (one
# implicit semaphore for both; at -O0 one site, its discarded copy's note
# gone with it), a function template (a site per instantiation), a member
# function, a lambda, namespaces holding an explicit semaphore; g++ and
# clang++ from C++11 to C++23. libbpf, bpftrace and gdb read every
# argument of every site, perf every probe with one site (it takes a probe
# only while all its sites record the same fields), and each semaphore is
# up while they are attached.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libbpf/lib.sh"
. "$top_srcdir/tests/usdt/lib.sh"
LC_ALL=C
export LC_ALL
need_cmd g++ clang++ gdb perf python3
need_bpftrace
need_libbpf

PROG_PID= TRACER_PID=
trap '[ -n "$PROG_PID" ] && kill -9 "$PROG_PID" 2>/dev/null
	[ -n "$TRACER_PID" ] && kill "$TRACER_PID" 2>/dev/null
	perf_probe_cleanup usdtx; rm -rf "$T"' EXIT

check_build() {
	name=$1 exe=$T/values-$1
	shift
	"$@" -I"$SDT_INCLUDE" -Wall -Wextra -pedantic -Werror -o "$exe" \
		"$USDT_SRC/values.cc" "$USDT_SRC/values-other.cc" ||
		fail "$name: cannot build values.cc values-other.cc"
	check_clean "$exe"
	"$SDT_NOTES" "$exe" >"$T/$name.notes"

	# The inline function's semaphore: one symbol, named by every site.
	expect_eq "$name: __usdt_sema_usdtx__checkout symbols" 1 \
		"$(readelf -sW "$exe" | awk '$8 == "__usdt_sema_usdtx__checkout"' | wc -l)"
	expect_eq "$name: checkout sites' semaphores" 1 \
		"$(sed -n 's/^usdtx:checkout .* sema=\(0x[0-9a-f]*\) .*/\1/p' "$T/$name.notes" |
			sort -u | grep -vc '^0x0$')"
	expect_eq "$name: tmpl sites (one per instantiation)" 3 \
		"$(grep -c '^usdtx:tmpl ' "$T/$name.notes")"
	case $name in
	*-O0) expect_eq "$name: checkout sites (one kept copy)" 1 \
		"$(grep -c '^usdtx:checkout ' "$T/$name.notes")" ;;
	esac

	"$exe" "$T/want-$name" now || fail "$name: values failed"
	expect_eq "$name: semaphores untraced" "state 4 0 0 0 0" \
		"$(grep '^state ' "$T/want-$name")"
	probes=$(probe_argcs "$T/want-$name" | awk '{ print $1 }')
	"$exe" "$T/want-$name" >"$T/$name.prog" 2>&1 &
	PROG_PID=$!
	wait_line "$T/$name.prog" '^ready' "$PROG_PID" "$name: values"
	# shellcheck disable=SC2086
	trace_and_compare "$name" "$PROG_PID" "$T/$name.prog" "$exe" \
		$(echo "$probes" | sed 's/^/usdtx:/')
	PROG_PID=
	read_bpftrace "$name" "$exe" usdtx
	read_gdb "$name" "$exe" usdtx
	single=$(awk '{ sub(/^usdtx:/, "", $1); print $1 }' "$T/$name.notes" |
		sort | uniq -u)
	# shellcheck disable=SC2086
	read_perf "$name" "$exe" usdtx $single
	for r in "" bt- gdb-; do
		expect_eq "$name: semaphores under ${r:-libbpf-}tracer" "state 4 1 1 1 1" \
			"$(grep '^state ' "$T/want-$r$name")"
	done
	note "$name: $(wc -l <"$T/$name.notes") sites read by libbpf, bpftrace, gdb; perf: $(echo $single)"
}

check_build g++-c++11-O0 g++ -std=c++11 -O0
check_build g++-c++20-O2 g++ -std=c++20 -O2
check_build clang++-c++14-O0 clang++ -std=c++14 -O0
check_build clang++-c++2b-O2 clang++ -std=c++2b -O2
echo "PASS: C++ inline functions, templates, members, lambdas and namespaces"
