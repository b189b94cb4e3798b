# aarch64: the object libstapsdt writes for aarch64 (through the core, from
# this host) has the right notes, symbols, segments and stub bytes; and the
# library's loader and fire paths, cross-built, load and fire it under
# qemu-aarch64.
. "$top_srcdir/tests/lib.sh"
S=$top_srcdir
GEN=$top_builddir/tests/libstapsdt/gen-object
OBJ=$T/sdttest-aarch64.so
need_cmd readelf od
"$GEN" aarch64 "$OBJ" >"$T/gen.out" 2>&1 || fail "gen-object aarch64: $(cat "$T/gen.out")"

readelf -hW "$OBJ" | grep -q 'Machine: *AArch64' || fail "not an AArch64 object"
readelf -hW "$OBJ" | grep -q 'Type: *DYN' || fail "not a shared object"
notes=$("$SDT_NOTES" --offsets "$OBJ") || fail "sdt-notes rejects it: $notes"
expect_eq "probes" 14 "$(echo "$notes" | wc -l)"
m12=$(echo "$notes" | grep '^sdttest:m12 ')
expect_eq "m12 args" "args=-1@x0 1@x1 -2@x2 2@x3 -4@x4 4@x5 -8@x6 8@x7 -1@[sp, 0] -2@[sp, 8] -4@[sp, 16] -8@[sp, 24]" "${m12#* sema_off=* }"
a0=$(echo "$notes" | grep '^sdttest:a0 ')
case $a0 in *" args="|*" args=''"|*"args=") ;; *) fail "a0 has arguments: $a0" ;; esac
# Every probe: a FUNC stub and a 2-byte OBJECT semaphore named for it.
syms=$(readelf -W --dyn-syms "$OBJ")
for p in a0 a1 a6 a12 m12; do
	echo "$syms" | grep -Eq " FUNC +GLOBAL +DEFAULT +[0-9]+ $p\$" || fail "no FUNC symbol $p"
	echo "$syms" | grep -Eq " 2 OBJECT +GLOBAL +DEFAULT +[0-9]+ sdttest_${p}_semaphore\$" ||
		fail "no semaphore symbol sdttest_${p}_semaphore"
done
# Segments: page aligned (64 KiB for aarch64), not 2 MiB; text is R E.
segs=$(readelf -lW "$OBJ" | grep ' LOAD ')
echo "$segs" | awk '{ if ($NF != "0x10000") exit 1 }' || fail "LOAD alignment: $segs"
echo "$segs" | grep -q ' R E ' || fail "no executable segment: $segs"
# The stub at every probe's PC is `nop; ret'.
for off in $(echo "$notes" | sed -n 's/.* pc_off=\(0x[0-9a-f]*\).*/\1/p'); do
	bytes=$(od -An -tx1 -j $((off)) -N 8 "$OBJ" | tr -d ' \n')
	expect_eq "stub at $off" "1f2003d5c0035fd6" "$bytes"
done
# Semaphores start at 0, in a writable segment (sdt-notes checked sema=).
note "aarch64 object: $(echo "$segs" | wc -l) LOAD segments, 14 probes, stubs nop;ret"

# Load and fire under qemu-user.
XCC=
for c in aarch64-linux-gnu-gcc "clang --target=aarch64-linux-gnu"; do
	command -v ${c%% *} >/dev/null 2>&1 && { XCC=$c; break; }
done
[ -n "$XCC" ] || skip "no aarch64 cross compiler (the object checks passed)"
can_run_aarch64 || skip "$why_aarch64 (the object checks passed)"
$XCC -std=gnu11 -O2 -Wall -Wextra -pthread -I"$S/include" -I"$S/elfcore" -I"$S/libstapsdt" \
	-o "$T/run" "$S/tests/libstapsdt/aarch64-run.c" "$S/tests/libstapsdt/aarch64-shim.c" \
	"$S/libstapsdt/provider.c" "$S/libstapsdt/arch.c" "$S/libstapsdt/loader.c" \
	"$S/libstapsdt/fire.c" "$S/elfcore/target.c" "$S/elfcore/names.c" \
	"$S/elfcore/typetext.c" -ldl >"$T/xcc.log" 2>&1 ||
	fail "aarch64 build: $(cat "$T/xcc.log")"
layout=$(sed -n 's/^layout stub_addr=\(0x[0-9a-f]*\) stub_stride=\([0-9]*\) sema_addr=\(0x[0-9a-f]*\)$/\1 \2 \3/p' "$T/gen.out")
out=$(LSDT_OBJECT=$OBJ LSDT_LAYOUT=$layout TMPDIR=$T timeout 60 \
	$QEMU_AARCH64 "$T/run" 2>&1) || fail "under qemu-aarch64: $out"
echo "$out" | grep -q 'aarch64: stubs idle' || fail "under qemu-aarch64: $out"
note "$out"
