#!/bin/sh
# Inputs made to cost: each ends in seconds with the whole answer or a
# clear error. A relocatable object with 10,000 relocation sections over
# the same bytes (read within the file's size: each note once, status 2
# with a word); 10,000 type-record sections over the same records (each
# record once); a 64 GB sparse file; a program text in /proc (its size
# says 0, its text is there: read whole, not taken for empty), and
# /proc/self/mem, /dev/zero as a program (errors).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_cmd timeout truncate

# more SRC DST SECTION N: SRC with N more headers copying SECTION's.
more() {
	python3 - "$@" <<'PY' || fail "cannot write $2"
import struct, sys
src, dst, sec, n = sys.argv[1], sys.argv[2], sys.argv[3].encode(), int(sys.argv[4])
d = bytearray(open(src, "rb").read())
shoff, = struct.unpack_from("<Q", d, 0x28)
ent, num, strndx = struct.unpack_from("<3H", d, 0x3a)
hdrs = [bytes(d[shoff + i * ent:shoff + (i + 1) * ent]) for i in range(num)]
stroff, = struct.unpack_from("<Q", hdrs[strndx], 0x18)
def name(h):
    o = stroff + struct.unpack_from("<I", h, 0)[0]
    return bytes(d[o:d.index(b"\0", o)])
h = [h for h in hdrs if name(h) == sec][0]
while len(d) % 8:
    d.append(0)
struct.pack_into("<Q", d, 0x28, len(d))
struct.pack_into("<H", d, 0x3c, num + n)
for x in hdrs + [h] * n:
    d += x
open(dst, "wb").write(d)
PY
}

# run WHAT STATUS ARGS...: sdt-list ARGS in 60 s and 300 MB, exit STATUS.
run() {
	what=$1
	want=$2
	shift 2
	(
		ulimit -v 300000
		exec timeout 60 "$SDT_LIST" "$@"
	) >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc != 124 ] || fail "$what: more than 60 s"
	expect_eq "$what: status ($(head -c 300 "$T/err"))" "$want" "$rc"
}

build_probes ours "$T/probes"
$CC -O2 -c -I"$SDT_INCLUDE" -o "$T/probes.o" "$top_srcdir/tests/sdt-list/probes.c" ||
	fail "cannot build probes.o"
run "the object" 0 --json "$T/probes.o"
cp "$T/out" "$T/probes.o.json"
more "$T/probes.o" "$T/relocs.o" .rela.note.stapsdt 10000
run "10,000 relocation sections" 2 --json "$T/relocs.o"
grep -q "relocations of .note.stapsdt too large to read, or overlapping" "$T/err" ||
	fail "10,000 relocation sections: no word: $(cat "$T/err")"
python3 - "$T/out" "$T/probes.o.json" <<'PY' || exit 1
import json, sys
strip = lambda l: [{k: v for k, v in s.items() if k not in ("file", "attach")} for s in l]
if strip(json.load(open(sys.argv[1]))) != strip(json.load(open(sys.argv[2]))):
    raise SystemExit("FAIL: 10,000 relocation sections: listed otherwise than the object")
PY

$CC -O2 -I"$SDT_INCLUDE" -o "$T/typed" "$top_srcdir/tests/sdt-list/typed.c" ||
	fail "cannot build typed.c"
run "typed" 0 "$T/typed"
cp "$T/out" "$T/typed.out"
more "$T/typed" "$T/types" .note.sdtkit 10000
run "10,000 type sections" 0 "$T/types"
cmp -s "$T/out" "$T/typed.out" || fail "10,000 type sections: $(diff "$T/typed.out" "$T/out" | head -n 5)"
note "10,000 relocation or type-record sections over the same bytes: each read once"

cp "$T/probes" "$T/sparse"
truncate -s 64G "$T/sparse" || fail "cannot make a sparse file"
run "a 64 GB sparse file" 0 "$T/sparse"
mkdir "$T/tree"
mv "$T/sparse" "$T/tree/"
run "a walk over it" 0 "$T/tree"

printf 'usdt:%s:probes:nosuch { @n = count(); }\n' "$T/probes" >"$T/nosuch.bt"
env -i "BT=
$(cat "$T/nosuch.bt")
" "$SDT_LIST" --script /proc/self/environ "$T/probes" >"$T/out" 2>"$T/err"
expect_eq "a program in /proc: status ($(cat "$T/out" "$T/err"))" 1 $?
grep -q "would not attach: no probe probes:nosuch" "$T/out" ||
	fail "a program in /proc: read as empty: $(cat "$T/out")"
for bad in /proc/self/mem /dev/zero; do
	run "--script $bad" 2 --script $bad "$T/probes"
	[ -s "$T/err" ] || fail "--script $bad: no word"
done
note "a 64 GB sparse file, a program in /proc, /proc/self/mem, /dev/zero"
