#!/bin/sh
# What a listing must never do with odd input: a truncated or damaged ELF
# file is exit 2 with what is wrong, never "0 probe sites" (with --check
# and --json too); FIFOs, devices and directories are refused at once, not
# waited on; a note section of gigabytes is not read; a stale note (its
# code dropped by clang+lld --gc-sections, or a PC moved into data) is
# flagged by --check; names with control bytes, C1 bytes and invalid UTF-8
# are escaped, in text and in JSON.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_cmd readelf timeout

good=$T/good
build_probes ours "$good"

# run_list WHAT STATUS ARGS...: sdt-list in under 10 s, out in $T/out, $T/err.
run_list() {
	what=$1
	want=$2
	shift 2
	timeout 10 "$SDT_LIST" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc != 124 ] || fail "$what: sdt-list hung"
	[ $rc -lt 128 ] || fail "$what: sdt-list crashed ($rc): $(cat "$T/err")"
	expect_eq "$what: exit status" "$want" "$rc"
}

# Truncations all over the file, and every option mix.
size=$(wc -c <"$good")
cuts="16 52 63 64 65 100 200 500 1000"
i=1
while [ $i -lt 40 ]; do
	cuts="$cuts $((size * i / 40))"
	i=$((i + 1))
done
cuts="$cuts $((size - 64)) $((size - 1))"
for cut in $cuts; do
	head -c "$cut" "$good" >"$T/trunc"
	for opts in "" --check --json "-v --check"; do
		# shellcheck disable=SC2086
		run_list "truncated at $cut of $size ($opts)" 2 $opts "$T/trunc"
		grep -q "probe site" "$T/out" &&
			fail "truncated at $cut: listed as if whole: $(cat "$T/out")"
		grep -q "^sdt-list: $T/trunc: " "$T/err" ||
			fail "truncated at $cut: no message naming the file: $(cat "$T/err")"
	done
done
note "truncated at $(echo "$cuts" | wc -w) offsets: each refused"
grep -q 'truncated or damaged ELF file: .* past the end of the file' "$T/err" ||
	fail "the last truncation does not say what is wrong: $(cat "$T/err")"

# A sparse file whose note section claims 900 MB of zeros: refused at
# once (sections are read into memory, never gigabytes of them).
cp "$good" "$T/huge"
python3 - "$T/huge" <<'PY' || fail "cannot grow the note section"
import os, struct, sys
p = sys.argv[1]
d = bytearray(open(p, "rb").read())
shoff, = struct.unpack_from("<Q", d, 0x28)
ent, num, strndx = struct.unpack_from("<3H", d, 0x3a)
names, = struct.unpack_from("<Q", d, shoff + strndx * ent + 0x18)
for i in range(num):
    at = shoff + i * ent
    name = names + struct.unpack_from("<I", d, at)[0]
    if d[name:name + 14] == b".note.stapsdt\0":
        struct.pack_into("<QQ", d, at + 0x18, 1 << 30, 900 << 20)
open(p, "wb").write(d)
os.truncate(p, 2 << 30)
PY
run_list "a 900 MB note section" 2 "$T/huge"
grep -q "$T/huge: .note.stapsdt not read: 943718400 bytes, more than 64 MiB" "$T/err" ||
	fail "a 900 MB note section: $(cat "$T/err")"
rm -f "$T/huge"

# Not regular files: refused at once, and the good file is still listed.
mkfifo "$T/fifo" || fail "mkfifo"
run_list "FIFO" 2 "$T/fifo" "$good"
grep -q "$T/fifo: not a regular file (a FIFO)" "$T/err" || fail "FIFO: $(cat "$T/err")"
grep -q 'probes:regs' "$T/out" || fail "the good file was not listed after a FIFO"
# A directory is walked (tests/sdt-list/walk.sh): an empty one lists none.
mkdir "$T/dir"
run_list "directory" 0 "$T/dir"
grep -q "^0 files read (0 ELF), 0 objects with probes" "$T/out" || fail "directory: $(cat "$T/out" "$T/err")"
run_list "device" 2 --check /dev/null
grep -q "/dev/null: not a regular file (a character device)" "$T/err" ||
	fail "device: $(cat "$T/err")"

# A stale note: PC moved into .rodata (inside a loadable segment, not code).
rodata=$(readelf -S -W "$good" | sed -n 's/.*\] \.rodata *PROGBITS *\([0-9a-f]*\) .*/\1/p')
[ -n "$rodata" ] || fail "no .rodata in $good"
off=$(readelf -S -W "$good" | sed -n 's/.*\] \.note\.stapsdt *NOTE *[0-9a-f]* \([0-9a-f]*\) .*/\1/p')
cp "$good" "$T/stale"
python3 - "$T/stale" $((0x$off + 20)) $((0x$rodata)) <<'PY'
import struct, sys
with open(sys.argv[1], "r+b") as f:
    f.seek(int(sys.argv[2])); f.write(struct.pack("<Q", int(sys.argv[3])))
PY
run_list "stale note, listing" 0 "$T/stale"
run_list "stale note, --check" 1 --check "$T/stale"
grep -q 'NOT IN CODE: .*a stale note' "$T/out" || fail "stale note not flagged: $(cat "$T/out")"
run_list "stale note, --check --json" 1 --check --json "$T/stale"
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
bad = [x["name"] for x in s if not x["in_code"]]
assert len(bad) == 1 and "stale" in s[0], bad
' "$T/out" || fail "stale note in JSON: $(cat "$T/out")"
run_list "good file, --check" 0 --check "$good"
grep -q 'NOT IN CODE' "$T/out" && fail "good file flagged stale: $(cat "$T/out")"

# clang + lld --gc-sections keeps the note of a dropped function (PC 0).
if build_gc_stale "$T/gc"; then
	"$SDT_LIST" --check -v "$T/gc" >"$T/out" 2>&1
	[ $? -ne 0 ] || fail "--check passes a stale note: $(cat "$T/out")"
	sed -n '/^gc:dropped/,/^gc:kept/p' "$T/out" | grep -q 'NOT IN CODE' ||
		fail "gc:dropped not flagged: $(cat "$T/out")"
	sed -n '/^gc:kept/,$p' "$T/out" | grep -q 'NOT IN CODE' &&
		fail "gc:kept flagged: $(cat "$T/out")"
fi

# A name with ESC, a C1 CSI (0x9b), U+0085 in UTF-8, an invalid byte, and a
# backslash: shown escaped, never raw.
cp "$good" "$T/names"
python3 - "$T/names" <<'PY' || fail "cannot rename the provider"
import sys
p = sys.argv[1]
d = open(p, "rb").read()
# In the note: after the 8-byte semaphore field (0: none).
old = b"\0" * 8 + b"probes\0regs\0"
new = b"\0" * 8 + b"\x1b\x9b\xc2\x85\xff\\\0regs\0"
assert d.count(old) == 1 and len(old) == len(new)
open(p, "wb").write(d.replace(old, new))
PY
for v in "" -v; do
	# shellcheck disable=SC2086
	run_list "escaped names $v" 0 $v "$T/names"
	grep -q '\\x1b\\x9b\\xc2\\x85\\xff\\\\:regs' "$T/out" ||
		fail "name not escaped ($v): $(cat -v "$T/out")"
	LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177-\377]')" "$T/out" &&
		fail "raw control or non-ASCII bytes reach the terminal ($v): $(cat -v "$T/out")"
done
run_list "escaped names, JSON" 0 --json "$T/names"
python3 -c '
import json, sys
raw = open(sys.argv[1], "rb").read()
assert b"\x1b" not in raw and b"\x9b" not in raw and b"\xc2\x85" not in raw, raw
s = json.load(open(sys.argv[1]))
p = [x["provider"] for x in s if x["name"] == "regs"]
assert p == ["\x1b\ufffd\x85\ufffd\\"], p
' "$T/out" || fail "JSON names: $(cat -v "$T/out")"

# --version and --help.
run_list "--version" 0 --version
grep -Eq '^sdt-list \(sdtkit\) [0-9]+\.[0-9]+' "$T/out" || fail "--version: $(cat "$T/out")"
run_list "--help" 0 --help
for o in -h -v -p -c -j -V; do
	grep -q -- "  $o, " "$T/out" || fail "--help omits $o: $(cat "$T/out")"
done
exit 0
