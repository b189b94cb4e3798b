#!/bin/sh
# Typed-probe records only for the probes a program fires, once each: a
# provider of 100 probes, a program that fires 3 of them from two units,
# built through dtrace-gen -h and -G with gcc and clang, with and without
# -flto, carries exactly 3 records, the .d file's (names and types as
# declared, listed by sdt-list); with SystemTap's <sys/sdt.h> the -G
# object writes the same 3. A provider file that declares no provider
# (QEMU generates ten) gives its outputs silently, as SystemTap's dtrace.
# The compiler's compact record of a probe does not stand for the .d
# file's: -G writes that.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"
SDT_LIST=$top_builddir/sdt-list/sdt-list
cd "$T" || fail "cd"

awk 'BEGIN {
	print "provider big {"
	for (i = 0; i < 100; i++)
		printf "\tprobe p%d(int id, const char *name);\n", i
	print "};"
}' >big.d
"$DG" -h -s big.d -o big.h || fail "-h"
cat >one.c <<'C'
#include "big.h"
void one(int id, const char *s)
{
	BIG_P1(id, s);
	BIG_P50(id + 1, s);
}
C
cat >two.c <<'C'
#include "big.h"
void one(int id, const char *s);
int main(int argc, char **argv)
{
	one(argc, argv[0]);
	BIG_P99(argc, argv[0]);
	BIG_P1(argc + 2, argv[0]);
	return 0;
}
C
want="big:p1(int id, const char *name)  2 sites
big:p50(int id, const char *name)  1 site
big:p99(int id, const char *name)  1 site"

# build WHAT CC INCLUDE FLAGS...: the program, its records counted.
build() {
	what=$1 cc=$2 inc=$3
	shift 3
	# shellcheck disable=SC2086
	$cc -O2 "$@" $inc -I. -c one.c -o one.o &&
		$cc -O2 "$@" $inc -I. -c two.c -o two.o ||
		fail "$what: compile"
	"$DG" -G -s big.d -o big.o one.o two.o 2>dg.err || fail "$what: -G: $(cat dg.err)"
	# (clang's -flto objects are bitcode: -G says it cannot tell their
	# machine from them, and that is all it may say.)
	grep -v 'names no machine (LLVM bitcode' dg.err >dg.other
	[ -s dg.other ] && fail "$what: -G said: $(cat dg.other)"
	$cc -O2 "$@" -o prog one.o two.o big.o || fail "$what: link"
	expect_eq "$what: records" 3 "$(readelf -n prog | grep -c '^ *sdtkit ')"
	expect_eq "$what: the listing" "$want" "$("$SDT_LIST" prog 2>&1 | sed 's/, semaphore//')"
}

n=0
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || { note "no $cc"; continue; }
	for lto in "" -flto; do
		build "$cc $lto" $cc "-I$SDT_INCLUDE" $lto
		n=$((n + 1))
	done
	if stap_header "$T/stap-inc"; then
		build "$cc, SystemTap's sys/sdt.h" $cc "$STAP_INC"
	fi
done
[ $n -gt 0 ] || skip "no compiler"

# A compiler's record (a compact one, note type 3, as <sys/sdt.h> and
# <usdt.h> write) is no generated header's, not even one whose bytes
# would read as a header's text record: -G still writes the .d file's
# record of its probe, which wins.
cat >site.c <<'C'
#define SDTKIT_NO_TYPES
#include <sys/sdt.h>
#include "sdtkit-note.h"
NOTE(3, S("big") S("p7") B("2, 8, 16") S("n") S("p"));
NOTE(3, S("big") S("p7") S("2") S("int") S("id") S("const char *") S("name")
		S("header"));
int main(int argc, char **argv)
{
	long n = argc;
	DTRACE_PROBE2(big, p7, n, argv[0]);
	return 0;
}
C
$CC -O2 -I"$SDT_INCLUDE" -I"$top_srcdir/tests/sdt-list" -c site.c -o site.o ||
	fail "compile site.c"
"$DG" -G -s big.d -o site-big.o site.o || fail "-G over a compact record"
$CC -o site site.o site-big.o || fail "link site"
expect_eq "-G over compact records: records" 3 "$(readelf -n site | grep -c '^ *sdtkit ')"
expect_eq "-G over compact records: the listing" "big:p7(int id, const char *name)  1 site" \
	"$("$SDT_LIST" site 2>/dev/null | sed 's/, semaphore//')"

# No provider at all: outputs, exit 0, nothing said.
printf '/* no probes here */\n' >empty.d
"$DG" -h -s empty.d -o empty.h 2>err.h || fail "-h of an empty provider file"
"$DG" -G -s empty.d -o empty.o 2>err.G || fail "-G of an empty provider file"
expect_eq "-h and -G of a file without providers: stderr" "" "$(cat err.h err.G)"
echo "PASS: 3 records for 3 probes of 100 in $n builds; empty provider files silent"
