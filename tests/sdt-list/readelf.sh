#!/bin/sh
# sdt-list lists exactly what `readelf -n' shows: the same probes in the
# same order, with the same addresses, base, semaphore and argument specs,
# for executables (PIE and not) and shared objects built with SystemTap's
# <sys/sdt.h> and with ours, and for cross-built objects; the -v listing
# shows every site.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_cmd readelf

compare() {
	compare_readelf "$1"
	# The text listing shows each site once, at the note's address.
	"$SDT_LIST" -v "$1" >"$T/list.txt" || fail "sdt-list -v $1 failed"
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
grep -q 'arg0 int v: signed 4 bytes in register' "$T/list.txt" ||
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
