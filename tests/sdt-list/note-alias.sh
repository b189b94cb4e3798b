#!/bin/sh
# Notes that alias each other count once. A file's section headers may all
# name the same note bytes (ten thousand headers over a thousand notes, as
# a hostile file can make), start inside one another at other alignments,
# or each reach a little further: every listing mode (a file, --json, a
# walk, --diff, a relocatable object) shows each note once, ends in
# seconds within 300 MB of address space (ten million probes would take
# gigabytes), says the sections overlap (exit 2), and a file never holds
# more probe sites than its size allows.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_cmd timeout

python3 - "$T/many.c" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("#include <sys/sdt.h>\nint main(int argc, char **argv)\n{\n\t(void)argv;\n")
    for i in range(1000):
        f.write("\tDTRACE_PROBE1(alias, p%d, argc);\n" % i)
    f.write("\treturn 0;\n}\n")
PY
$CC -O2 -I"$SDT_INCLUDE" -o "$T/many" "$T/many.c" || fail "cannot build many.c"
$CC -O2 -c -I"$SDT_INCLUDE" -o "$T/many.o" "$T/many.c" || fail "cannot build many.o"

# alias SRC DST MODE N: SRC with N more section headers over its notes.
#   same: each covers exactly the note section;
#   shift: each starts 4 bytes further in (views at other alignments);
#   grow: each starts where it does and is one byte longer than the last.
alias() {
	python3 - "$@" <<'PY' || fail "cannot write $2"
import struct, sys
src, dst, mode, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
d = bytearray(open(src, "rb").read())
shoff, = struct.unpack_from("<Q", d, 0x28)
ent, num, strndx = struct.unpack_from("<3H", d, 0x3a)
hdrs = [bytes(d[shoff + i * ent:shoff + (i + 1) * ent]) for i in range(num)]
stroff, = struct.unpack_from("<Q", hdrs[strndx], 0x18)
def name(h):
    o = stroff + struct.unpack_from("<I", h, 0)[0]
    return bytes(d[o:d.index(b"\0", o)])
note = [h for h in hdrs if name(h) == b".note.stapsdt"][0]
off, size = struct.unpack_from("<QQ", note, 0x18)
extra = []
for i in range(n):
    h = bytearray(note)
    if mode == "shift":
        k = (4 * (i + 1)) % size
        struct.pack_into("<QQ", h, 0x18, off + k, size - k)
    elif mode == "grow":
        struct.pack_into("<QQ", h, 0x18, off, min(size, 64 + i))
    extra.append(bytes(h))
while len(d) % 8:
    d.append(0)
struct.pack_into("<Q", d, 0x28, len(d))
struct.pack_into("<H", d, 0x3c, num + n)
for h in hdrs + extra:
    d += h
open(dst, "wb").write(d)
PY
}

# bounded WHAT STATUS ARGS...: sdt-list ARGS in under 60 s and 300 MB of
# address space, exit STATUS; output in $T/out, $T/err.
bounded() {
	what=$1
	want=$2
	shift 2
	(
		ulimit -v 300000
		exec timeout 60 "$SDT_LIST" "$@"
	) >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc != 124 ] || fail "$what: sdt-list took more than 60 s"
	expect_eq "$what: exit status ($(head -c 300 "$T/err"))" "$want" "$rc"
}

# once WHAT: the --json in $T/out has each of the 1000 probes once.
once() {
	python3 - "$T/out" "$1" <<'PY' || exit 1
import json, sys
sites = json.load(open(sys.argv[1]))
names = sorted(s["name"] for s in sites)
want = sorted("p%d" % i for i in range(1000))
if names != want:
    print("FAIL: %s: %d sites, %d distinct; want each of 1000 once"
          % (sys.argv[2], len(names), len(set(names))))
    sys.exit(1)
PY
}

bounded "the original" 0 --json "$T/many"
once "the original"
cp "$T/out" "$T/many.json"
for mode in same shift grow; do
	alias "$T/many" "$T/$mode" $mode 10000
	bounded "$mode: --json" 2 --json "$T/$mode"
	once "$mode: --json"
	grep -q "sections overlap in the file: their notes are read once" "$T/err" ||
		fail "$mode: no word of the overlap: $(cat "$T/err")"
	python3 - "$T/out" "$T/many.json" "$mode" <<'PY' || exit 1
import json, sys
got, want = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
key = lambda s: (s["name"], s["address"], s["args"])
if sorted(map(key, got)) != sorted(map(key, want)):
    print("FAIL: %s: the sites differ from the original's" % sys.argv[3])
    sys.exit(1)
PY
	bounded "$mode: the listing" 2 "$T/$mode"
	[ "$(grep -c ' 1 site$' "$T/out")" = 1000 ] ||
		fail "$mode: the listing does not show 1000 probes of one site: $(tail -n 3 "$T/out")"
	bounded "$mode: --check" 2 --check "$T/$mode"
	bounded "$mode: --bpftrace" 2 --bpftrace "$T/$mode"
done
note "10,000 headers over the same notes, shifted and growing: each note once"

size=$(wc -c <"$T/same")
[ $((1000 * 36)) -le "$size" ] || fail "the probe bound: 1000 sites in $size bytes"

# A walk and a diff read through the same reader.
mkdir "$T/tree"
cp "$T/same" "$T/tree/same"
bounded "a walk" 2 --json "$T/tree"
python3 - "$T/out" <<'PY' || exit 1
import json, sys
inv = json.load(open(sys.argv[1]))
n = sum(len(p["sites"]) for o in inv["objects"] for p in o["probes"])
if n != 1000:
    print("FAIL: the walk lists %d sites, want 1000" % n)
    sys.exit(1)
PY
bounded "--diff" 2 --diff "$T/many" "$T/same"
grep -q "sections overlap" "$T/err" || fail "--diff: no word of the overlap: $(cat "$T/err")"

# A relocatable object: the aliases carry no relocations; the notes read
# are the relocated ones, once.
bounded "the object" 0 --json "$T/many.o"
cp "$T/out" "$T/many.o.json"
alias "$T/many.o" "$T/same.o" same 10000
bounded "aliased object" 2 --json "$T/same.o"
python3 - "$T/out" "$T/many.o.json" <<'PY' || exit 1
import json, sys
strip = lambda l: [{k: v for k, v in s.items() if k not in ("file", "attach")} for s in l]
if strip(json.load(open(sys.argv[1]))) != strip(json.load(open(sys.argv[2]))):
    print("FAIL: the aliased object is listed otherwise than the object")
    sys.exit(1)
PY
note "a walk, --diff and a relocatable object: each note once"
