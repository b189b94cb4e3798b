#!/bin/sh
# Real structs at scale: a fixed sample of the running kernel's structs
# (its BTF dumped as C by bpftool) as pointees of one provider's probes,
# built with gcc and with clang (-g), linked with the dtrace-gen -G object
# and stripped. Every probe must have a layout; every field's offset, size
# and bits must equal pahole's reading of the object's DWARF; and the
# program sdt-list --bpftrace prints must compile to BPF (bpftrace
# --emit-elf: nothing attached). struct-corpus.py does the work; run it by
# hand with a count of 0 for every struct.
. "$top_srcdir/tests/lib.sh"
need_layouts
[ -r /sys/kernel/btf/vmlinux ] || skip "no /sys/kernel/btf/vmlinux: the kernel has no BTF to take structs from"
need_cmd bpftool pahole python3 strip
bpftool btf dump file /sys/kernel/btf/vmlinux format c >"$T/vmlinux.h" 2>"$T/bpftool.err" ||
	skip "bpftool cannot dump the kernel's BTF as C: $(head -n 3 "$T/bpftool.err")"
BPFTRACE=
if command -v bpftrace >/dev/null 2>&1; then
	BPFTRACE=$(command -v bpftrace)
else
	note "no bpftrace: the printed programs are not compiled"
fi
BPFTRACE_DRY=$(bpftrace_dry)
export DG SDT_LIST SDT_INCLUDE BPFTRACE BPFTRACE_DRY
# 150 structs spread over the sorted names, in one batch, per
# compiler: well under a minute on two busy cores.
for cc in "$CC" clang; do
	command -v "${cc%% *}" >/dev/null 2>&1 || { note "no $cc"; continue; }
	mkdir -p "$T/$cc" || fail "mkdir"
	python3 "$top_srcdir/tests/e2e/struct-corpus.py" "$T/$cc" "$T/vmlinux.h" \
		150 150 "$cc" >"$T/$cc.log" 2>&1
	rc=$?
	cat "$T/$cc.log"
	[ $rc -eq 0 ] || fail "the struct corpus with $cc: $(tail -n 1 "$T/$cc.log")"
done
echo "PASS: kernel structs as probe arguments: layouts equal pahole's, bpftrace compiles every program"
