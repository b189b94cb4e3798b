# Shared by the sdt-list tests (after tests/lib.sh): where the program is,
# and how to build tests/sdt-list/probes.c with either header.
SDT_LIST=$top_builddir/sdt-list/sdt-list
[ -x "$SDT_LIST" ] || fail "$SDT_LIST is not built"
need_cmd python3

# build_probes stap|ours OUT [CFLAGS...]: compile probes.c with that header.
build_probes() {
	hdr=$1
	out=$2
	shift 2
	case $hdr in
	stap)
		need_stap_header
		inc=$STAP_INC
		;;
	ours) inc="-I$top_srcdir/include" ;;
	esac
	# shellcheck disable=SC2086
	$CC -O2 -g $inc "$@" -o "$out" "$top_srcdir/tests/sdt-list/probes.c" \
		"$top_srcdir/tests/sdt-list/gated.c" ||
		fail "cannot build probes.c with the $hdr header"
}

# verdicts JSON CONSUMER [EXCEPT]: from sdt-list --json output, one line per
# probe (its first site): "PROVIDER:NAME NARGS accept|reject" by CONSUMER's
# verdict, leaving out the probe EXCEPT.
verdicts() {
	python3 - "$1" "$2" "${3:-}" <<'PY'
import json, sys
seen = {sys.argv[3]}
for s in json.load(open(sys.argv[1])):
    key = s["provider"] + ":" + s["name"]
    if key in seen:
        continue
    seen.add(key)
    ok = s["check"][sys.argv[2]]["ok"]
    print(key, len(s["arguments"]), "accept" if ok else "reject")
PY
}

# compare_readelf FILE: sdt-list --json FILE shows the notes `readelf -n'
# shows, in order (provider, name, location, base, semaphore, arguments:
# readelf applies a relocatable object's relocations, and so must we);
# readelf's output is left in $T/readelf.out, ours in $T/list.json.
compare_readelf() {
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
}

# build_gc_stale OUT: a program whose probe gc:dropped is in a function
# clang+lld --gc-sections dropped (its note stays, PC 0) and gc:kept in
# main. Returns 1 (with a note) when clang or ld.lld is missing.
build_gc_stale() {
	if ! command -v clang >/dev/null 2>&1 || ! command -v ld.lld >/dev/null 2>&1; then
		note "clang or ld.lld missing: no --gc-sections case"
		return 1
	fi
	cat >"$1.c" <<'C'
#include <sys/sdt.h>
void unused(int a) { DTRACE_PROBE1(gc, dropped, a); }
int main(int argc, char **argv) { (void)argv; DTRACE_PROBE1(gc, kept, argc); return 0; }
C
	clang -O2 -I"$top_srcdir/include" -ffunction-sections -fuse-ld=lld \
		-Wl,--gc-sections "$1.c" -o "$1" || fail "clang+lld build"
}

# start_host OUTFILE CMD...: run CMD in the background until it prints
# "ready PID ..."; sets HOST_PID to that PID and adds both to $PIDS.
start_host() {
	out=$1
	shift
	"$@" >"$out" 2>&1 &
	PIDS="${PIDS:-} $!"
	i=0
	until have_ready "$out"; do
		i=$((i + 1))
		[ $i -lt 100 ] || fail "$1 did not start: $(cat "$out")"
		sleep 0.1
	done
	HOST_PID=$(sed -n 's/^ready \([0-9]*\) .*/\1/p' "$out")
	PIDS="$PIDS $HOST_PID"
}

# add_headers SRC DST SECTION N [MODE]: SRC (ELF64, little-endian) with N
# more section headers copying SECTION's: over the same bytes (same, the
# default), each starting 4 bytes further in (shift), or each one byte
# longer than the last (grow). Sections that alias, as a hostile file has.
add_headers() {
	python3 - "$@" <<'PY' || fail "cannot write $2"
import struct, sys
src, dst, sec, n = sys.argv[1], sys.argv[2], sys.argv[3].encode(), int(sys.argv[4])
mode = sys.argv[5] if len(sys.argv) > 5 else "same"
d = bytearray(open(src, "rb").read())
shoff, = struct.unpack_from("<Q", d, 0x28)
ent, num, strndx = struct.unpack_from("<3H", d, 0x3a)
hdrs = [bytes(d[shoff + i * ent:shoff + (i + 1) * ent]) for i in range(num)]
stroff, = struct.unpack_from("<Q", hdrs[strndx], 0x18)
def name(h):
    o = stroff + struct.unpack_from("<I", h, 0)[0]
    return bytes(d[o:d.index(b"\0", o)])
h0 = [h for h in hdrs if name(h) == sec][0]
off, size = struct.unpack_from("<QQ", h0, 0x18)
extra = []
for i in range(n):
    h = bytearray(h0)
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
# address space, exit STATUS; its output in $T/out and $T/err.
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

# same_sites WHAT A B: the --json listings A and B hold the same sites,
# whatever the files are called.
same_sites() {
	python3 - "$@" <<'PY' || exit 1
import json, sys
strip = lambda l: [{k: v for k, v in s.items() if k not in ("file", "attach")} for s in l]
if strip(json.load(open(sys.argv[2]))) != strip(json.load(open(sys.argv[3]))):
    raise SystemExit("FAIL: %s: listed otherwise" % sys.argv[1])
PY
}

# wait_exe PID PATH: until process PID runs PATH (a shell's child is the
# shell until it execs), for 10 s at most.
wait_exe() {
	i=0
	until [ "$(readlink "/proc/$1/exe")" = "$2" ]; do
		i=$((i + 1))
		[ $i -lt 100 ] || fail "process $1 did not start $2"
		sleep 0.1
	done
}
