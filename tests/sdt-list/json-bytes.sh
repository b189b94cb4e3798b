#!/bin/sh
# JSON paths are exact to the byte. Files whose names are not UTF-8 (two
# that differ only in such a byte, one with `%', one with a control byte,
# one in valid UTF-8) are listed by --json (per site), by a walk's
# inventory (validated against docs/inventory.schema.json), by -a's
# process records and by --diff --json: the path member stays valid JSON,
# and where it is not the name, its _bytes member decodes (%XX) to the
# name's bytes; no two files read alike; a UTF-8 name has no _bytes.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema is not installed"

cat >"$T/p.c" <<'C'
#include <sys/sdt.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	(void)argv;
	DTRACE_PROBE1(bytes, start, argc);
	if (argc > 1)
		pause(); /* until killed */
	return 0;
}
C
$CC -O2 -I"$SDT_INCLUDE" -o "$T/p" "$T/p.c" || fail "cannot build p.c"
D=$T/dir
export D
mkdir "$D"
for n in 'a\377b' 'a\376b' 'a%b' 'a\303\251b' 'a\001b' 'a%FFb'; do
	cp "$T/p" "$D/$(printf "$n")"
done

# check.py KIND JSON: every path member is exact, by itself or its _bytes.
cat >"$T/check.py" <<'PY'
import json, os, re, sys
kind, doc = sys.argv[1], json.load(open(sys.argv[2]))
def decode(b):
    assert re.fullmatch(r"([ -$&-~]|%[0-9A-F]{2})*", b), b
    return re.sub(rb"%([0-9A-F]{2})", lambda m: bytes([int(m.group(1), 16)]),
                  b.encode("ascii"))
def exact(obj, key):
    s = obj[key]
    if key + "_bytes" in obj:
        raw = decode(obj[key + "_bytes"])
        assert raw.decode("utf-8", "replace") == s, (s, raw)
        try:
            raw.decode("utf-8")
            raise SystemExit("FAIL: %s: %s_bytes for a UTF-8 name %r" % (kind, key, s))
        except UnicodeDecodeError:
            pass
        return raw
    return s.encode("utf-8")
names = set()
if kind == "sites":
    for site in doc:
        f, a = exact(site, "file"), exact(site, "attach")
        if not a.startswith(os.fsencode(os.environ["D"])):
            continue  # the C library's own probes (glibc 2.43 has some)
        assert f == a or a.endswith(b"/" + os.path.basename(f)), (f, a)
        names.add(os.path.basename(a))
elif kind == "inventory":
    for o in doc["objects"]:
        pb = o.get("paths_bytes")
        for i, p in enumerate(o["paths"]):
            raw = decode(pb[i]) if pb and pb[i] is not None else p.encode()
            assert raw == exact(o["files"][i], "path"), (raw, o["files"][i])
            names.add(os.path.basename(raw))
        for pr in o["processes"]:
            names.add(os.path.basename(exact(pr, "exe")))
elif kind == "diff":
    for pair in doc["pairs"] if isinstance(doc, dict) and "pairs" in doc else doc:
        names.add(os.path.basename(exact(pair, "old")))
        names.add(os.path.basename(exact(pair, "new")))
want = set(os.fsencode(n) for n in sys.argv[3:])
if names != want:
    raise SystemExit("FAIL: %s: names %r, want %r" % (kind, sorted(names), sorted(want)))
PY
set -- "$D"/*
"$SDT_LIST" --json "$@" >"$T/sites.json" || fail "--json over the files failed"
python3 "$T/check.py" sites "$T/sites.json" $(cd "$D" && ls) || exit 1
"$SDT_LIST" --json "$D" >"$T/inv.json" || fail "--json $D failed"
python3 - "$top_srcdir/docs/inventory.schema.json" "$T/inv.json" <<'PY' || fail "the inventory does not follow its schema"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
jsonschema.Draft7Validator(schema).validate(json.load(open(sys.argv[2])))
PY
(cd "$D" && python3 "$T/check.py" inventory "$T/inv.json" *) || exit 1
note "--json per site and a walk's inventory: $(ls "$D" | wc -l) names, each exact"

# Two processes running the two names that differ only in a byte.
PIDS=
trap 'for p in $PIDS; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT
"$D/$(printf 'a\377b')" wait &
PIDS="$PIDS $!"
"$D/$(printf 'a\376b')" wait &
PIDS="$PIDS $!"
set -- $PIDS
wait_exe "$1" "$D/$(printf 'a\377b')"
wait_exe "$2" "$D/$(printf 'a\376b')"
"$SDT_LIST" --json -p "$1" -p "$2" >"$T/pid.json" || fail "--json -p failed"
python3 "$T/check.py" sites "$T/pid.json" "$(printf 'a\377b')" "$(printf 'a\376b')" || { cut -c1-300 "$T/pid.json"; exit 1; }
if [ "$(id -u)" = 0 ]; then
	"$SDT_LIST" --json -a bytes:start >"$T/all.json" || fail "--json -a failed: $(head -n 3 "$T/all.json")"
	python3 - "$top_srcdir/docs/inventory.schema.json" "$T/all.json" <<'PY' || fail "-a's inventory does not follow its schema"
import json, sys, jsonschema
jsonschema.Draft7Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))
PY
	python3 - "$T/all.json" "$1" "$2" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
exes = {}
for o in doc["objects"]:
    for p in o["processes"]:
        exes[p["pid"]] = p
for pid, want in ((int(sys.argv[2]), "%FF"), (int(sys.argv[3]), "%FE")):
    p = exes.get(pid)
    if not p or not p.get("exe_bytes", "").endswith("/a%sb" % want) or \
            not p.get("path_bytes", "").endswith("/a%sb" % want):
        raise SystemExit("FAIL: -a: process %d: %r" % (pid, p))
PY
	note "-p and -a: the two processes' executables, each exact"
else
	note "not root: -a is not checked"
fi

"$SDT_LIST" --diff --json "$D/$(printf 'a\377b')" "$D/$(printf 'a\376b')" >"$T/diff.json" ||
	fail "--diff --json failed"
python3 - "$T/diff.json" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
s = json.dumps(doc)
if '"old_bytes"' not in s or '"new_bytes"' not in s or "%FF" not in s or "%FE" not in s:
    raise SystemExit("FAIL: --diff --json names the files inexactly: %s" % s[:400])
PY
note "--diff --json: old_bytes and new_bytes"
