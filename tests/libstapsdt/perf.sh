# perf's SDT workflow on a dynamic provider (file placement, the one for
# tracers that need a path): `perf buildid-cache --add' takes the object
# (it needs the build ID we write), `perf probe' makes events of its notes,
# and `perf record' reads back every argument: signed and unsigned
# extremes, and all 12 of a 12-argument probe, 7..12 from the stack.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libstapsdt/lib.sh"
need_root
need_tracefs
need_cmd perf
prov=lsdtperf$$
bid=$T/buildid
start_host --file --provider "$prov"
perf --buildid-dir "$bid" buildid-cache --add "$HOST_OBJ" >"$T/perf.log" 2>&1 ||
	fail "perf buildid-cache --add $HOST_OBJ: $(cat "$T/perf.log")"
cleanup_perf() {
	perf --buildid-dir "$bid" probe -q -d "sdt_$prov:*" 2>/dev/null
	[ -n "$HOST_PID" ] && kill "$HOST_PID" 2>/dev/null
	rm -rf "$T"
}
trap cleanup_perf EXIT
for p in s6 u6 a12; do
	perf --buildid-dir "$bid" probe -q -a "sdt_$prov:$p" >"$T/perf.log" 2>&1 ||
		fail "perf probe sdt_$prov:$p: $(cat "$T/perf.log")"
done
# Short recordings until one holds a hit of each probe: a loaded machine
# may not run the host within any one window.
i=0
while :; do
	timeout 60 perf record -q -e "sdt_$prov:*" -p "$HOST_PID" -o "$T/perf.data" -- sleep 0.5 \
		>"$T/perf.log" 2>&1 || fail "perf record: $(cat "$T/perf.log")"
	perf script -i "$T/perf.data" 2>/dev/null | sed -n "s/.* sdt_$prov:\([a-z0-9]*\): ([0-9a-f]*) /\1 /p" |
		sort -u >"$T/seen"
	[ "$(cut -d' ' -f1 "$T/seen" | sort -u | wc -l)" -ge 3 ] && break
	i=$((i + 1))
	[ $i -lt 60 ] || break
done
expect_eq "s6 under perf" "s6 arg1=-2147483648 arg2=-9223372036854775808 arg3=127 arg4=32767 arg5=2147483647 arg6=9223372036854775807" \
	"$(grep '^s6 ' "$T/seen")"
expect_eq "u6 under perf" "u6 arg1=255 arg2=65535 arg3=4294967295 arg4=18446744073709551615 arg5=128 arg6=32768" \
	"$(grep '^u6 ' "$T/seen")"
expect_eq "a12 under perf" "a12 arg1=12001 arg2=12002 arg3=12003 arg4=12004 arg5=12005 arg6=12006 arg7=12007 arg8=12008 arg9=12009 arg10=12010 arg11=12011 arg12=12012" \
	"$(grep '^a12 ' "$T/seen")"
host_alive
note "perf read s6, u6 and a12 of $HOST_OBJ exactly"
