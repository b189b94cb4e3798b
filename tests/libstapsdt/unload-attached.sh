# Unloading (and reloading) a provider while bpftrace is attached to its
# probes does not crash the process, and hits keep coming while loaded.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libstapsdt/lib.sh"
need_bpftrace
export TMPDIR=$T

for mode in memfd file; do
	# Cycling starts once bpftrace is attached to a2.
	if [ $mode = file ]; then start_host --file --cycle 150 --when-traced
	else start_host --cycle 150 --when-traced; fi
	out=$(bpftrace_run -p "$HOST_PID" -e "$(bt_script "$HOST_OBJ" 'usdt:*:sdttest:a2 { @hits = count(); } usdt:*:sdttest:a12 { @wide = count(); } interval:ms:1200 { exit(); }')") ||
		fail "$mode: bpftrace failed: $out"
	host_alive
	cycles=$(grep -c '^unloaded' "$T/host.out")
	[ "$cycles" -ge 3 ] || fail "$mode: only $cycles unloads during the trace"
	hits=$(echo "$out" | sed -n 's/^@hits: //p')
	[ "${hits:-0}" -gt 0 ] || fail "$mode: no hits before the first unload: $out"
	note "$mode: $cycles unload/reload cycles under bpftrace, $hits hits, alive"
	stop_host
done
left=$(find "$T" -name 'libstapsdt-*')
expect_eq "files left behind" "" "$left"
