#!/bin/sh
# <usdt.h> records the argument types the compiler can tell (integers,
# bool, char *, const char *, other pointers as void *, float, double) and
# the names of arguments passed as plain identifiers in typed-probe
# records, C and C++, gcc and clang: sdt-list shows them with no .d file,
# and its --bpftrace program, run by bpftrace, prints the const char * and
# char * arguments by name, as the strings the program passed. The
# records cost nothing at the site: with SDTKIT_NO_TYPES (no records) the
# code and the stapsdt notes are byte for byte the same.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/usdt/lib.sh"
cd "$T" || fail "cd"

want="typed:open(const char *path, int, long)  1 site
typed:bytes(char *buf, unsigned char, unsigned long long, uint32 p)  1 site
typed:level(unsigned int l, short, void *, double)  1 site"

built=0
for cc in gcc clang g++ clang++; do
	command -v $cc >/dev/null 2>&1 || { note "no $cc"; continue; }
	for opt in -O0 -O2; do
		# C99 takes the GNU C type comparison, C11 _Generic: both.
		case $cc$opt in
		*++*) lang="-x c++ -std=c++11" ;;
		*-O0) lang="-std=c99" ;;
		*) lang="-std=c11" ;;
		esac
		exe=$T/typed-$cc$opt
		# shellcheck disable=SC2086
		$cc $lang $opt -pedantic -Wall -Wextra -Werror -I"$SDT_INCLUDE" \
			-o "$exe" "$USDT_SRC/typed.c" ||
			fail "$cc $opt: build"
		# shellcheck disable=SC2086
		$cc $lang $opt -pedantic -Wall -Wextra -Werror -I"$SDT_INCLUDE" \
			-DSDTKIT_NO_TYPES -o "$exe.plain" "$USDT_SRC/typed.c" ||
			fail "$cc $opt: build with SDTKIT_NO_TYPES"
		same_code "$exe" "$exe.plain" "$cc $opt"
		"$SDT_LIST" "$exe" >"$exe.list" 2>&1 || fail "$cc $opt: sdt-list: $(cat "$exe.list")"
		expect_eq "$cc $opt: the listing" "$want" "$(cat "$exe.list")"
		"$SDT_LIST" "$exe.plain" | grep -q '^typed:open(uint64, int32, int64)' ||
			fail "$cc $opt: without records: $("$SDT_LIST" "$exe.plain")"
		check_clean "$exe"
		built=$((built + 1))
	done
done
[ $built -gt 0 ] || skip "no compiler"

# Later standards, pedantic: the header compiles in each.
for std in c11 c17 c2x; do
	gcc -std=$std -pedantic -Werror -fsyntax-only -I"$SDT_INCLUDE" \
		"$USDT_SRC/typed.c" || fail "gcc -std=$std"
done
for std in c++14 c++17 c++20 c++2b; do
	g++ -x c++ -std=$std -pedantic -Werror -fsyntax-only -I"$SDT_INCLUDE" \
		"$USDT_SRC/typed.c" || fail "g++ -std=$std"
done

# _BitInt (C23; gcc 14 and clang 16 on): up to 64 bits passed as a long
# long of its sign (clang takes no _BitInt as an asm operand), wider as
# its first 8 bytes, like a struct.
printf '#include <usdt.h>\nint main(void)\n{\n\t_BitInt(32) a = -5;\n\tunsigned _BitInt(20) b = 9;\n\tunsigned _BitInt(128) c = 7;\n\tUSDT(bi, small, a, b);\n\tUSDT(bi, big, c);\n\treturn 0;\n}\n' >bitint.c
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	printf '_BitInt(32) x;\n' | $cc -std=c2x -x c -c - -o /dev/null 2>/dev/null ||
		{ note "$cc: no _BitInt"; continue; }
	$cc -std=c2x -O2 -pedantic -Wall -Wextra -Werror -I"$SDT_INCLUDE" \
		-o bitint-$cc bitint.c || fail "$cc: _BitInt arguments"
	expect_eq "$cc: _BitInt specs" "-8 8 8" "$(readelf -n bitint-$cc |
		sed -n 's/^ *Arguments: //p' | tr ' ' '\n' | sed 's/@.*//' | tr '\n' ' ' | sed 's/ $//')"
	check_clean bitint-$cc
done

# bpftrace prints what sdt-list's program says: the strings as strings.
need_bpftrace
exe=$T/typed-gcc-O2
"$SDT_LIST" --bpftrace "$exe" 'typed:open' 'typed:bytes' >typed.bt ||
	fail "sdt-list --bpftrace"
grep -q 'str(arg0)' typed.bt || fail "no str() in the program: $(cat typed.bt)"
# Beside each str(), why it may print nothing on a first hit.
expect_eq "a comment before each printf with str()" 2 \
	"$(grep -B1 'str(arg0)' typed.bt | grep -c '// str() can print "" on a first hit: .*(docs/tracers.md)$')"
bpftrace_run typed.bt -c "$exe /tmp/typed-path" >bt.out ||
	fail "bpftrace refused the program: $(cat bt.out)"
grep -qx 'typed:open path=/tmp/typed-path arg1=2 arg2=6' bt.out ||
	fail "bpftrace did not print the const char * string: $(cat bt.out)"
grep -qx 'typed:bytes buf=buf-2 arg1=2 arg2=2 p=131073' bt.out ||
	fail "bpftrace did not print the char * string: $(cat bt.out)"
echo "PASS: types recorded by $built builds, code unchanged, strings printed by bpftrace"
