#!/bin/sh
# Structs ordinary C and C++ declare, traced through the program
# sdt-list --bpftrace prints for a stripped binary: a field named __pad0
# (the declaration's padding must take another name), a bit-field of enum
# type (shown at its storage unit), a field named `unroll' (a bpftrace
# keyword: declared under another name, printed under its own), an
# anonymous union holding a member named __anon4, a 100-byte char array
# (read in a bounded piece), a flexible array (left out), and C++20's
# [[no_unique_address]] empty member (takes no room; the next field is
# declared and printed). bpftrace must print every value as set.
. "$top_srcdir/tests/lib.sh"
need_layouts
S=$top_srcdir/tests/e2e
cd "$T" || fail "cd"

"$DG" -h -s "$S/tricky.d" -o tricky.h || fail "dtrace-gen -h"
$CC -g -O2 -I"$SDT_INCLUDE" -I. -c "$S/tricky.c" -o tricky.o || fail "compile"
"$DG" -G -s "$S/tricky.d" -o tricky-probes.o tricky.o 2>err || fail "dtrace-gen -G: $(cat err)"
[ ! -s err ] || fail "dtrace-gen -G warned: $(cat err)"
$CC tricky.o tricky-probes.o -o tricky && strip tricky || fail "link"
expect_eq "-v of struct tricky" "  arg0 struct tricky *t: struct tricky, 120 bytes, from its .note.sdtkit layout note
      +0       1  char tag
      +4       4  int __pad0
      +8       4  enum state st : 8 (bits 64-71)
      +12      4  int unroll
      +16      4  union {...} (anonymous)
        +0       4  int __anon4
        +0       2  short int s
      +20    100  char big[100]
      +120     0  long int tail[] (not printed)" \
	"$("$SDT_LIST" -v tricky | sed -n '/^  arg0 struct tricky \*t: struct/,$p')"
"$SDT_LIST" --bpftrace tricky >tricky.bt || fail "sdt-list --bpftrace"
grep -q '// t->big: char \[100\], only its first 63 bytes are printed' tricky.bt ||
	fail "no comment on the bounded char array: $(cat tricky.bt)"

if command -v "$CXX" >/dev/null 2>&1 &&
	echo 'struct E {}; struct H { [[no_unique_address]] E e; int x; };' |
	$CXX -std=c++20 -x c++ -c -o /dev/null - 2>/dev/null; then
	"$DG" -h -s "$S/holder.d" -o holder.h || fail "dtrace-gen -h holder"
	$CXX -std=c++20 -g -O2 -I"$SDT_INCLUDE" -I. -c "$S/holder.cc" -o holder.o ||
		fail "compile holder"
	"$DG" -G -s "$S/holder.d" -o holder-probes.o holder.o || fail "dtrace-gen -G holder"
	$CXX holder.o holder-probes.o -o holder && strip holder || fail "link holder"
	expect_eq "-v of Holder" "  arg0 Holder *h: struct Holder, 16 bytes, from its .note.sdtkit layout note
      +0       0  struct Empty e (not printed)
      +0       4  int x
      +8       8  long int y" \
		"$("$SDT_LIST" -v holder | sed -n '/^  arg0 Holder \*h: struct/,$p')"
	"$SDT_LIST" --bpftrace holder >holder.bt || fail "sdt-list --bpftrace holder"
else
	note "no C++20 compiler: [[no_unique_address]] is not tried"
fi

need_bpftrace
run_one() { # NAME LINE-PREFIX: the program's field line when NAME runs
	timeout 60 bpftrace "$1.bt" -c "./$1" >"$1.out" 2>&1 ||
		fail "bpftrace on $1: $(grep -v RLIMIT "$1.out" | head -n 5)"
	grep "^$2" "$1.out"
}
expect_eq "the fields bpftrace printed (C)" \
	"ct:tricky t: tag=81 __pad0=-5 st=200 unroll=77 __anon4=1234 s=1234 big=a long string of more than sixty-four bytes, so only its first " \
	"$(run_one tricky 'ct:tricky t: ')"
if [ -f holder.bt ]; then
	expect_eq "the fields bpftrace printed (C++)" "cx:holder h: x=42 y=-9" \
		"$(run_one holder 'cx:holder h: ')"
fi
echo "PASS: padding, enum bit-fields, keywords, made-up names, long char arrays and empty members traced right"
