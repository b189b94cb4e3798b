#!/bin/sh
# A C++ inline function with a probe, emitted in two objects: the "?" flag
# puts each note in its function's comdat group, so ld.bfd, gold and lld
# all keep one copy and link without "defined in discarded section"
# errors. Under --gc-sections, .stapsdt.base survives (retain flag) and
# the note's base address is the section's.
. "$top_srcdir/tests/lib.sh"
need_cmd g++
I="-I$SDT_INCLUDE -I$top_srcdir/tests/sdt"
printf '#include "inline.h"\nint from_a(int v) { return probed_twice(v); }\n' >"$T/a.cc"
printf '#include "inline.h"\nint from_b(int v) { return probed_twice(v * 2); }\nint main(void) { return from_a(1) + from_b(2) == 7 ? 0 : 1; }\n' >"$T/b.cc"
# A linker not installed (gold is binutils-gold from binutils 2.44) is left
# out, and the test skips at the end.
missing=
for ld in bfd gold lld; do
	command -v ld.$ld >/dev/null 2>&1 || missing="$missing ld.$ld"
done
for c in g++ clang++; do
	command -v $c >/dev/null 2>&1 || continue
	$c $I -O0 -Wall -Wextra -c "$T/a.cc" -o "$T/a.o" || fail "$c: compile"
	$c $I -O0 -Wall -Wextra -c "$T/b.cc" -o "$T/b.o" || fail "$c: compile"
	for ld in bfd gold lld; do
		command -v ld.$ld >/dev/null 2>&1 || continue
		for gc in "" -Wl,--gc-sections; do
			what="$c + ld.$ld $gc"
			$c -fuse-ld=$ld $gc "$T/a.o" "$T/b.o" -o "$T/x" \
				>"$T/ld.log" 2>&1 || { cat "$T/ld.log"; fail "$what: link"; }
			"$T/x" || fail "$what: the program fails"
			"$SDT_NOTES" "$T/x" >"$T/notes" || fail "$what: notes"
			expect_eq "$what: one probe" 1 "$(grep -c '^inl:twice ' "$T/notes")"
			base=$(sed -n 's/.* base=\(0x[0-9a-f]*\) .*/\1/p' "$T/notes")
			sect=$(readelf -SW "$T/x" | sed -n 's/.* \.stapsdt\.base *PROGBITS *0*\([0-9a-f]*\) .*/0x\1/p')
			[ -n "$sect" ] || fail "$what: .stapsdt.base was dropped"
			[ $((base)) -eq $((sect)) ] ||
				fail "$what: note base $base, section at $sect"
		done
	done
done
[ -z "$missing" ] || skip "not installed:$missing (the rest passed)"
echo "PASS: inline probes link with every linker"
