#!/bin/sh
# Compact type records (.note.sdtkit, note type 3: a code byte per
# argument's type, then the arguments as the sites wrote them), written by
# hand in tests/sdt-list/typed-codes.c, built with gcc and with clang.
# sdt-list lists every code's type and each name that is an identifier;
# an unknown or unassigned code keeps the spec's size and sign; a
# malformed record is skipped with a warning and the listing goes on; a
# .d file's record and a generated header's win over the compact ones;
# the compact records of one probe merge, with each other and with the
# text records the headers wrote before (an argument typed differently
# becomes unknown). The listing, -v, --check, --json, --bpftrace and
# --perf read the same as from the same records written as text records
# (-DTEXT_RECORDS), and bpftrace runs the --bpftrace program: the string
# and the names are printed.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
SRC=$top_srcdir/tests/sdt-list/typed-codes.c

want="codes:request(int id, char *path)  1 site
codes:chars(char c, signed char sc, unsigned char uc)  1 site
codes:shorts(short s, unsigned short us, bool flag)  1 site
codes:ints(int i, unsigned int ui, long l)  1 site
codes:longs(unsigned long ul, long long ll, unsigned long long ull)  1 site
codes:pointers(const char *text, void *p, float f)  1 site
codes:dbl(double d)  1 site
codes:unknown(int32 a, int64 b, uint16 c)  1 site
codes:expr(unsigned long, int n)  1 site
codes:merged(int a, int64 b)  1 site
codes:mixed(int a, int64 b)  1 site
codes:dfile(long count)  1 site
codes:header(unsigned short port)  1 site
codes:later(unsigned int v)  1 site
codes:trunc(int64)  1 site"

built=
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || { note "no $cc"; continue; }
	exe=$T/codes-$cc
	$cc -O2 -Wall -Wextra -Werror -I"$top_srcdir/include" -o "$exe" "$SRC" ||
		fail "$cc: cannot build typed-codes.c"
	$cc -O2 -Wall -Wextra -Werror -I"$top_srcdir/include" -DTEXT_RECORDS \
		-o "$exe.text" "$SRC" || fail "$cc: cannot build typed-codes.c as text records"
	n=$(readelf -n "$exe" | grep -c '^ *sdtkit .*0x00000003')
	expect_eq "$cc: compact records in the file (readelf)" 19 "$n"

	"$SDT_LIST" "$exe" >"$T/out" 2>"$T/err"
	expect_eq "$cc: listing with malformed records: status" 0 $?
	expect_eq "$cc: the listing" "$want" "$(cat "$T/out")"
	expect_eq "$cc: the warnings" "sdt-list: warning: $exe: type record 19 in .note.sdtkit ignored (malformed: fewer type codes than its count)
sdt-list: warning: $exe: type record 20 in .note.sdtkit ignored (malformed: an argument count over 12)
sdt-list: warning: $exe: type record 21 in .note.sdtkit ignored (malformed: fewer argument names than its count)
sdt-list: warning: $exe: type record 22 in .note.sdtkit ignored (malformed: no provider, probe and argument count)" \
		"$(cat "$T/err")"
	"$SDT_LIST" "$exe.text" >/dev/null 2>"$T/err"
	expect_eq "$cc: text records: warnings" "" "$(cat "$T/err")"

	# Every output reads the same from either kind of record.
	for opt in "" -v --check --json --bpftrace --perf; do
		# shellcheck disable=SC2086
		"$SDT_LIST" $opt "$exe" 2>/dev/null >"$T/codes.out"
		rc=$?
		# shellcheck disable=SC2086
		"$SDT_LIST" $opt "$exe.text" 2>/dev/null | sed "s|$exe\.text|$exe|g" >"$T/text.out"
		expect_eq "$cc: ${opt:-listing}: status against text records" \
			"$("$SDT_LIST" $opt "$exe.text" >/dev/null 2>&1; echo $?)" $rc
		cmp -s "$T/codes.out" "$T/text.out" || {
			diff -u "$T/text.out" "$T/codes.out" >&2
			fail "$cc: sdt-list ${opt:-(listing)} reads compact records otherwise than text records"
		}
	done

	"$SDT_LIST" --json "$exe" 2>/dev/null | python3 -c '
import json, sys
s = {x["name"]: x for x in json.load(sys.stdin)}
def args(p):
    assert s[p]["types_from"] == "record", s[p]
    return [(a["type"], a["name"]) for a in s[p]["arguments"]]
assert args("request") == [("int", "id"), ("char *", "path")], s["request"]
assert args("longs") == [("unsigned long", "ul"), ("long long", "ll"),
                         ("unsigned long long", "ull")], s["longs"]
assert args("unknown") == [("int32", "a"), ("int64", "b"), ("uint16", "c")], s["unknown"]
assert args("expr") == [("unsigned long", None), ("int", "n")], s["expr"]
assert args("merged") == [("int", "a"), ("int64", "b")], s["merged"]
assert args("dfile") == [("long", "count")], s["dfile"]
assert s["trunc"]["types_from"] == "spec", s["trunc"]
' || fail "$cc: JSON types and names"

	"$SDT_LIST" --bpftrace "$exe" >"$T/$cc.bt" 2>/dev/null ||
		fail "$cc: --bpftrace failed"
	for line in 'printf("codes:request id=%d path=%s\n", arg0, str(arg1));' \
		'printf("codes:expr arg0=%lu n=%d\n", arg0, arg1);' \
		'printf("codes:unknown a=%d b=%ld c=%u\n", arg0, arg1, arg2);' \
		'printf("codes:dfile count=%ld\n", arg0);'; do
		grep -qF "$line" "$T/$cc.bt" || fail "$cc: --bpftrace has no $line: $(cat "$T/$cc.bt")"
	done
	built="$built $cc"
done
[ -n "$built" ] || fail "neither gcc nor clang"

# The real tracer runs the program sdt-list wrote.
need_bpftrace
for cc in $built; do
	out=$(BPFTRACE_MAX_PROBES=64 bpftrace_run "$T/$cc.bt" -c "$T/codes-$cc")
	for line in "codes:request id=7 path=/page/0.html" "codes:chars c=99 sc=-2 uc=200" \
		"codes:unknown a=-1 b=-4 c=65535" "codes:expr arg0=42 n=5" \
		"codes:dfile count=-4" "codes:header port=8080"; do
		printf '%s\n' "$out" | grep -qxF "$line" ||
			fail "$cc: bpftrace did not print '$line': $out"
	done
done
echo "PASS: compact type records read as text records by$built builds, printed by bpftrace"
