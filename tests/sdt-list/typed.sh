#!/bin/sh
# The default listing is one line per probe, with the argument types and
# names of the sdtkit type record (tests/sdt-list/typed.c writes records by
# hand, as dtrace-gen -G does) and size words where there is none; a
# repeated record is fine, a disagreeing one and one whose argument count
# is not the probe's are reported by --check, a malformed one is skipped
# with a warning and never fails the listing; --json carries each
# argument's type and name. A 10 000-site binary lists in at most one line
# per probe.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"

$CC -O2 -I"$top_srcdir/include" -o "$T/typed" "$top_srcdir/tests/sdt-list/typed.c" ||
	fail "cannot build typed.c"
"$SDT_LIST" "$T/typed" >"$T/out" 2>"$T/err"
expect_eq "listing with a malformed record: status" 0 $?
expect_eq "the listing" "sdtlist_shop:order__start(const char *customer, int items, unsigned long long cents)  1 site
sdtlist_shop:refund(long amount, struct conn *)  1 site
sdtlist_shop:mismatch(int32)  1 site
sdtlist_shop:bad(int32)  1 site
sdtlist_shop:untyped(uint8, int16)  1 site
sdtlist_shop:many(long a, long b, long c, long d, long e, long f, long g, long h)  1 site" "$(cat "$T/out")"
grep -q "^sdt-list: warning: $T/typed: type record 6 in .note.sdtkit ignored (malformed: " "$T/err" ||
	fail "no warning for the malformed record: $(cat "$T/err")"

"$SDT_LIST" --check "$T/typed" >"$T/out" 2>/dev/null
# refund's two records disagree and neither is a header's fallback.
expect_eq "--check: status" 1 $?
sed -n '/^sdtlist_shop:refund/,/^sdtlist_shop:mismatch/p' "$T/out" | grep -q 'warning: its type records disagree' ||
	fail "--check does not report disagreeing records: $(cat "$T/out")"
sed -n '/^sdtlist_shop:mismatch/,/^sdtlist_shop:bad/p' "$T/out" |
	grep -q 'warning: its type record has 3 arguments, its spec 1: types not used' ||
	fail "--check does not report the count mismatch: $(cat "$T/out")"
sed -n '/^sdtlist_shop:order__start/,/^sdtlist_shop:refund/p' "$T/out" | grep -q warning &&
	fail "--check warns about repeated identical records: $(cat "$T/out")"

"$SDT_LIST" --json "$T/typed" 2>/dev/null | python3 -c '
import json, sys
s = {x["name"]: x for x in json.load(sys.stdin)}
o = s["order__start"]
assert o["types_from"] == "record", o
assert [(a["type"], a["name"]) for a in o["arguments"]] == [
    ("const char *", "customer"), ("int", "items"), ("unsigned long long", "cents")], o
r = s["refund"]["arguments"]
assert (r[1]["type"], r[1]["name"]) == ("struct conn *", None), r
u = s["untyped"]
assert u["types_from"] == "spec" and [a["type"] for a in u["arguments"]] == ["uint8", "int16"], u
assert s["mismatch"]["types_from"] == "spec", s["mismatch"]
' || fail "JSON types and names"

# A damaged record section costs the types, never the listing.
off=$(readelf -S -W "$T/typed" | sed -n 's/.*\] \.note\.sdtkit *NOTE *[0-9a-f]* \([0-9a-f]*\) .*/\1/p')
[ -n "$off" ] || fail "no .note.sdtkit in typed"
cp "$T/typed" "$T/damaged"
python3 -c 'import sys
f = open(sys.argv[1], "r+b"); f.seek(int(sys.argv[2], 16) + 4); f.write(b"\xff\xff\x00\x00")' \
	"$T/damaged" "$off"
"$SDT_LIST" "$T/damaged" >"$T/out" 2>"$T/err"
expect_eq "damaged type records: status" 0 $?
grep -q '^sdtlist_shop:order__start(uint64, int32, uint64)  1 site$' "$T/out" ||
	fail "damaged type records: $(cat "$T/out")"
grep -q "^sdt-list: warning: $T/damaged: .note.sdtkit is damaged" "$T/err" ||
	fail "no warning for damaged type records: $(cat "$T/err")"

# Ten thousand sites: one line per probe, and one more for each whose
# sites differ (p<N> records (int, long) at one site, (long, int) at the
# other: shown as (int64, int64)).
python3 - "$T/many.c" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("#include <sys/sdt.h>\nvoid f(int i, long l)\n{\n")
    for p in range(2500):
        f.write("\tDTRACE_PROBE2(many, p%d, i, l);\n" % p)
        f.write("\tDTRACE_PROBE2(many, p%d, l, i);\n" % p)
        f.write("\tDTRACE_PROBE2(many, q%d, i, l);\n" % p)
        f.write("\tDTRACE_PROBE2(many, q%d, i, l);\n" % p)
    f.write("}\nint main(void) { f(1, 2); return 0; }\n")
PY
$CC -O1 -I"$top_srcdir/include" -o "$T/many" "$T/many.c" || fail "cannot build many.c"
"$SDT_LIST" "$T/many" >"$T/out" || fail "listing many"
expect_eq "10 000 sites, 5000 probes: lines" 7500 "$(wc -l <"$T/out")"
grep -q '^many:p7(int64, int64)  2 sites$' "$T/out" || fail "p7: $(grep -A1 '^many:p7(' "$T/out")"
grep -A1 '^many:p7(' "$T/out" | grep -qx '    sites differ: arg0, arg1 in size, shown as the widest' ||
	fail "p7's sites differ: $(grep -A1 '^many:p7(' "$T/out")"
exit 0
