#!/bin/sh
# Globs like tplist's filter the listing by PROVIDER:NAME; --json is valid
# JSON with one object per site; --check exits 1 on a binary with an
# unreadable probe and 0 on one without.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"

build_probes stap "$T/p" -DFLOAT_GLOBAL
"$SDT_LIST" "$T/p" 'probes:mul*' >"$T/out" || fail "sdt-list with a glob"
grep -q '^probes:multi (2 sites)$' "$T/out" || fail "glob lost the match: $(cat "$T/out")"
grep -q 'probes:regs' "$T/out" && fail "glob kept a probe it excludes"
n=$("$SDT_LIST" --json "$T/p" '*:regs' '*:cst' |
	python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
expect_eq "sites matching two globs" 2 "$n"
n=$("$SDT_LIST" --json "$T/p" 'nomatch:*' |
	python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
expect_eq "sites matching nothing" 0 "$n"

"$SDT_LIST" --check "$T/p" >"$T/out"
expect_eq "--check on float/global probes: status" 1 $?
grep -q 'bcc/bpftrace NO' "$T/out" || fail "no NO verdict: $(cat "$T/out")"

# Only register arguments: every consumer reads them.
cat >"$T/clean.c" <<'C'
#include <sys/sdt.h>
int main(int argc, char **argv)
{
	DTRACE_PROBE2(clean, two, argc, argv);
	return 0;
}
C
$CC -O2 -o "$T/clean" "$T/clean.c" || fail "build clean"
"$SDT_LIST" --check "$T/clean" >"$T/out" || fail "--check on a clean binary: $(cat "$T/out")"
grep -q 'libbpf yes, bcc/bpftrace yes, gdb yes, perf yes' "$T/out" ||
	fail "clean verdicts: $(cat "$T/out")"
"$SDT_LIST" --json --check "$T/clean" | python3 -c '
import json, sys
s = json.load(sys.stdin)
assert len(s) == 1 and s[0]["check"]["libbpf"]["ok"] is True, s
assert s[0]["arguments"][0]["description"].startswith("signed 4 bytes in register"), s
' || fail "JSON of the clean binary"
exit 0
