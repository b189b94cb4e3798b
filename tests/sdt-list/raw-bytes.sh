#!/bin/sh
# Bytes of the inspected file never reach the terminal raw, in any output,
# of a file or of a process (-p): a provider name holding ESC and BEL (an
# OSC title sequence), U+202E (right-to-left override), a C1 CSI and a
# newline; a section name with ESC and a newline (-v shows it); type
# records whose argument names hold the same (each argument is then argN,
# with an escaped warning) or whose type is no C type (the record is not
# used). A record with fields after its last argument is used, as
# docs/typed-probes.md says readers must.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_cmd timeout
PIDS=
trap 'for p in $PIDS; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT

# The records written by hand are the only ones: not the header's own.
cat >"$T/raw.c" <<'C'
#define SDTKIT_NO_TYPES
#include <sys/sdt.h>
#include <stdio.h>
#include <unistd.h>

/* One sdtkit type record: owner "sdtkit", type 1, the strings given. */
#define NOTE(strings)                                                          \
	__asm__(".pushsection .note.sdtkit,\"\",%note\n"                       \
		".balign 4\n.4byte 7\n.4byte 2f-1f\n.4byte 1\n"                \
		".asciz \"sdtkit\"\n.balign 4\n"                               \
		"1:\n" strings "2:\n.balign 4\n.popsection\n")
#define S(text) ".asciz \"" text "\"\n"

NOTE(S("rawprov") S("evt") S("2") S("int") S("\\033]0;pwned\\007")
	     S("long") S("x\\nINJECTED"));
NOTE(S("rawprov") S("tail") S("1") S("int") S("count") S("a later field")
	     S("\\033[31m") S("more"));
NOTE(S("rawprov") S("badtype") S("1") S("int\\033[2J") S("v"));
NOTE(S("rawprov") S("rlo") S("1") S("int") S("a\\342\\200\\256b"));

__attribute__((noinline, section("rawsect_code"))) void fire(int a, long b)
{
	DTRACE_PROBE2(rawprov, evt, a, b);
	DTRACE_PROBE1(rawprov, tail, a);
	DTRACE_PROBE1(rawprov, badtype, a);
	DTRACE_PROBE1(rawprov, rlo, a);
	DTRACE_PROBE1(placeholderprovidr, nm, a);
}

int main(int argc, char **argv)
{
	(void)argv;
	fire(argc, 2);
	if (argc > 1) {
		printf("ready %d raw\n", (int)getpid());
		fflush(stdout);
		for (;;)
			pause();
	}
	return 0;
}
C
$CC -O2 -I"$top_srcdir/include" -o "$T/raw" "$T/raw.c" || fail "cannot build raw.c"
# The provider and the section get bytes no C source can give them.
python3 - "$T/raw" <<'PY' || fail "cannot rename the provider and the section"
import sys
p = sys.argv[1]
d = open(p, "rb").read()
for old, new in ((b"placeholderprovidr\0", b"\x1b]0;\x07\xe2\x80\xae\nINJECTED\x9b\0"),
                 (b"rawsect_code\0", b"\x1b[J\nINJECTED\0")):
    assert len(old) == len(new) and d.count(old) >= 1, old
    d = d.replace(old, new)
open(p, "wb").write(d)
PY
start_host "$T/host.out" "$T/raw" loop

# clean WHAT FILE: no raw control, C1 or format character in FILE, and no
# line that a raw newline started.
clean() {
	python3 - "$2" <<'PY' || fail "$1: raw bytes reach the output: $(cat -v "$2")"
import sys
raw = open(sys.argv[1], "rb").read()
bad = [b for b in (b"\x1b", b"\x07", b"\x9b", b"\xe2\x80\xae", b"\nINJECTED") if b in raw]
if bad:
    print("raw:", bad); sys.exit(1)
PY
}

n=0
for opts in "" -v --check "-v --check" --json --bpftrace --perf; do
	for target in "$T/raw" "-p $HOST_PID"; do
		# shellcheck disable=SC2086
		timeout 20 "$SDT_LIST" $opts $target >"$T/out" 2>"$T/err"
		rc=$?
		[ $rc -lt 124 ] || fail "sdt-list $opts $target: status $rc: $(cat -v "$T/err")"
		clean "sdt-list $opts $target, standard output" "$T/out"
		clean "sdt-list $opts $target, standard error" "$T/err"
		n=$((n + 1))
	done
done
note "$n runs: no raw bytes on either output"

"$SDT_LIST" "$T/raw" >"$T/out" 2>"$T/err"
expect_eq "listing: status" 0 $?
grep -q '^\\x1b\]0;\\x07\\xe2\\x80\\xae\\x0aINJECTED\\x9b:nm(int32)  1 site$' "$T/out" ||
	fail "the provider not shown escaped: $(cat -v "$T/out")"
grep -q '^rawprov:evt(int, long)  1 site$' "$T/out" ||
	fail "names that are no identifiers were kept: $(cat -v "$T/out")"
grep -q '^rawprov:rlo(int)  1 site$' "$T/out" ||
	fail "a name with U+202E was kept: $(cat -v "$T/out")"
grep -q '^rawprov:tail(int count)  1 site$' "$T/out" ||
	fail "a record with a trailing field was not used: $(cat -v "$T/out" "$T/err")"
grep -q '^rawprov:badtype(int32)  1 site$' "$T/out" ||
	fail "a record with no C type was used: $(cat -v "$T/out")"
grep -q "type record 1 in .note.sdtkit: argument name \`\\\\x1b\]0;pwned\\\\x07' is not a C identifier: shown as arg0$" "$T/err" ||
	fail "no escaped warning for the name: $(cat -v "$T/err")"
grep -q "type record 3 in .note.sdtkit ignored (malformed: a type that is not C type text)" "$T/err" ||
	fail "no warning for the type: $(cat -v "$T/err")"
grep -q "type record 2" "$T/err" && fail "the record with a trailing field was warned about: $(cat -v "$T/err")"

"$SDT_LIST" -v "$T/raw" >"$T/out" 2>/dev/null
grep -q '(\\x1b\[J\\x0aINJECTED, file offset' "$T/out" ||
	fail "-v: the section name not shown escaped: $(cat -v "$T/out")"
"$SDT_LIST" --json "$T/raw" 2>/dev/null | python3 -c '
import json, sys
s = {x["name"]: x for x in json.load(sys.stdin)}
assert s["nm"]["provider"] == "\x1b]0;\x07\u202e\nINJECTED\ufffd", s["nm"]["provider"]
assert s["nm"]["section"] == "\x1b[J\nINJECTED", s["nm"]["section"]
assert [a["name"] for a in s["evt"]["arguments"]] == [None, None], s["evt"]
assert [a["name"] for a in s["tail"]["arguments"]] == ["count"], s["tail"]
' || fail "JSON"
exit 0
