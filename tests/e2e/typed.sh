#!/bin/sh
# From a .d file to a running trace, with nothing written by hand: a
# provider with named, typed arguments goes through dtrace-gen -h and -G,
# is linked with --gc-sections and stripped; sdt-list shows each probe as
# provider:probe(type name, ...), and the program sdt-list --bpftrace
# prints, run with bpftrace -c, reads every argument (the strings through
# str(), as their types say) exactly as the program passed it.
. "$top_srcdir/tests/lib.sh"
DG=$top_builddir/dtrace-gen/dtrace-gen
SDT_LIST=$top_builddir/sdt-list/sdt-list
[ -x "$DG" ] && [ -x "$SDT_LIST" ] || fail "dtrace-gen or sdt-list is not built"
S=$top_srcdir/tests/e2e
cd "$T" || fail "cd"

"$DG" -h -s "$S/shop.d" -o shop.h || fail "dtrace-gen -h"
$CC -O2 -I"$SDT_INCLUDE" -I. -c "$S/shop.c" -o shop.o || fail "compile"
"$DG" -G -s "$S/shop.d" -o probes.o shop.o || fail "dtrace-gen -G"
$CC -Wl,--gc-sections shop.o probes.o -o shop || fail "link"
strip shop || fail "strip"

expect_eq "the listing" \
"e2eshop:order__done(const char *customer, long status, short code)  1 site, semaphore
e2eshop:order__start(const char *customer, int items, unsigned long long cents)  1 site, semaphore
e2eshop:tick(unsigned char)  1 site, semaphore" "$("$SDT_LIST" shop | sort)"

"$SDT_LIST" --bpftrace shop >shop.bt || fail "sdt-list --bpftrace"
need_bpftrace
bpftrace_run shop.bt -c "./shop want" >got.raw ||
	fail "bpftrace ran the printed program badly: $(cat got.raw)"
grep '^e2eshop:' got.raw >got
expect_eq "what bpftrace printed" "$(grep -v '^#' want)" "$(cat got)"
echo "PASS: listed with types and names; the printed bpftrace program read every value"
