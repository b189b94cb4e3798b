#!/bin/sh
# Argument types given with probeSetArgInfo() reach the tools through the
# live process: in tests/libstapsdt/probe-host, whose probe str is
# described as (const char *msg, int len), sdt-list -p shows that
# signature (the undescribed probes by size and sign, as before), and the
# program sdt-list --bpftrace -p writes, run by bpftrace -p, prints the
# string itself and the numbers as passed. For both placements: memfd
# (the default) and file.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libstapsdt/lib.sh"
SDT_LIST=$top_builddir/sdt-list/sdt-list
[ -x "$SDT_LIST" ] || fail "$SDT_LIST is not built"
[ "$(uname -m)" = x86_64 ] || skip "the expected values are x86_64's"
need_bpftrace
export TMPDIR=$T

for mode in memfd file; do
	prov=sdttyped_$mode
	if [ $mode = file ]; then
		start_host --file --provider $prov
	else
		start_host --provider $prov
	fi
	"$SDT_LIST" -p "$HOST_PID" "$prov:*" >"$T/list" 2>&1 ||
		fail "sdt-list -p ($mode): $(cat "$T/list")"
	grep -q "^$prov:str(const char \*msg, int len)  1 site" "$T/list" ||
		fail "sdt-list -p ($mode) does not show str's types: $(cat "$T/list")"
	grep -q "^$prov:u6(uint8, uint16, uint32, uint64, int8, int16)  1 site" "$T/list" ||
		fail "sdt-list -p ($mode): u6 is not listed by size: $(cat "$T/list")"
	"$SDT_LIST" --bpftrace -p "$HOST_PID" "$prov:str" "$prov:u6" >"$T/typed.bt" ||
		fail "sdt-list --bpftrace -p ($mode) failed"
	bpftrace_until "$T/bt.out" \
		'grep -q "^$prov:str " "$T/bt.out" && grep -q "^$prov:u6 " "$T/bt.out"' \
		-p "$HOST_PID" "$T/typed.bt"
	for want in \
		"$prov:str msg=hello from sdttest len=18" \
		"$prov:u6 arg0=255 arg1=65535 arg2=4294967295 arg3=18446744073709551615 arg4=-128 arg5=-32768"; do
		grep -qx -- "$want" "$T/bt.out" ||
			fail "bpftrace -p ($mode) did not print /$want/: $(sort -u "$T/bt.out" | head)"
	done
	host_alive
	stop_host
	note "$mode: str(const char *msg, int len) listed and traced as a string"
done
