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
	add_headers "$T/many" "$T/$mode" .note.stapsdt 10000 $mode
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
add_headers "$T/many.o" "$T/same.o" .note.stapsdt 10000
bounded "aliased object" 2 --json "$T/same.o"
same_sites "the aliased object" "$T/out" "$T/many.o.json"
note "a walk, --diff and a relocatable object: each note once"
