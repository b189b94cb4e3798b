#!/bin/sh
# An argument that a site records as a constant (`$1') reads the same
# whatever size and sign encode it. Compilers change that encoding between
# releases: gcc 12 writes a bool true as `-4@$1' where gcc 15 writes
# `1@$1'; a JVM wrote a 0 as `-8@$0' beside an unsigned register site, its
# next release as `8@$0'. sdt-list --diff names such a change and does not
# call it breaking, while a constant whose value reads otherwise (-1 as
# signed 4 bytes, then as unsigned: 4294967295) still is. Across the sites
# of one probe a constant changes the merged sign or size only where its
# value needs it: bpftrace, running the script --bpftrace writes, prints
# an unsigned 64-bit value beside a constant 0 site as unsigned.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
cd "$T" || fail "cd"

# "nor": the compiler may make an operand a constant, as SystemTap's
# header lets it (and as the builds above did).
cat >c.c <<'C'
#include <sys/sdt.h>
#include <stdint.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	uint64_t big = ((uint64_t)(argc > 1) << 63) | 1;

	STAP_PROBE1(pg, flag, FLAG);
	if (argc > 2)
		STAP_PROBE1(jv, mix, ZERO);
	STAP_PROBE1(jv, mix, big);
	STAP_PROBE1(pg, neg, NEG);
	STAP_PROBE1(pg, count, (COUNT)argc);
	return argv[0] == NULL;
}
C
build() { # OUT COMPILER FLAG ZERO NEG COUNT
	$2 -O2 -I"$SDT_INCLUDE" -DSTAP_SDT_ARG_CONSTRAINT=nor -DFLAG="$3" \
		-DZERO="$4" -DNEG="$5" -DCOUNT="$6" -o "$1" c.c ||
		fail "cannot build $1 with $2"
}
spec_of() { # FILE PROVIDER NAME: the specs of its sites, sorted
	"$SDT_NOTES" "$1" | awk -v p="$2:$3" '$1 == p { sub(/.*args=/, ""); print }' | sort | tr '\n' ' '
}
CC2=$CC
command -v clang >/dev/null 2>&1 && CC2=clang

# Old: int 1, long 0, int -1, int. New: bool 1, unsigned long 0,
# unsigned -1, and the count narrowed to a short: a real change.
build old "$CC" 1 '(long)0' -1 int
build new "$CC2" '(_Bool)1' '(unsigned long)0' '(unsigned)-1' short
case $(spec_of old pg flag) in *'@$1'*) ;; *) skip "the compiler made no constant operand: $(spec_of old pg flag)" ;; esac
expect_eq "old pg:flag" '-4@$1 ' "$(spec_of old pg flag)"
expect_eq "new pg:flag" '1@$1 ' "$(spec_of new pg flag)"
case $(spec_of old jv mix) in *'-8@$0'*) ;; *) fail "old jv:mix: $(spec_of old jv mix)" ;; esac
case $(spec_of new jv mix) in *' 8@$0'* | '8@$0'*) ;; *) fail "new jv:mix: $(spec_of new jv mix)" ;; esac

"$SDT_LIST" --diff old new >diff.txt 2>&1
rc=$?
expect_eq "--diff old new: exit status (one breaking change)" 1 $rc
grep -q '^~ pg:flag: arg0 encoding constant signed 4 bytes -> constant unsigned 1 bytes$' diff.txt ||
	fail "pg:flag's encoding not named as a change that breaks nothing: $(cat diff.txt)"
grep -q '^~ jv:mix: arg0 encoding constant signed 8 bytes -> constant unsigned 8 bytes$' diff.txt ||
	fail "jv:mix's encoding not named as a change that breaks nothing: $(cat diff.txt)"
grep -q '^~ pg:neg: arg0 sign signed 4 bytes -> unsigned 4 bytes  BREAKING$' diff.txt ||
	fail "pg:neg (-1, then 4294967295) not breaking: $(cat diff.txt)"
grep -q '^~ pg:count: arg0 size signed 4 bytes -> signed 2 bytes  BREAKING$' diff.txt ||
	fail "pg:count (narrowed) not breaking: $(cat diff.txt)"
# The compiler's records type each argument as its sites pass it: a
# constant's type changing with its encoding reads the same (reported, not
# breaking); a register's narrowed type is as breaking as its size.
grep -q '^~ pg:flag: arg0 type int -> bool$' diff.txt ||
	fail "pg:flag's constant's type not reported as breaking nothing: $(cat diff.txt)"
grep -q '^~ pg:neg: arg0 type int -> unsigned int$' diff.txt ||
	fail "pg:neg's constant's type not reported beside its sign: $(cat diff.txt)"
grep -q '^~ pg:count: arg0 type int -> short  BREAKING$' diff.txt ||
	fail "pg:count's narrowed type not breaking: $(cat diff.txt)"
grep -q 'jv:mix: arg0 type' diff.txt &&
	fail "jv:mix: a type its old sites leave unknown compared: $(cat diff.txt)"
grep -q '; 3 breaking changes$' diff.txt || fail "summary: $(cat diff.txt)"
expect_eq "breaking lines" 3 "$(grep -c BREAKING diff.txt)"

# The same in JSON: the encodings are there, not breaking.
"$SDT_LIST" --diff --json old new >diff.json 2>&1
python3 - diff.json <<'PY' || fail "--json: $(cat diff.json)"
import json, sys
d = json.load(open(sys.argv[1]))
ch = [c for p in d["pairs"] for c in p["changes"]] if "pairs" in d else d["changes"]
enc = sorted(c["probe"] for c in ch if c["change"] == "constant-encoding")
assert enc == ["jv:mix", "pg:flag"], enc
assert all(not c["breaking"] for c in ch if c["change"] == "constant-encoding")
assert sorted(c["probe"] for c in ch if c["breaking"]) == ["pg:count", "pg:count", "pg:neg"]
PY

# Only the encodings changed: exit 0.
build new2 "$CC2" '(_Bool)1' '(unsigned long)0' -1 int
"$SDT_LIST" --diff old new2 >diff2.txt 2>&1 ||
	fail "--diff with only constant encodings changed exited $?: $(cat diff2.txt)"
expect_eq "--diff old new2: encoding lines" 2 "$(grep -c ': arg0 encoding constant' diff2.txt)"
grep -q BREAKING diff2.txt && fail "a breaking change: $(cat diff2.txt)"
# And back: the same.
"$SDT_LIST" --diff new2 old >/dev/null 2>&1 || fail "--diff new2 old exited $?"

# A negative constant beside unsigned reads needs the sign: it stays.
cat >m.c <<'C'
#include <sys/sdt.h>
#include <stdint.h>
int main(int argc, char **argv)
{
	uint64_t v = (uint64_t)argc;

	(void)argv;
	STAP_PROBE1(m, x, v);
	if (argc > 5)
		STAP_PROBE1(m, x, (long)-1);
	return 0;
}
C
$CC -O2 -I"$SDT_INCLUDE" -DSTAP_SDT_ARG_CONSTRAINT=nor -o m m.c || fail "cannot build m.c"
"$SDT_LIST" m >m.txt 2>&1 || fail "sdt-list m: $(cat m.txt)"
grep -q 'm:x(int64)' m.txt || fail "a -1 beside unsigned reads is not shown signed: $(cat m.txt)"
grep -q 'in sign' m.txt || fail "sites that differ in sign not said: $(cat m.txt)"

# Hostile specs: a site without a size beside constants that need one
# (the merge once doubled a size of 0 forever), constants past 64 bits,
# a size of 3, an empty constant. Each ends, within seconds.
note_site() { # PROVIDER NAME SPEC: one stapsdt note, as asm
	printf '__asm__("990: nop\\n.pushsection .note.stapsdt,\\"?\\",\\"note\\"\\n.balign 4\\n.4byte 992f-991f,994f-993f,3\\n991: .asciz \\"stapsdt\\"\\n992: .balign 4\\n993: .8byte 990b,_.stapsdt.base,0\\n.asciz \\"%s\\"\\n.asciz \\"%s\\"\\n.asciz \\"%s\\"\\n994: .balign 4\\n.popsection");\n' "$1" "$2" "$3"
}
{
	echo 'void f(void) {'
	# One probe per case: a wide site would hide the sizeless one.
	note_site h a '%rax' && note_site h a '-4@$-1'
	note_site h b '@%rbx' && note_site h b '8@$300'
	for spec in 'x@$1' '3@$1' '-4@$' '8@$99999999999999999999999' \
		'-8@$-18446744073709551616'; do
		note_site h c "$spec"
	done
	echo '}'
	printf '%s\n' '__asm__(".pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n.weak _.stapsdt.base\n.hidden _.stapsdt.base\n_.stapsdt.base: .space 1\n.popsection");'
	echo 'int main(void) { f(); return 0; }'
} >h.c
$CC -O0 -o h h.c || fail "cannot build h.c: $(cat h.c)"
expect_eq "h's sites" 9 "$("$SDT_NOTES" h | grep -c '^h:')"
for mode in "" -v --bpftrace --perf --json; do
	timeout 20 "$SDT_LIST" $mode h >h.out 2>&1
	rc=$?
	[ $rc = 124 ] && fail "sdt-list $mode on hostile specs did not end"
	[ $rc -gt 2 ] && fail "sdt-list $mode on hostile specs: exit $rc: $(cat h.out)"
done
timeout 20 "$SDT_LIST" --diff h old >h.out 2>&1
[ $? -gt 2 ] && fail "--diff h old: $(cat h.out)"
timeout 20 "$SDT_LIST" --diff h h >h.out 2>&1 || fail "--diff h h: $(cat h.out)"

# What the merged signature means to a tracer: jv:mix's sites are 8@$0
# (a constant 0 written signed in old) and an unsigned 8-byte register.
# The script --bpftrace writes prints 2^63 + 1 as such: unsigned.
"$SDT_LIST" old >old.txt 2>&1
grep -q 'jv:mix(uint64)' old.txt || fail "jv:mix not unsigned: $(cat old.txt)"
grep -q 'jv:mix.*in sign' old.txt && fail "jv:mix's constant said to differ in sign: $(cat old.txt)"
need_root
need_bpftrace
"$SDT_LIST" --bpftrace old 'jv:*' >mix.bt 2>&1 || fail "--bpftrace: $(cat mix.bt)"
bpftrace_run mix.bt -c "$T/old x y" >bt.out 2>&1
grep -q 'jv:mix arg0=9223372036854775809' bt.out ||
	fail "bpftrace did not print 2^63 + 1 as unsigned: $(cat bt.out; cat mix.bt)"
grep -q 'jv:mix arg0=0$' bt.out || fail "bpftrace did not print the constant 0: $(cat bt.out)"
exit 0
