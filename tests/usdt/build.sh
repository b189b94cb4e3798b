#!/bin/sh
# <usdt.h> compiles warning-free (-Wall -Wextra -pedantic -Werror) in C99
# to C23 and C++11 to C++23 with gcc and clang, without __VA_OPT__ or
# GNU's ", ##__VA_ARGS__"; 0 to 12 arguments; beside <sys/sdt.h> in one
# unit, included before or after; struct and other odd-sized values pass
# as 1, 2, 4 or 8 bytes; for every target we cross-compile, every spec is
# one every consumer reads. USDT_NOP is the site as written (commas too),
# SDTKIT_FAST_ATTACH gives the fast-attach site, USDT_ARG_CONSTRAINT
# changes nothing; SystemTap's <sys/sdt.h> or libbpf's usdt.h included
# first, and a 13th argument, are compile errors.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/usdt/lib.sh"
LC_ALL=C
export LC_ALL
API_C=$USDT_SRC/api.c
W="-Wall -Wextra -pedantic -Werror"

# spec_of NOTES NAME: the argument spec of usdta:NAME.
spec_of() { sed -n "s/^usdta:$2 .* args=//p" "$1"; }
# sizes SPEC: the size prefixes, "-4 4 8".
sizes() { echo "$1" | tr ' ' '\n' | sed -n 's/@.*//p' | tr '\n' ' ' | sed 's/ $//'; }

# check_api WHAT OBJECT: the probes of api.c, as they must be on x86_64.
check_api() {
	check_clean "$2"
	"$SDT_NOTES" "$2" >"$T/api.notes"
	i=0
	while [ $i -le 12 ]; do
		expect_eq "$1: usdta:a$i argument count" $i \
			"$(spec_of "$T/api.notes" a$i | wc -w | tr -d ' ')"
		i=$((i + 1))
	done
	expect_eq "$1: struct, 16-byte struct, long double" "4 8 8" \
		"$(sizes "$(spec_of "$T/api.notes" rec_three) $(spec_of "$T/api.notes" rec_sixteen) $(spec_of "$T/api.notes" rec_long_double)")"
	# A bit-field has its width's type in gcc's C, its declared or
	# promoted type in clang and in C++.
	case $1 in
	"gcc "* | "sys/sdt.h first") bf="-1 1" ;;
	*) bf="-4 4" ;;
	esac
	expect_eq "$1: bit-fields, array, string, function, float" "$bf 8 8 8 4" \
		"$(sizes "$(spec_of "$T/api.notes" scalars)")"
	for p in implicit implicit_args explicit0 explicit2 stap stapv dtrace; do
		grep -q "^usdta:$p " "$T/api.notes" || fail "$1: no usdta:$p"
	done
	# Semaphores: both implicit probes' notes name __usdt_sema_usdta__*,
	# relocations against those symbols in a relocatable object.
	readelf -rW "$2" | grep -q '__usdt_sema_usdta__implicit ' ||
		fail "$1: no relocation against __usdt_sema_usdta__implicit"
	readelf -rW "$2" | grep -q '__usdt_sema_api_explicit' ||
		fail "$1: no relocation against __usdt_sema_api_explicit"
}

n=0
for cc in gcc clang; do
	for std in c99 c11 c17 c2x gnu99; do
		$cc -std=$std $W -O2 -I"$SDT_INCLUDE" -c "$API_C" -o "$T/api.o" ||
			fail "$cc -std=$std: api.c does not compile cleanly"
		check_api "$cc -std=$std" "$T/api.o"
		n=$((n + 1))
	done
done
for cxx in g++ clang++; do
	for std in c++11 c++14 c++17 c++20 c++2b; do
		$cxx -x c++ -std=$std $W -O2 -I"$SDT_INCLUDE" -c "$API_C" -o "$T/api.o" ||
			fail "$cxx -std=$std: api.c does not compile cleanly"
		check_api "$cxx -std=$std" "$T/api.o"
		n=$((n + 1))
	done
done
# <sys/sdt.h> first, then <usdt.h>; -O0.
gcc -DSDT_FIRST -std=c11 $W -O0 -I"$SDT_INCLUDE" -c "$API_C" -o "$T/api.o" ||
	fail "<sys/sdt.h> before <usdt.h> does not compile"
check_api "sys/sdt.h first" "$T/api.o"
note "$((n + 1)) language builds: 0 to 12 arguments, every spec readable"

# Linked, the implicit semaphore is a hidden 2-byte object in .probes.
gcc -O2 -I"$SDT_INCLUDE" -shared -fPIC "$API_C" -o "$T/libapi.so" ||
	fail "api.c does not link into a shared object"
check_clean "$T/libapi.so"
sym=$(readelf -sW "$T/libapi.so" | awk '$8 == "__usdt_sema_usdta__implicit"')
# Hidden: the linker binds it locally (LOCAL in a shared object's table).
echo "$sym" | awk '{ exit !($3 == 2 && $4 == "OBJECT" && ($5 == "LOCAL" || $6 == "HIDDEN")) }' ||
	fail "shared object: implicit semaphore is not a local 2-byte object: $sym"
ndx=$(echo "$sym" | awk '{ print $7 }')
expect_eq "shared object: implicit semaphore's section" .probes \
	"$(readelf -SW "$T/libapi.so" | sed 's/^ *\[ *\([0-9]*\)\] */\1 /' |
		awk -v n="$ndx" '$1 == n { print $2 }')"

# The site. bytes_at FILE NAME N: the N bytes at usdta:NAME's address.
bytes_at() {
	pc=$(sed -n "s/^usdta:$2 pc=\(0x[0-9a-f]*\) .*/\1/p" "$T/site.notes" | head -n 1)
	python3 -c 'import sys
data = open(sys.argv[1], "rb").read()
off = int(sys.argv[2], 16)
print(data[off:off + int(sys.argv[3])].hex())' "$1" "$pc" "$3"
}
if [ "$(uname -m)" = x86_64 ] && command -v python3 >/dev/null 2>&1; then
	site() {
		gcc -O2 -I"$SDT_INCLUDE" -shared -fPIC "$@" "$API_C" -o "$T/site.so" ||
			fail "api.c with $*: does not build"
		"$SDT_NOTES" --offsets "$T/site.so" >"$T/site.notes" ||
			fail "api.c with $*: a spec is refused"
		# In a shared object at these addresses, pc is the file offset.
		sed -i 's/ pc=0x[0-9a-f]* \(.*\) pc_off=\(0x[0-9a-f]*\)/ pc=\2 \1/' "$T/site.notes"
	}
	site
	expect_eq "default site: one nop" 90 "$(bytes_at "$T/site.so" a1 1)"
	site '-DUSDT_NOP=.byte 0x0f, 0x1f, 0x44, 0x00, 0x00'
	expect_eq "USDT_NOP with commas: the 5-byte nop" 0f1f440000 "$(bytes_at "$T/site.so" a1 5)"
	site -DSDTKIT_FAST_ATTACH
	expect_eq "SDTKIT_FAST_ATTACH: nop, nop5" 900f1f440000 "$(bytes_at "$T/site.so" a1 6)"
	site
	cp "$T/site.notes" "$T/plain.notes"
	site -DUSDT_ARG_CONSTRAINT=nor
	expect_eq "USDT_ARG_CONSTRAINT=nor changes no spec" \
		"$(sed 's/ pc=[^ ]*//; s/ base=[^ ]*//' "$T/plain.notes")" \
		"$(sed 's/ pc=[^ ]*//; s/ base=[^ ]*//' "$T/site.notes")"
	note "sites: nop; USDT_NOP as written; fast-attach; USDT_ARG_CONSTRAINT ignored"
fi

# Compile errors, each with its reason.
expect_error() {
	what=$1 pattern=$2
	shift 2
	if "$@" >"$T/err.log" 2>&1; then
		fail "$what: compiles"
	fi
	grep -q "$pattern" "$T/err.log" ||
		fail "$what: error without '$pattern': $(head -n 5 "$T/err.log")"
}
printf '#define __USDT_H\n#include <usdt.h>\n' >"$T/libbpf-first.c"
expect_error "libbpf's usdt.h first" "libbpf's usdt.h is already included" \
	gcc -I"$SDT_INCLUDE" -c "$T/libbpf-first.c" -o "$T/x.o"
printf '#include <usdt.h>\nvoid f(void) { USDT(p, n, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13); }\n' >"$T/thirteen.c"
expect_error "13 arguments" "error" gcc -I"$SDT_INCLUDE" -c "$T/thirteen.c" -o "$T/x.o"
printf '#include <usdt.h>\n' >"$T/c89.c"
expect_error "C89" "variadic macros" gcc -std=c89 -I"$SDT_INCLUDE" -c "$T/c89.c" -o "$T/x.o"
stap=$(echo '#include <sys/sdt.h>' | gcc -E -H -x c - -o /dev/null 2>&1 | sed -n 's/^\. //p' | head -n 1)
if [ -n "$stap" ] && ! grep -q SDTKIT_SDT_H "$stap"; then
	mkdir -p "$T/inc" && cp -r "$SDT_INCLUDE/sys" "$SDT_INCLUDE/usdt.h" "$T/inc/"
	cat >"$T/stap-first.c" <<'C'
#include <sys/sdt.h>
#include "inc/usdt.h"
USDT_DEFINE_SEMA(shared);
int main(int argc, char **argv)
{
	if (USDT_IS_ACTIVE(app, req))
		USDT_WITH_SEMA(app, req, argc);
	USDT(app, start, argc, argv);
	USDT_WITH_EXPLICIT_SEMA(shared, app, done, argc);
	return USDT_SEMA_IS_ACTIVE(shared);
}
C
	# The #error stands alone: the API's uses add no error of their own.
	for cc in gcc clang "g++ -x c++" "clang++ -x c++"; do
		command -v ${cc%% *} >/dev/null 2>&1 || continue
		expect_error "$cc: SystemTap's sys/sdt.h first" \
			"SystemTap's <sys/sdt.h> was included first" \
			$cc -c "$T/stap-first.c" -o "$T/x.o"
		expect_eq "$cc: SystemTap's sys/sdt.h first: errors" 1 \
			"$(grep -c 'error:' "$T/err.log")"
	done
else
	note "SystemTap's <sys/sdt.h> is not installed: its case not checked"
fi

# Other targets: every spec one that every consumer of that machine reads.
c=0
for t in i686-linux-gnu aarch64-linux-gnu arm-linux-gnueabihf \
	riscv64-linux-gnu powerpc64le-linux-gnu s390x-linux-gnu; do
	for cc in "$t-gcc" "clang --target=$t"; do
		command -v ${cc%% *} >/dev/null 2>&1 || continue
		[ -d "/usr/$t" ] || continue
		$cc $W -std=c11 -O2 -I"$SDT_INCLUDE" -c "$API_C" -o "$T/x.o" 2>"$T/x.log" ||
			fail "$cc: api.c does not compile: $(head -n 5 "$T/x.log")"
		"$SDT_NOTES" "$T/x.o" >"$T/x.notes" 2>"$T/x.err" ||
			fail "$cc: the validator refuses a spec: $(cat "$T/x.err")"
		case $t in
		i686* | aarch64*) "$SDT_LIST" --check "$T/x.o" >"$T/x.check" 2>&1 ||
			fail "$cc: sdt-list --check: $(grep -B2 NO "$T/x.check" | head -n 20)" ;;
		esac
		c=$((c + 1))
	done
done
note "$c cross builds validated"
echo "PASS: usdt.h builds in every language mode, with every target's safe specs"
