#!/bin/sh
# Files made to hang or mislead the layout readers. Each is given to
# sdt-list (and where it applies to dtrace-gen -G) under a timeout, and
# must get a clear answer at once:
# - a .gnu_debuglink naming a FIFO beside the binary, a link to /dev/zero,
#   a name with `/' (../../dev/zero, ../other/x.debug with the right CRC),
#   a FIFO at DEBUGDIR/.build-id/xx/yyy.debug: never read, and -v says why;
# - an object given to -G that carries such a debug link, or is a FIFO;
# - two struct tags alike in their first 160 characters: --bpftrace ends
#   and declares both;
# - crafted layout notes (an element count whose product with the element
#   size wraps to the field's size, a 4-byte field holding a 64-byte
#   struct, a 3-byte `long long', two fields of one name, a field named
#   `int', a tag named `if', overlapping fields): refused with the reason.
. "$top_srcdir/tests/lib.sh"
DG=$top_builddir/dtrace-gen/dtrace-gen
SDT_LIST=$top_builddir/sdt-list/sdt-list
[ -x "$DG" ] && [ -x "$SDT_LIST" ] || fail "dtrace-gen or sdt-list is not built"
need_cmd timeout objcopy python3 mkfifo
grep -q '^#define HAVE_LIBDW 1' "$top_builddir/config.h" ||
	skip "built without libdw: no DWARF is read (install libdw-dev)"
S=$top_srcdir/tests/e2e
cd "$T" || fail "cd"

# A hang is the failure looked for: 10 s is far beyond any answer here
# (each takes milliseconds), and keeps a loaded machine from failing it.
quick() { # WHAT CMD...: run CMD, output in out/err; fail if it hangs
	what=$1
	shift
	start=$(date +%s%N)
	timeout 10 "$@" >out 2>err
	rc=$?
	ms=$((($(date +%s%N) - start) / 1000000))
	[ $rc -ne 124 ] || fail "$what: still running after 10 s"
	note "$what: ${ms} ms, exit $rc"
}

"$DG" -h -s "$S/orders.d" -o orders.h || fail "dtrace-gen -h"
$CC -g -O2 -I"$SDT_INCLUDE" -I. -c "$S/orders.c" -o orders.o || fail "compile"
objcopy --strip-debug orders.o plain.o || fail "objcopy --strip-debug"
"$DG" -G -s "$S/orders.d" -o probes.o plain.o 2>/dev/null || fail "dtrace-gen -G"
$CC orders.o probes.o -o dwarf || fail "link"
objcopy --only-keep-debug dwarf real.debug || fail "objcopy --only-keep-debug"
objcopy --strip-debug --remove-section=.gnu_debuglink dwarf bare || fail "strip"

# FILE NAME [CRC-OF]: FILE with a .gnu_debuglink naming NAME (any bytes),
# its CRC that of CRC-OF (else 0).
with_link() {
	python3 - "$3" "$2" >link.sec <<'EOF' || fail "the debug link section"
import sys, zlib
crc = zlib.crc32(open(sys.argv[1], "rb").read()) if sys.argv[1] else 0
name = sys.argv[2].encode() + b"\0"
name += b"\0" * (-len(name) % 4)
sys.stdout.buffer.write(name + crc.to_bytes(4, "little"))
EOF
	objcopy --add-section .gnu_debuglink=link.sec "$1" "$1.tmp" &&
		mv "$1.tmp" "$1" || fail "objcopy --add-section"
}

listed() { # WHAT FILE WHY: -v ends at once, no layout, saying WHY
	quick "$1" "$SDT_LIST" -v "$2" so:order
	[ $rc -eq 0 ] || fail "$1: sdt-list failed: $(cat err)"
	grep -q "^  arg0 struct order \*o: no layout found: .*$3" out ||
		fail "$1: expected no layout and \`$3': $(grep '^  arg0 ' out)"
}

mkdir -p bin other debug
# Beside the binary: a FIFO, and a symbolic link to /dev/zero.
cp bare bin/fifo-link && with_link bin/fifo-link x.debug real.debug
mkfifo bin/x.debug || fail "mkfifo"
listed "a debug link naming a FIFO" bin/fifo-link "bin/x.debug is not a regular file"
cp bare bin/zero-link && with_link bin/zero-link zero.debug
ln -s /dev/zero bin/zero.debug
listed "a debug link to /dev/zero" bin/zero-link "bin/zero.debug is not a regular file"
# Names with `/': never followed, even with the right CRC.
cp bare bin/up-link && with_link bin/up-link ../../../../../../../dev/zero
listed "a debug link ../../dev/zero" bin/up-link "names another directory: not followed"
cp real.debug other/x.debug
cp bare bin/other-link && with_link bin/other-link ../other/x.debug real.debug
listed "a debug link ../other/x.debug with its CRC" bin/other-link "names another directory"
# The control: the same file beside it is read.
cp bare bin/good-link && with_link bin/good-link good.debug real.debug
cp real.debug bin/good.debug
quick "a debug link beside the binary" "$SDT_LIST" -v bin/good-link so:order
grep -q "^  arg0 struct order \*o: struct order, 88 bytes, from DWARF in bin/good.debug" out ||
	fail "a good debug link was not followed: $(grep '^  arg0 ' out)"
# A FIFO where the build ID says the debug file is.
id=$(readelf -n bare | sed -n 's/.*Build ID: *//p')
if [ -n "$id" ]; then
	d=debug/.build-id/$(echo "$id" | cut -c1-2)
	mkdir -p "$d" && mkfifo "$d/$(echo "$id" | cut -c3-).debug" || fail "mkfifo"
	SDT_LIST_DEBUG_DIR=$T/debug listed "a FIFO by build ID" bare "is not a regular file"
else
	note "the linker wrote no build ID: that case is not tried"
fi

# dtrace-gen -G: an object without -g whose debug link names a FIFO, and
# an object that is a FIFO; a build must not hang.
cp plain.o fifo-obj.o && with_link fifo-obj.o x.debug real.debug
mkfifo x.debug || fail "mkfifo"
quick "-G on an object linking to a FIFO" "$DG" -G -s "$S/orders.d" -o p1.o fifo-obj.o
[ $rc -eq 0 ] || fail "-G failed: $(cat err)"
grep -q "no object given to -G has DWARF: build them with -g" err ||
	fail "-G said nothing of the missing layout: $(cat err)"
mkfifo pipe.o || fail "mkfifo"
quick "-G on a FIFO" "$DG" -G -s "$S/orders.d" -o p2.o pipe.o
[ $rc -ne 0 ] && [ -s err ] || fail "-G took a FIFO as an object: $(cat err)"

# Two tags alike in their first 160 characters, different layouts.
long=$(python3 -c 'print("t" * 170)')
cat >long.d <<EOF
provider lt { probe a(struct ${long}_a *p); probe b(struct ${long}_b *p); };
EOF
cat >long.c <<EOF
#include "long.h"
struct ${long}_a { int x; };
struct ${long}_b { long y; };
void fa(struct ${long}_a *p) { LT_A(p); }
void fb(struct ${long}_b *p) { LT_B(p); }
int main(void) { struct ${long}_a a = { 1 }; struct ${long}_b b = { 2 }; fa(&a); fb(&b); return 0; }
EOF
"$DG" -h -s long.d -o long.h && $CC -g -I"$SDT_INCLUDE" -I. -c long.c -o long.o &&
	"$DG" -G -s long.d -o long-probes.o long.o && $CC long.o long-probes.o -o long &&
	strip long || fail "the long-tag program"
quick "--bpftrace with long equal tags" "$SDT_LIST" --bpftrace long
[ $rc -eq 0 ] || fail "--bpftrace failed: $(cat err)"
[ "$(grep -c "^struct ${long}_[ab]" out)" = 2 ] ||
	fail "both long tags are not declared: $(grep '^struct' out)"

# Crafted layout notes in place of the one -G wrote for struct order.
"$DG" -G -s "$S/orders.d" -o good-probes.o orders.o || fail "dtrace-gen -G"
$CC orders.o good-probes.o -o noted && strip noted || fail "link"
objcopy --dump-section .note.sdtkit=notes noted /dev/null || fail "objcopy --dump-section"
craft() { # WHAT WHY DESC: DESC ('|' for NUL) as struct order's layout
	python3 - notes "$3" >crafted <<'EOF' || fail "crafting the note"
import sys
data = open(sys.argv[1], "rb").read()
desc = sys.argv[2].replace("|", "\0").encode()
word = lambda at: int.from_bytes(data[at:at + 4], "little")
out, at = b"", 0
while at < len(data):
    namesz, descsz, typ = word(at), word(at + 4), word(at + 8)
    name_end = at + 12 + namesz + (-namesz % 4)
    end = name_end + descsz + (-descsz % 4)
    if typ == 2 and data[name_end:].startswith(b"struct order\0"):
        out += data[at:at + 4] + len(desc).to_bytes(4, "little") + \
            data[at + 8:name_end] + desc + b"\0" * (-len(desc) % 4)
    else:
        out += data[at:end]
    at = end
sys.stdout.buffer.write(out)
EOF
	objcopy --update-section .note.sdtkit=crafted noted crafted.bin || fail "objcopy --update-section"
	quick "$1" "$SDT_LIST" -v crafted.bin so:order
	grep -q "the layout of struct order in .note.sdtkit is ignored ($2)" err ||
		fail "$1: not refused with \`$2': $(cat err)"
	grep -q "^  arg0 struct order \*o: no layout found: its layout note is refused: $2" out ||
		fail "$1: -v does not say why: $(grep '^  arg0 ' out)"
}
H='struct order|1|struct|order|88'
craft "an element count that wraps" "an array field's element is wrong" \
	"$H|1|codes|int [3]|36|12|a|i:4:4611686018427387907|"
craft "a 4-byte field holding a 64-byte struct" "a nested struct's size is not its field's" \
	"struct order|2|struct|order|88|1|first|struct item|24|4|t|1|struct|item|64|0|"
craft "a 3-byte long long" "a field's size does not fit its kind" \
	"$H|1|id|long long|0|3|i||"
craft "two fields of one name" "two fields have one name" \
	"$H|2|id|long|0|8|i||id|long|8|8|i||"
craft "a field named int" "a field's name is not a C identifier" \
	"$H|1|int|long|0|8|i||"
craft "a tag named if" "a struct's tag is not a C identifier" \
	"struct order|1|struct|if|88|1|id|long|0|8|i||"
craft "overlapping fields" "two fields overlap" \
	"$H|2|id|long|0|8|i||x|long|4|8|i||"
echo "PASS: hostile debug links, FIFOs, long tags and crafted notes: each answered at once, with the reason"
