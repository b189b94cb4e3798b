#!/bin/sh
# From `struct order *o' to its fields in a running trace, with nothing
# written by hand. Probes that take pointers to structs (a nested struct,
# arrays, a char *, bit-fields, a typedef'd struct holding an anonymous
# union, a union) are built with -g and stripped; sdt-list finds each
# struct's layout in the layout note dtrace-gen -G wrote, else in the
# binary's DWARF, else in its separate debug file (by debug link, by build
# ID), shows it with -v and --json, and the program --bpftrace prints,
# run by bpftrace, prints every field's value exactly as the program set
# it. Without any layout the probes list and trace as before, and the
# program says how to get one. A PostgreSQL-style .d (#define'd and
# typedef'd types, unnamed arguments, dtrace -C) and a C++ class go the
# same way.
. "$top_srcdir/tests/lib.sh"
need_layouts
S=$top_srcdir/tests/e2e
cd "$T" || fail "cd"

"$DG" -h -s "$S/orders.d" -o orders.h || fail "dtrace-gen -h"
$CC -g -O2 -I"$SDT_INCLUDE" -I. -c "$S/orders.c" -o orders.o || fail "compile"
# The layout note, from the DWARF of the object given to -G.
"$DG" -G -s "$S/orders.d" -o probes.o orders.o || fail "dtrace-gen -G"
$CC orders.o probes.o -o with-note || fail "link"
strip with-note || fail "strip"
# No note: -G is given the object without its DWARF.
objcopy --strip-debug orders.o plain.o || fail "objcopy --strip-debug"
"$DG" -G -s "$S/orders.d" -o probes-plain.o plain.o || fail "dtrace-gen -G"
$CC orders.o probes-plain.o -o dwarf || fail "link"
objcopy --only-keep-debug dwarf dwarf.debug || fail "objcopy --only-keep-debug"
cp dwarf bare && strip bare || fail "strip"
cp bare linked && objcopy --add-gnu-debuglink=dwarf.debug linked ||
	fail "objcopy --add-gnu-debuglink"
id=$(readelf -n dwarf | sed -n 's/.*Build ID: *//p')
[ -n "$id" ] || skip "the linker wrote no build ID"
mkdir -p "debug/.build-id/$(echo "$id" | cut -c1-2)" &&
	cp dwarf.debug "debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug" ||
	fail "the build-id tree"

want_list="so:order(struct order *o, int n)  1 site, semaphore
so:ticket(ticket_t *t)  1 site, semaphore
so:value(union value *v, const char *label)  1 site, semaphore"
for f in with-note dwarf bare; do
	expect_eq "the listing of $f" "$want_list" "$("$SDT_LIST" $f)"
done

# -v: the fields, and where they were found.
layout_of() { # FILE [env...]: the -v lines of so:order's layout
	"$SDT_LIST" -v "$1" so:order | sed -n '/^  arg0 /,$p'
}
want_fields="      +0       8  long int id
      +8      16  char customer[16]
      +24     12  struct item first
        +0       4  int sku
        +4       2  short int qty
        +6       3  unsigned char tag[3]
      +36     12  int codes[3]
      +48      8  const char *note
      +56      4  unsigned int flags : 3 (bits 448-450)
      +56      4  unsigned int level : 5 (bits 451-455)
      +56      4  int delta : 7 (bits 456-462)
      +64      8  double price (not printed)
      +72      1  unsigned char tail
      +80      8  void *next"
head="  arg0 struct order *o: struct order, 88 bytes, from"
expect_eq "-v of a stripped binary with the layout note" \
	"$head its .note.sdtkit layout note
$want_fields" "$(layout_of with-note)"
expect_eq "-v of a binary with DWARF" \
	"$head DWARF in dwarf
$want_fields" "$(layout_of dwarf)"
expect_eq "-v of a stripped binary with a debug link" \
	"$head DWARF in dwarf.debug
$want_fields" "$(layout_of linked)"
expect_eq "-v of a stripped binary with its debug file by build ID" \
	"$head DWARF in $T/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
$want_fields" "$(SDT_LIST_DEBUG_DIR=$T/debug layout_of bare)"
hint="rebuild with -g, install the binary's -dbgsym (or -debuginfo) package, or give dtrace-gen -G the objects built with -g (it warns when it writes no layout)"
expect_eq "-v without any layout" "  arg0 struct order *o: no layout found: $hint" \
	"$(SDT_LIST_DEBUG_DIR=$T/nowhere layout_of bare)"

# Other DWARF: version 2 (member offsets as expressions, bit-fields
# counted from the storage unit's top), version 4, and clang's (`long'
# where gcc says `long int'), each through the -G note.
norm() { sed 's/long int /long /; s/short int /short /'; }
for cc in "$CC -gdwarf-2 -gstrict-dwarf" "$CC -gdwarf-4" "clang -g"; do
	command -v ${cc%% *} >/dev/null 2>&1 || continue
	$cc -O2 -I"$SDT_INCLUDE" -I. -c "$S/orders.c" -o other.o || fail "compile with $cc"
	"$DG" -G -s "$S/orders.d" -o other-probes.o other.o || fail "dtrace-gen -G ($cc)"
	$CC other.o other-probes.o -o other && strip other || fail "link ($cc)"
	expect_eq "-v of a binary built with $cc" "$(echo "$want_fields" | norm)" \
		"$(layout_of other | sed 1d | norm)"
done

# A damaged layout note: a warning, and the listing goes on without it.
objcopy --dump-section .note.sdtkit=notes with-note /dev/null || fail "objcopy --dump-section"
python3 - notes <<'EOF' || fail "cannot damage the note"
import sys
p = sys.argv[1]
b = open(p, "rb").read()
old = b"customer\0char [16]\0" b"8\0" b"16\0"
assert b.count(old) == 1
open(p, "wb").write(b.replace(old, b"customer\0char [16]\0" b"8\0" b"99\0"))
EOF
objcopy --update-section .note.sdtkit=notes with-note damaged || fail "objcopy --update-section"
"$SDT_LIST" -v damaged so:order >damaged.out 2>damaged.err ||
	fail "sdt-list -v failed on a damaged layout note: $(cat damaged.err)"
expect_eq "the warning" "sdt-list: warning: damaged: the layout of struct order in .note.sdtkit is ignored (a number is out of range)" \
	"$(cat damaged.err)"
grep -q "^  arg0 struct order \*o: no layout found" damaged.out ||
	fail "a damaged layout was used: $(cat damaged.out)"

# No invalid access or leak on any path, where valgrind is at hand.
if command -v valgrind >/dev/null 2>&1; then
	for args in "-v with-note" "-v dwarf" "-v linked" "--json with-note" \
		"--bpftrace with-note dwarf bare" "-v damaged" "--json dwarf"; do
		# shellcheck disable=SC2086
		valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite,indirect \
			"$SDT_LIST" $args >/dev/null 2>vg.log ||
			fail "valgrind: sdt-list $args: $(head -n 30 vg.log)"
	done
fi

# --json: the layout, nested fields included.
"$SDT_LIST" --json with-note so:ticket >ticket.json || fail "sdt-list --json"
python3 - ticket.json <<'EOF' || fail "the JSON layout is wrong"
import json, sys
site, = json.load(open(sys.argv[1]))
lay = site["arguments"][0]["layout"]
assert lay["found"] and lay["type"] == "ticket_t" and lay["size"] == 24, lay
got = [(f["name"], f["offset"], f["size"], f["kind"]) for f in lay["fields"]]
assert got == [("serial", 0, 8, "uint"), ("who", 8, 8, "char array"),
               ("u", 16, 4, "struct"), ("weight", 20, 2, "int")], got
inner = [(f["name"], f["kind"]) for f in lay["fields"][2]["fields"]]
assert inner == [("as_int", "int"), ("as_chars", "char array")], inner
EOF

need_bpftrace
run_bt() { # FILE [ENV]: the program sdt-list prints for FILE, run on it
	env ${2:-X=} "$SDT_LIST" --bpftrace "$1" >"$1.bt" || fail "sdt-list --bpftrace $1"
	bpftrace_run "$1.bt" -c "./$1 $1.want" >"$1.raw" ||
		fail "bpftrace ran the program for $1 badly: $(cat "$1.raw")"
}
for f in with-note dwarf; do
	run_bt $f
	expect_eq "the fields bpftrace printed ($f)" \
		"$(grep -v '^#' $f.want)" "$(grep '^so:[a-z]* [a-z]: ' $f.raw)"
done
run_bt linked
expect_eq "the fields bpftrace printed (debug link)" \
	"$(grep -v '^#' linked.want)" "$(grep '^so:[a-z]* [a-z]: ' linked.raw)"
# Two binaries in one program: each struct declared once, ahead of both.
"$SDT_LIST" --bpftrace with-note dwarf >two.bt || fail "sdt-list --bpftrace, two files"
[ "$(grep -c '^struct order {' two.bt)" = 1 ] || fail "struct order declared twice: $(cat two.bt)"
# bpftrace 0.17 -c prints nothing when a program also attaches to a
# binary the command does not map: attach by path, then run it twice (a
# hit right after attaching is missed now and then): each line once.
timeout 60 bpftrace two.bt >two.raw 2>&1 &
bt=$!
i=0
# bpftrace 0.17 says "Attaching N probes", 0.27 "Attached N probes".
until grep -qs '^Attach' two.raw; do
	i=$((i + 1))
	[ $i -lt 300 ] && kill -0 $bt 2>/dev/null ||
		fail "bpftrace did not attach the program for two files: $(cat two.raw)"
	sleep 0.1
done
sleep 1
./dwarf two.want && ./dwarf two.want || fail "./dwarf failed"
sleep 1
kill -INT $bt
wait $bt
grep -v '^#' two.want | while IFS= read -r line; do
	grep -qxF "$line" two.raw || fail "bpftrace did not print (two files): $line
$(cat two.raw)"
done || exit 1
# No layout: the probes trace as before, and the program says why.
run_bt bare SDT_LIST_DEBUG_DIR=$T/nowhere
grep -q "// o points at struct order \*: no layout found" bare.bt ||
	fail "no comment on the missing layout: $(cat bare.bt)"
grep -q '^#pragma' bare.bt && fail "declarations without a layout: $(cat bare.bt)"
[ "$(grep -c '^so:' bare.raw)" = 3 ] || fail "the probes did not fire: $(cat bare.raw)"
grep -q '^so:order o=0x[0-9a-f]* n=3$' bare.raw || fail "so:order: $(cat bare.raw)"

# PostgreSQL's way: dtrace -C, #define'd and typedef'd types, no names.
"$DG" -C -h -s "$S/pgish.d" -o pgish.h || fail "dtrace-gen -C -h"
$CC -g -O2 -I"$SDT_INCLUDE" -I. -c "$S/pgish.c" -o pgish.o || fail "compile pgish"
"$DG" -C -G -s "$S/pgish.d" -o pgprobes.o pgish.o || fail "dtrace-gen -C -G"
$CC pgish.o pgprobes.o -o pgish && strip pgish || fail "link pgish"
expect_eq "the listing of pgish" \
"pgish:transaction__start(unsigned int)  1 site, semaphore
pgish:lock__wait__start(LOCKTAG *, unsigned char)  1 site, semaphore
pgish:buffer__read__start(BufferTag *, int)  1 site, semaphore" "$("$SDT_LIST" pgish)"
run_bt pgish
expect_eq "the fields bpftrace printed (pgish)" \
	"$(cat pgish.want)" "$(grep '^pgish:[a-z_]* arg0: ' pgish.raw)"
# C++: a base class (its fields printed as the class's own), a vtable
# pointer and a static member (not in the object) around the fields.
if command -v "$CXX" >/dev/null 2>&1; then
	"$DG" -h -s "$S/widget.d" -o widget.h || fail "dtrace-gen -h widget"
	$CXX -g -O1 -I"$SDT_INCLUDE" -I. -c "$S/widget.cc" -o widget.o || fail "compile widget"
	"$DG" -G -s "$S/widget.d" -o widget-probes.o widget.o || fail "dtrace-gen -G widget"
	$CXX widget.o widget-probes.o -o widget && strip widget || fail "link widget"
	expect_eq "-v of a C++ class" "  arg0 Widget *w: struct Widget, 40 bytes, from its .note.sdtkit layout note
      +0       8  int (*)() *(anonymous) (not printed)
      +8       4  struct Base (anonymous)
        +0       4  int base_id
      +12     12  char label[12]
      +24      8  long int weight
      +32      8  const char *owner" "$("$SDT_LIST" -v widget | sed -n '/^  arg0 /,$p')"
	run_bt widget
	expect_eq "the fields bpftrace printed (C++)" \
		"$(grep -v '^#' widget.want)" "$(grep '^cx:hit w: ' widget.raw)"
fi
echo "PASS: struct layouts from the note, DWARF, debug link and build ID; every field printed exactly by bpftrace"
