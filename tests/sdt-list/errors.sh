#!/bin/sh
# Bad input gets a clear message naming the file, the other files are still
# listed, and the exit status says so (2): not an ELF, missing, truncated, a
# corrupted note, a note pointing outside its file, no such process, a
# process we may not read. Never a crash.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_cmd readelf

good=$T/good
build_probes stap "$good"

# run_list WHAT EXPECTED-STATUS ARGS...: sdt-list, output in $T/out, $T/err.
run_list() {
	what=$1
	want=$2
	shift 2
	"$SDT_LIST" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -lt 128 ] || fail "$what: sdt-list crashed (status $rc): $(cat "$T/err")"
	expect_eq "$what: exit status" "$want" "$rc"
}

# note_off FILE: file offset of .note.stapsdt.
note_off() {
	readelf -S -W "$1" | sed -n 's/.*\] \.note\.stapsdt *NOTE *[0-9a-f]* \([0-9a-f]*\) .*/\1/p'
}

# poke FILE OFFSET HEXBYTES: overwrite bytes in place.
poke() {
	python3 -c 'import sys
f = open(sys.argv[1], "r+b"); f.seek(int(sys.argv[2])); f.write(bytes.fromhex(sys.argv[3]))' "$@"
}

echo "just text" >"$T/text"
run_list "not an ELF" 2 "$T/text" "$good"
grep -q "$T/text: not an ELF" "$T/err" || fail "no message for a text file: $(cat "$T/err")"
grep -q 'probes:regs' "$T/out" || fail "the good file was not listed after a bad one"

run_list "missing file" 2 "$T/nonexistent" "$good"
grep -q "$T/nonexistent: cannot open: No such file" "$T/err" || fail "missing: $(cat "$T/err")"
grep -q 'probes:regs' "$T/out" || fail "the good file was not listed after a missing one"

size=$(wc -c <"$good")
for cut in 16 64 1000 $((size / 2)) $((size - 100)); do
	head -c $cut "$good" >"$T/trunc"
	"$SDT_LIST" --check --json "$T/trunc" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -lt 128 ] || fail "truncated at $cut: crashed ($rc)"
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out" ||
		fail "truncated at $cut: invalid JSON"
done

off=$(note_off "$good")
[ -n "$off" ] || fail "no .note.stapsdt in $good"
off=$((0x$off))

# A corrupted note: a descriptor size running past the section.
cp "$good" "$T/badnote"
poke "$T/badnote" $((off + 4)) ffff0000
run_list "corrupted note" 2 "$T/badnote"
grep -q "$T/badnote: malformed note" "$T/err" || fail "corrupted note: $(cat "$T/err")"

# A note whose PC points outside the file (after the 12-byte header and
# the 8-byte name).
cp "$good" "$T/outside"
poke "$T/outside" $((off + 20)) 00000000ff000000
run_list "note outside its file" 2 "$T/outside"
grep -q 'OUTSIDE every loadable segment' "$T/out" || fail "pc outside: $(cat "$T/out")"

# Processes.
run_list "no such process" 2 -p 999999999
grep -q 'pid 999999999: no such process' "$T/err" || fail "bad pid: $(cat "$T/err")"
run_list "bad pid" 2 -p abc
# As nobody, from a copy it can reach (the build tree may be under /root).
if can_nobody; then
	nlist=$(nobody_copy "$SDT_LIST") || exit 1
	as_nobody "$nlist" -p 1 >"$T/out" 2>"$T/err"
	rc=$?
	expect_eq "unreadable process: exit status" 2 "$rc"
	grep -q 'pid 1: cannot read /proc/1/maps: Permission denied (run as root' "$T/err" ||
		fail "unreadable process: $(cat "$T/err")"
else
	note "not checked as an unprivileged user: $why_nobody"
fi
exit 0
