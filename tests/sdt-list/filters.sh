#!/bin/sh
# Globs like tplist's filter the listing by PROVIDER:NAME; --json is valid
# JSON with one object per site; --check exits 1 on a binary with an
# unreadable probe and 0 on one without.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"

build_probes stap "$T/p" -DFLOAT_GLOBAL
"$SDT_LIST" "$T/p" 'probes:mul*' >"$T/out" || fail "sdt-list with a glob"
grep -q '^probes:multi(int32)  2 sites$' "$T/out" || fail "glob lost the match: $(cat "$T/out")"
grep -q 'probes:regs' "$T/out" && fail "glob kept a probe it excludes"
n=$("$SDT_LIST" --json "$T/p" '*:regs' '*:cst' |
	python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
expect_eq "sites matching two globs" 2 "$n"
# A glob matching nothing is an error (exit 2, tests/sdt-list/globs.sh),
# and the JSON stays valid.
"$SDT_LIST" --json "$T/p" 'nomatch:*' >"$T/none.json" 2>/dev/null
expect_eq "--json, a glob matching nothing: status" 2 $?
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$T/none.json")
expect_eq "sites matching nothing" 0 "$n"

"$SDT_LIST" --check "$T/p" >"$T/out"
expect_eq "--check on float/global probes: status" 1 $?
grep -q '^    NO bcc/bpftrace: ' "$T/out" || fail "no NO verdict: $(cat "$T/out")"
"$SDT_LIST" -v --check "$T/p" >"$T/out"
expect_eq "-v --check on float/global probes: status" 1 $?
grep -q 'bcc/bpftrace NO' "$T/out" || fail "no NO verdict in -v: $(cat "$T/out")"

# Only register arguments: every consumer reads them (SystemTap's header,
# as build_probes set it: no types recorded).
cat >"$T/clean.c" <<'C'
#include <sys/sdt.h>
int main(int argc, char **argv)
{
	DTRACE_PROBE2(clean, two, argc, argv);
	return 0;
}
C
$CC -O2 $STAP_INC -o "$T/clean" "$T/clean.c" || fail "build clean"
"$SDT_LIST" --check "$T/clean" >"$T/out" || fail "--check on a clean binary: $(cat "$T/out")"
expect_eq "--check on a clean binary: the probe and the verdict" \
"clean:two(int32, uint64)  1 site
$T/clean: check passed: 1 probe, 1 site: libbpf, bcc/bpftrace, bpftrace 0.25+, gdb and perf read every argument" \
	"$(cat "$T/out")"
"$SDT_LIST" -v --check "$T/clean" >"$T/out" || fail "-v --check on a clean binary: $(cat "$T/out")"
grep -q 'libbpf yes, bcc/bpftrace yes, bpftrace 0.25+ yes, gdb yes, perf yes' "$T/out" ||
	fail "clean verdicts: $(cat "$T/out")"
# The compiler picks each operand (gcc: %edi and %rsi, clang -O2: stack
# slots), so check the JSON against the spec it came from: the argument
# list splits `args', and each description says the sign and size (argc
# an int, argv a pointer) and the operand exactly as the spec writes it.
"$SDT_LIST" --json --check "$T/clean" | python3 -c '
import json, sys
s = json.load(sys.stdin)
assert len(s) == 1 and all(c["ok"] is True for c in s[0]["check"].values()), s
a = s[0]["arguments"]
assert [x["spec"] for x in a] == s[0]["args"].split(), s
for x, size, signed in zip(a, (4, 8), (True, False)):
    assert (x["size"], x["signed"], x["float"]) == (size, signed, False), x
    op = x["spec"].split("@", 1)[1]
    assert x["kind"] == ("register" if op.startswith("%") else "memory"), x
    where = ("in register " if x["kind"] == "register" else "at ") + op
    want = "%ssigned %d bytes %s" % ("" if signed else "un", size, where)
    assert x["description"] == want, (x, want)
assert len(a) == 2, a
' || fail "JSON of the clean binary"
exit 0
