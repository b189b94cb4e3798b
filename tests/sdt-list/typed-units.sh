#!/bin/sh
# One probe fired from two units with arguments of different widths: an
# `int x' in one, a `long big' in the other. The link keeps one unit's
# record group of the probe, so the record of the `int' describes the
# site passing a `long' too. sdt-list must not read that site through it,
# nor the probe's other sites (which of them the kept unit's are, no
# reader can tell): -v and --json name no type at any site, --check says
# why, and the
# bpftrace program it prints shows the `long' whole (-5000000000), not
# cut to 4 bytes. Nor must an `unsigned' of one unit read another's
# `int' -1 as 4294967295: a record fits a site only where the sign is the
# spec's too.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_bpftrace

cat >"$T/w1.c" <<'C'
#include <sys/sdt.h>
void f1(int x) { DTRACE_PROBE1(typedunits, req, x); }
void f2(unsigned u) { DTRACE_PROBE1(typedunits, sign, u); }
C
cat >"$T/w2.c" <<'C'
#include <sys/sdt.h>
void f1(int);
void f2(unsigned);
int main(int argc, char **argv)
{
	long big = -5000000000L * argc;

	(void)argv;
	f1(-1);
	DTRACE_PROBE1(typedunits, req, big);
	f2(7);
	DTRACE_PROBE1(typedunits, sign, -argc);
	return 0;
}
C
$CC -O1 -I"$SDT_INCLUDE" -o "$T/prog" "$T/w1.c" "$T/w2.c" || fail "cannot build"
"$SDT_LIST" -v "$T/prog" >"$T/v" 2>"$T/err" || fail "sdt-list -v: $(cat "$T/err")"
grep -q 'int x: signed 8 bytes' "$T/v" &&
	fail "the 8-byte site is read through the 4-byte int's record: $(cat "$T/v")"
grep -q 'int x\|unsigned int u' "$T/v" &&
	fail "sdt-list -v reads a site by the record of a probe it does not fit: $(cat "$T/v")"
grep -q 'arg0: signed 8 bytes' "$T/v" ||
	fail "sdt-list -v does not show the 8-byte site untyped: $(cat "$T/v")"
grep -q 'unsigned int u: signed 4 bytes' "$T/v" &&
	fail "the signed site is read through the unsigned's record: $(cat "$T/v")"

"$SDT_LIST" --json "$T/prog" >"$T/j" 2>"$T/err" || fail "sdt-list --json: $(cat "$T/err")"
expect_eq "--json: sites typed by the spec" "4 4" \
	"$(grep -c '"types_from":"spec"' "$T/j") $(grep -c '"types_from"' "$T/j")"

"$SDT_LIST" --check "$T/prog" >"$T/c" 2>&1 || fail "sdt-list --check fails: $(cat "$T/c")"
expect_eq "--check: probes whose record does not fit a site" 2 \
	"$(grep -c 'does not fit the widths and signs of a site' "$T/c")"

"$SDT_LIST" --bpftrace "$T/prog" >"$T/p.bt" 2>"$T/err" ||
	fail "sdt-list --bpftrace: $(cat "$T/err")"
bpftrace_until "$T/bt.out" '[ "$(grep -c "typedunits:" "$T/bt.out")" -ge 4 ]' \
	"$T/p.bt" -c "$T/prog"
grep -q 'typedunits:req .*=-5000000000$' "$T/bt.out" ||
	fail "bpftrace did not print the long whole: $(cat "$T/bt.out") from $(cat "$T/p.bt")"
grep -q 'typedunits:req .*=-1$' "$T/bt.out" ||
	fail "bpftrace did not print the int: $(cat "$T/bt.out")"
grep -q 'typedunits:sign .*=-1$' "$T/bt.out" ||
	fail "bpftrace did not print the int -1 as -1: $(cat "$T/bt.out") from $(cat "$T/p.bt")"
grep -q 'typedunits:sign .*=7$' "$T/bt.out" ||
	fail "bpftrace did not print the unsigned: $(cat "$T/bt.out")"
