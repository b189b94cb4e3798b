#!/bin/sh
# Inputs made to cost: each ends in seconds with the whole answer or a
# clear error. A program with 60,000 more section headers over its code
# (each probe still in .text); a relocatable object with 10,000 relocation sections over
# the same bytes (read within the file's size: each note once, status 2
# with a word); 10,000 type-record sections over the same records (each
# record once); a 64 GB sparse file; a program text in /proc (its size
# says 0, its text is there: read whole, not taken for empty), and
# /proc/self/mem, /dev/zero as a program (errors).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_cmd timeout truncate

build_probes ours "$T/probes"
$CC -O2 -c -I"$SDT_INCLUDE" -o "$T/probes.o" "$top_srcdir/tests/sdt-list/probes.c" ||
	fail "cannot build probes.o"
bounded "the object" 0 --json "$T/probes.o"
cp "$T/out" "$T/probes.o.json"
add_headers "$T/probes.o" "$T/relocs.o" .rela.note.stapsdt 10000
bounded "10,000 relocation sections" 2 --json "$T/relocs.o"
grep -q "relocations of .note.stapsdt too large to read, or overlapping" "$T/err" ||
	fail "10,000 relocation sections: no word: $(cat "$T/err")"
same_sites "10,000 relocation sections" "$T/out" "$T/probes.o.json"

# Which section holds each probe, with 60,000 more allocated sections.
bounded "the program" 0 --json "$T/probes"
cp "$T/out" "$T/probes.json"
add_headers "$T/probes" "$T/text" .text 60000
bounded "60,000 .text headers" 0 --json "$T/text"
same_sites "60,000 .text headers" "$T/out" "$T/probes.json"

$CC -O2 -I"$SDT_INCLUDE" -o "$T/typed" "$top_srcdir/tests/sdt-list/typed.c" ||
	fail "cannot build typed.c"
bounded "typed" 0 "$T/typed"
cp "$T/out" "$T/typed.out"
add_headers "$T/typed" "$T/types" .note.sdtkit 10000
bounded "10,000 type sections" 0 "$T/types"
cmp -s "$T/out" "$T/typed.out" || fail "10,000 type sections: $(diff "$T/typed.out" "$T/out" | head -n 5)"
note "10,000 relocation or type-record sections over the same bytes: each read once"

cp "$T/probes" "$T/sparse"
truncate -s 64G "$T/sparse" || fail "cannot make a sparse file"
bounded "a 64 GB sparse file" 0 "$T/sparse"
mkdir "$T/tree"
mv "$T/sparse" "$T/tree/"
bounded "a walk over it" 0 "$T/tree"

printf 'usdt:%s:probes:nosuch { @n = count(); }\n' "$T/probes" >"$T/nosuch.bt"
env -i "BT=
$(cat "$T/nosuch.bt")
" "$SDT_LIST" --script /proc/self/environ "$T/probes" >"$T/out" 2>"$T/err"
rc=$?
expect_eq "a program in /proc: status ($(cat "$T/out" "$T/err"))" 1 $rc
grep -q "would not attach: no probe probes:nosuch" "$T/out" ||
	fail "a program in /proc: read as empty: $(cat "$T/out")"
for bad in /proc/self/mem /dev/zero; do
	bounded "--script $bad" 2 --script $bad "$T/probes"
	[ -s "$T/err" ] || fail "--script $bad: no word"
done
note "a 64 GB sparse file, a program in /proc, /proc/self/mem, /dev/zero"
