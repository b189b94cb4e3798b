# A Python ctypes program (ctypes-host.py) using the library as Python
# bindings do (structures read directly, a provider and probe named with
# '-', one named 9.lives, double load, unload and reload), traced with
# bpftrace: its probeIsEnabled() sees the tracer and the arguments arrive.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libstapsdt/lib.sh"
need_cmd python3
need_bpftrace
LIB=$top_builddir/libstapsdt/.libs/libstapsdt.so.0
[ -e "$LIB" ] || fail "$LIB is not built"

start_ready python3 "$top_srcdir/tests/libstapsdt/ctypes-host.py" "$LIB"
note "$(grep refused "$T/host.out")"
out=$(bpftrace_run -p "$HOST_PID" -e "$(bt_script "$(memfd_obj "$HOST_PID")" '
usdt:*:py-app:probe-1 { printf("hit %d %s\n", arg0, str(arg1)); }
usdt:*:py-app:9.lives { @odd = count(); }
interval:ms:1500 { exit(); }')")
note "$(echo "$out" | grep '^hit' | head -n 2)"
expect_hits "$out" hit py
echo "$out" | grep -q '^@odd: [1-9]' || fail "probe 9.lives never fired: $out"
