#!/bin/sh
# <sys/sdt.h> records what each probe argument is, with no .d file: the
# type the compiler saw (integers, bool, char *, const char *, other
# pointers as void *, float, double) and, where the argument is a plain
# identifier, its name. C89 to C2x and C++98 to C++20, gcc and clang,
# -pedantic: sdt-list lists `typed:request(int id, char *path)', and its
# --bpftrace program, run by bpftrace, prints `id=0 path=/page/0.html'.
# The records cost nothing at the site: with SDTKIT_NO_TYPES the code and
# the stapsdt notes are byte for byte the same. One record per probe in a
# linked program, however many units and sites, with -flto too.
. "$top_srcdir/tests/lib.sh"
cd "$T" || fail "cd"
SDT_LIST=$top_builddir/sdt-list/sdt-list
SRC=$top_srcdir/tests/sdt/typed.c

want="typed:request(int id, char *path)  1 site
typed:reply(int, const char *host, unsigned int level)  1 site
typed:misc(unsigned char, void *, double ratio, BOOL)  1 site"

built=0
for cc in gcc clang g++ clang++; do
	command -v $cc >/dev/null 2>&1 || { note "no $cc"; continue; }
	case $cc in
	*++) stds="c++98 c++11 c++20" bool=bool lang="-x c++" ;;
	# C's comparison (id | 1) != 0 is an int.
	*) stds="c89 c99 c11 c2x" bool=int lang= ;;
	esac
	for std in $stds; do
		for opt in -O0 -O2; do
			exe=$T/typed-$cc-$std$opt
			# shellcheck disable=SC2086
			$cc $lang -std=$std $opt -pedantic -Wall -Wextra -Werror \
				-I"$SDT_INCLUDE" -o "$exe" "$SRC" ||
				fail "$cc -std=$std $opt: build"
			# shellcheck disable=SC2086
			$cc $lang -std=$std $opt -pedantic -Wall -Wextra -Werror \
				-I"$SDT_INCLUDE" -DSDTKIT_NO_TYPES -o "$exe.plain" "$SRC" ||
				fail "$cc -std=$std $opt: build with SDTKIT_NO_TYPES"
			same_code "$exe" "$exe.plain" "$cc -std=$std $opt"
			"$SDT_LIST" "$exe" >"$exe.list" 2>&1 ||
				fail "$cc -std=$std $opt: sdt-list: $(cat "$exe.list")"
			expect_eq "$cc -std=$std $opt: the listing" \
				"$(echo "$want" | sed "s/BOOL/$bool/")" "$(cat "$exe.list")"
			"$SDT_LIST" "$exe.plain" | grep -q '^typed:request(int32, uint64)' ||
				fail "$cc -std=$std $opt: without records: $("$SDT_LIST" "$exe.plain")"
			built=$((built + 1))
		done
	done
done
[ $built -gt 0 ] || skip "no compiler"

# One record per probe: two units firing the same probes, linked, with
# and without -flto (the units become one assembler stream there).
sed 's/^int main(/int main2(/' "$SRC" >other.c
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	for lto in "" -flto; do
		$cc -O2 $lto -I"$SDT_INCLUDE" -c "$SRC" -o one.o &&
			$cc -O2 $lto -I"$SDT_INCLUDE" -c other.c -o two.o &&
			$cc -O2 $lto -o linked one.o two.o ||
			fail "$cc $lto: two units"
		n=$(readelf -n linked | grep -c '^ *sdtkit ')
		expect_eq "$cc $lto: records for 3 probes in two units" 3 "$n"
	done
done

# bpftrace prints what sdt-list's program says: names, and the strings.
need_bpftrace
exe=$T/typed-gcc-c11-O2
"$SDT_LIST" --bpftrace "$exe" >typed.bt || fail "sdt-list --bpftrace"
grep -q 'path=%s' typed.bt || fail "no path= in the program: $(cat typed.bt)"
bpftrace_run typed.bt -c "$exe" >bt.out ||
	fail "bpftrace refused the program: $(cat bt.out)"
grep -qx 'typed:request id=0 path=/page/0.html' bt.out ||
	fail "bpftrace did not print the name and the string: $(cat bt.out)"
grep -qx 'typed:reply arg0=4 host=example.org level=1' bt.out ||
	fail "bpftrace did not print the const char * string: $(cat bt.out)"
echo "PASS: names and types recorded by $built builds, code unchanged, one record per probe, printed by bpftrace"
