#!/bin/sh
# sdt-list lists exactly what `readelf -n' shows: the same probes in the
# same order, with the same addresses, base, semaphore and argument specs,
# for executables (PIE and not) and shared objects built with SystemTap's
# <sys/sdt.h> and with ours, and for cross-built objects; the text listing
# shows every site.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_cmd readelf

compare() {
	readelf -n "$1" >"$T/readelf.out" 2>&1 || fail "readelf -n $1"
	"$SDT_LIST" --json "$1" >"$T/list.json" || fail "sdt-list --json $1 failed"
	python3 - "$T/readelf.out" "$T/list.json" "$1" <<'PY' || exit 1
import json, re, sys
notes, cur = [], None
for line in open(sys.argv[1]):
    line = line.strip()
    if line.startswith("stapsdt") and "NT_STAPSDT" in line:
        cur = {"args": ""}
        notes.append(cur)
        line = line.split(")", 1)[1].strip()
    if cur is not None and line.startswith("Provider:"):
        cur["provider"] = line.split(":", 1)[1].strip()
    elif cur is not None and line.startswith("Name:"):
        cur["name"] = line.split(":", 1)[1].strip()
    elif cur is not None and line.startswith("Location:"):
        m = re.match(r"Location: (0x[0-9a-f]+), Base: (0x[0-9a-f]+), Semaphore: (0x[0-9a-f]+)", line)
        cur["pc"], cur["base"], cur["sema"] = (int(x, 16) for x in m.groups())
    elif cur is not None and line.startswith("Arguments:"):
        cur["args"] = line.split(":", 1)[1].strip()
sites = json.load(open(sys.argv[2]))
want = [(n["provider"], n["name"], n["pc"], n["base"], n["sema"], n["args"]) for n in notes]
got = [(s["provider"], s["name"], int(s["note_pc"], 16), int(s["base"], 16),
        int(s["semaphore"], 16), s["args"]) for s in sites]
if not want:
    print("FAIL: readelf shows no probes in %s" % sys.argv[3]); sys.exit(1)
if want != got:
    print("FAIL: %s: readelf and sdt-list differ" % sys.argv[3])
    for w, g in zip(want + [None] * len(got), got + [None] * len(want)):
        if w != g: print("  readelf:  %s\n  sdt-list: %s" % (w, g))
    sys.exit(1)
for s in sites:
    if int(s["address"], 16) != int(s["note_pc"], 16):
        print("FAIL: %s: address moved without prelink: %s" % (sys.argv[3], s)); sys.exit(1)
    if len(s["arguments"]) != len(re.findall(r"(?:\[[^]]*\]|\S)+", s["args"])):
        print("FAIL: %s: argument count: %s" % (sys.argv[3], s)); sys.exit(1)
print("# %s: %d probe sites match readelf" % (sys.argv[3], len(got)))
PY
	# The text listing shows each site once, at the note's address.
	"$SDT_LIST" "$1" >"$T/list.txt" || fail "sdt-list $1 failed"
	n_text=$(grep -c '^  at 0x' "$T/list.txt")
	n_notes=$(grep -c 'NT_STAPSDT' "$T/readelf.out")
	expect_eq "$1: sites in the text listing" "$n_notes" "$n_text"
}

for hdr in stap ours; do
	build_probes $hdr "$T/pie-$hdr" -fPIE -pie -DFLOAT_GLOBAL
	compare "$T/pie-$hdr"
	build_probes $hdr "$T/nopie-$hdr" -fno-PIE -no-pie
	compare "$T/nopie-$hdr"
	build_probes $hdr "$T/lib-$hdr.so" -fPIC -shared
	compare "$T/lib-$hdr.so"
done

# The multi-site probe is grouped under one heading with its sites.
grep -q '^probes:multi (2 sites)$' "$T/list.txt" ||
	fail "probes:multi not grouped: $(cat "$T/list.txt")"
grep -q 'arg0: signed 4 bytes in register' "$T/list.txt" ||
	fail "no argument in words: $(cat "$T/list.txt")"

# Cross-built shared objects (our header; SystemTap's is not in the cross
# sysroots): linked without libc, which a listing does not need.
for cc in aarch64-linux-gnu-gcc arm-linux-gnueabihf-gcc riscv64-linux-gnu-gcc \
	powerpc64le-linux-gnu-gcc s390x-linux-gnu-gcc i686-linux-gnu-gcc; do
	command -v $cc >/dev/null 2>&1 || { note "$cc missing"; continue; }
	$cc -O2 -fPIC -shared -nostdlib -I"$top_srcdir/include" \
		-o "$T/x-$cc.so" "$top_srcdir/tests/sdt-list/probes.c" \
		"$top_srcdir/tests/sdt-list/gated.c" || fail "$cc build"
	compare "$T/x-$cc.so"
done
exit 0
