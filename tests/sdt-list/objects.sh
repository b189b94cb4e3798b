#!/bin/sh
# Relocatable objects (.o) list like `readelf -n' shows them: the note's
# PC and semaphore fields are zeros until linked, and readelf applies the
# object's relocations (RELA on most targets, REL on i386 and arm; clang's
# riscv64 notes even have their sizes as ADD32/SUB32 pairs); so must
# sdt-list. Each site is shown as section+offset (`.text+0x6'), each
# semaphore by its symbol, and every site is in executable code. Built
# with gcc and clang for x86_64, i386 and aarch64 (required), and arm,
# riscv64, ppc64le, ppc64 and s390x where a compiler is installed (with no
# sysroot, clang builds only gated.c, which needs no libc header).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_cmd readelf

# check_object CC...: build probes.c and gated.c as objects and compare.
check_object() {
	for src in probes gated; do
		o=$T/$src.o
		if ! "$@" -O2 -I"$top_srcdir/include" -c \
			"$top_srcdir/tests/sdt-list/$src.c" -o "$o" 2>/dev/null; then
			[ $src = probes ] && [ "$optional" = 1 ] && continue
			fail "$*: cannot build $src.o"
		fi
		compare_readelf "$o"
		python3 - "$T/list.json" "$o" <<'PY' || exit 1
import json, sys
sites = json.load(open(sys.argv[1]))
nonzero = 0
for s in sites:
    pc = int(s["note_pc"], 16)
    nonzero += pc != 0
    # .text+0x6, or .text.hot+0x0 with -freorder-functions
    loc = s["location"]
    assert loc and loc.startswith(".text") and int(loc.split("+", 1)[1], 16) == pc, s
    assert s["section"] == loc.split("+", 1)[0] and s["in_code"] is True, s
    if s["name"] == "gated":
        assert s["semaphore_symbol"] == "probes_gated_semaphore", s
    else:
        assert s["semaphore_symbol"] is None, s
if sys.argv[2].endswith("probes.o") and not nonzero:
    print("FAIL: %s: every site at offset 0: relocations not applied" % sys.argv[2])
    sys.exit(1)
PY
		# Text: the same location, and the semaphore's symbol.
		"$SDT_LIST" -v "$o" >"$T/list.txt" || fail "sdt-list -v $o"
		grep -q '^  at \.text[.a-z]*+0x[0-9a-f]*: ' "$T/list.txt" ||
			fail "$o: no section+offset site: $(cat "$T/list.txt")"
		grep -q '^  at 0x0' "$T/list.txt" &&
			fail "$o: a site shown at 0x0: $(cat "$T/list.txt")"
		if [ $src = gated ]; then
			grep -q '^  semaphore: probes_gated_semaphore' "$T/list.txt" ||
				fail "$o: semaphore not named: $(cat "$T/list.txt")"
		fi
		"$SDT_LIST" --check "$o" >"$T/check.txt" 2>&1
		grep -q 'NOT IN CODE' "$T/check.txt" &&
			fail "$o: a site outside code: $(cat "$T/check.txt")"
	done
}

n=0
optional=0
for cc in gcc clang i686-linux-gnu-gcc "clang --target=i686-linux-gnu" \
	aarch64-linux-gnu-gcc "clang --target=aarch64-linux-gnu"; do
	command -v ${cc%% *} >/dev/null 2>&1 || { note "${cc%% *} missing"; continue; }
	# shellcheck disable=SC2086
	check_object $cc
	n=$((n + 1))
done
[ $n -ge 3 ] || skip "fewer than three compilers for x86_64, i386 and aarch64"
optional=1
for cc in arm-linux-gnueabihf-gcc "clang --target=arm-linux-gnueabihf" \
	riscv64-linux-gnu-gcc "clang --target=riscv64-linux-gnu" \
	powerpc64le-linux-gnu-gcc "clang --target=powerpc64le-linux-gnu" \
	"clang --target=powerpc64-linux-gnu" \
	s390x-linux-gnu-gcc "clang --target=s390x-linux-gnu"; do
	command -v ${cc%% *} >/dev/null 2>&1 || { note "${cc%% *} missing"; continue; }
	# shellcheck disable=SC2086
	check_object $cc
	n=$((n + 1))
done
note "$n compilers: relocated notes match readelf"
