#!/bin/sh
# sdt-list DIR: a tree with an executable, a shared object and a relocatable
# object with probes, among scripts, text, tiny and empty files, a hard
# link, symbolic links (to an object, and in loops), a FIFO, a device node,
# an unreadable file and a bind mount of the tree inside itself. It lists
# exactly the objects `readelf -n' shows stapsdt notes in, with as many
# sites each, once each, and nothing else; it never opens the FIFO, the
# device or a link (strace), never hangs, and ends with the totals.
# --one-file-system leaves out a mount inside; an unreadable file is named
# with exit 2 and the others still listed; --json validates against
# docs/inventory.schema.json; two walks list alike.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_cmd readelf timeout

# The tree.
R=$T/tree
mkdir -p "$R/bin" "$R/lib" "$R/obj" "$R/scripts" "$R/data" "$R/hard" "$R/sub"
cat >"$T/p.c" <<'C'
#include <sys/sdt.h>
int lib_fire(int);
int main(int c, char **v) { (void)v; DTRACE_PROBE1(walkprog, start, c); DTRACE_PROBE2(walkprog, two, c, c + 1); return 0; }
C
cat >"$T/l.c" <<'C'
#include <sys/sdt.h>
int lib_fire(int x) { DTRACE_PROBE1(walklib, fire, x); DTRACE_PROBE1(walklib, fire, x + 1); return x; }
C
$CC -O2 -I"$SDT_INCLUDE" -o "$R/bin/prog" "$T/p.c" || fail "cannot build prog"
$CC -O2 -fPIC -shared -I"$SDT_INCLUDE" -o "$R/lib/libwalk.so" "$T/l.c" || fail "cannot build the library"
$CC -O2 -c -I"$SDT_INCLUDE" -o "$R/obj/l.o" "$T/l.c" || fail "cannot build l.o"
printf 'int main(void) { return 0; }\n' >"$T/n.c"
$CC -O2 -o "$R/bin/noprobes" "$T/n.c" || fail "cannot build noprobes"
printf '#!/bin/sh\necho hi\n' >"$R/scripts/run.sh"
chmod 755 "$R/scripts/run.sh"
printf 'some text\n' >"$R/data/text.txt"
: >"$R/data/empty"
printf '\177EL' >"$R/data/tiny"
ln "$R/bin/prog" "$R/hard/prog-again"
# A directory big enough for its files to be peeked at by several threads.
mkdir "$R/many"
i=0
while [ $i -lt 60 ]; do
	echo "file $i" >"$R/many/f$i"
	i=$((i + 1))
done
ln "$R/bin/prog" "$R/many/prog-third"
ln -s ../bin/prog "$R/sub/link-to-prog"
ln -s . "$R/sub/self"
ln -s loop-b "$R/sub/loop-a"
ln -s loop-a "$R/sub/loop-b"
need_cmd mkfifo
mkfifo "$R/data/fifo"
if [ "$(id -u)" = 0 ] && mknod "$R/data/zero" c 1 5 2>/dev/null; then
	have_dev=1
else
	have_dev=0
	note "cannot make a device node here: no device in the tree"
fi

# walk ARGS...: sdt-list ARGS, in under 20 s; $rc, $T/out, $T/err.
walk() {
	timeout 20 "$SDT_LIST" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc != 124 ] || fail "sdt-list $* blocked"
	[ $rc -lt 128 ] || fail "sdt-list $* died ($rc): $(cat "$T/err")"
}

# What readelf shows: "PATH SITES" per file with stapsdt notes, a file
# with several names once (the first in name order, as the walk goes).
find "$R" -type f | LC_ALL=C sort | while read -r f; do
	n=$(readelf -nW "$f" 2>/dev/null | grep -c 'NT_STAPSDT')
	[ "$n" -gt 0 ] && echo "$(stat -c %d:%i "$f") ${f#"$R"/} $n"
done | awk '!seen[$1]++ { print $2, $3 }' >"$T/want"
[ "$(wc -l <"$T/want")" = 3 ] || fail "readelf sees probes in $(cat "$T/want")"

walk --json "$R"
expect_eq "exit status ($(cat "$T/err"))" 0 "$rc"
[ -s "$T/err" ] && fail "a word on stderr: $(cat "$T/err")"
python3 - "$T/out" "$R" >"$T/got" <<'PY' || fail "--json: $(cat "$T/out")"
import json, sys
d = json.load(open(sys.argv[1]))
for o in d["objects"]:
    assert len(o["paths"]) == 1 and o["processes"] == [], o
    print(o["paths"][0][len(sys.argv[2]) + 1:], sum(len(p["sites"]) for p in o["probes"]))
t = d["totals"]
assert d["mode"] == "files" and t["objects"] == len(d["objects"]), t
PY
expect_eq "the objects readelf shows probes in" "$(LC_ALL=C sort "$T/want")" "$(LC_ALL=C sort "$T/got")"

# The text listing: those objects, their probes, and the totals last.
walk "$R"
expect_eq "exit status" 0 "$rc"
# The header records what the compiler sees: `c + 1' names nothing.
grep -q '^walkprog:two(int c, int)  1 site$' "$T/out" || fail "walkprog:two not listed: $(cat "$T/out")"
grep -q '^walklib:fire(int x)  2 sites$' "$T/out" || fail "walklib:fire not listed: $(cat "$T/out")"
grep -q 'noprobes\|run.sh\|text.txt\|fifo\|link-to-prog\|prog-again\|prog-third\|many/f' "$T/out" &&
	fail "lists what has no probes, or a file twice: $(cat "$T/out")"
sites=$(awk '{ s += $2 } END { print s }' "$T/want")
tail -n 1 "$T/out" | grep -q "^[0-9]* files read ([0-9]* ELF), 3 objects with probes, 4 probes, $sites sites\$" ||
	fail "the totals: $(tail -n 1 "$T/out")"
cp "$T/out" "$T/first"
walk "$R"
cmp -s "$T/first" "$T/out" || fail "two walks differ: $(diff "$T/first" "$T/out")"

# What it opens: never the FIFO, the device or a link.
if command -v strace >/dev/null 2>&1; then
	strace -f -e trace=open,openat -o "$T/strace" "$SDT_LIST" "$R" >/dev/null 2>&1
	grep -E '[/"](fifo|zero|link-to-prog|loop-a|loop-b|self)"' "$T/strace" &&
		fail "opened what it must not"
	opened=$(grep -c 'tree/bin/prog\|"prog"' "$T/strace")
	[ "$opened" -le 1 ] || fail "opened prog $opened times: $(grep prog "$T/strace")"
else
	note "strace is not installed: what is opened is not checked"
fi

# An unreadable file, as a user who cannot read it: named, exit 2, the
# others still listed. The program is copied where that user reaches it.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	cp "$SDT_LIST" "$T/sdt-list"
	chmod 755 "$T" "$T/sdt-list"
	chmod -R a+rX "$R"
	cp "$R/bin/prog" "$R/data/secret"
	chmod 600 "$R/data/secret"
	timeout 20 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$T/sdt-list" "$R" >"$T/out" 2>"$T/err"
	rc=$?
	expect_eq "unreadable file: exit status ($(cat "$T/err"))" 2 "$rc"
	grep -q "^sdt-list: $R/data/secret: cannot open: Permission denied\$" "$T/err" ||
		fail "unreadable file not named: $(cat "$T/err")"
	[ "$(grep -c 'with probes\|^walk' "$T/out")" -ge 3 ] || fail "nothing else listed: $(cat "$T/out")"
	rm -f "$R/data/secret"
else
	note "not root: no unreadable-file case"
fi

# A damaged ELF file is an error, not a silence.
head -c 200 "$R/bin/prog" >"$R/data/cut"
walk "$R"
expect_eq "damaged file: exit status" 2 "$rc"
grep -q "^sdt-list: $R/data/cut: " "$T/err" || fail "damaged file not named: $(cat "$T/err")"
rm -f "$R/data/cut"

# Mounts: --one-file-system stays on the tree's, a bind mount of the tree
# inside itself is walked once.
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	mkdir "$R/mnt" "$R/sub/again"
	unshare -m --propagation private sh -c '
		mount -t tmpfs none "$1/mnt" && cp "$1/bin/prog" "$1/mnt/other" &&
		mount --bind "$1" "$1/sub/again" || exit 9
		timeout 20 "$2" "$1" >"$3/all" 2>&1 || exit 3
		timeout 20 "$2" -x "$1" >"$3/xdev" 2>&1 || exit 4
		timeout 20 "$2" --one-file-system "$1" >"$3/xdev2" 2>&1 || exit 5
	' sh "$R" "$SDT_LIST" "$T"
	rc=$?
	[ $rc = 9 ] && skip "cannot mount in a namespace here"
	expect_eq "walks in a namespace" 0 "$rc"
	grep -q "^$R/mnt/other:" "$T/all" || fail "the mount's object not listed: $(cat "$T/all")"
	grep -q "sub/again" "$T/all" && fail "the bind mount walked again: $(cat "$T/all")"
	grep -q "/mnt/other" "$T/xdev" && fail "-x walked another file system: $(cat "$T/xdev")"
	cmp -s "$T/xdev" "$T/xdev2" || fail "-x and --one-file-system differ"
	grep -q ", 3 objects with probes" "$T/xdev" || fail "-x: $(tail -n 1 "$T/xdev")"
else
	note "cannot make a mount namespace: no mount cases"
fi

# The schema.
if python3 -c 'import jsonschema' 2>/dev/null; then
	walk --json --check "$R"
	python3 - "$top_srcdir/docs/inventory.schema.json" "$T/out" <<'PY' || fail "the inventory does not validate"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
jsonschema.Draft7Validator(schema).validate(json.load(open(sys.argv[2])))
PY
else
	note "python3-jsonschema is not installed: schema not checked"
fi
[ $have_dev = 1 ] && note "the tree held a device node"
exit 0
