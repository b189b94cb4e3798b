# A Go program (cgo-host.go) built through cgo against our header and
# library, using the API as Go bindings do (fields read directly, names
# with '-', a repeated name, double load, unload and reload), traced with
# bpftrace: arguments arrive, and each repeat of a name fires its own site.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libstapsdt/lib.sh"
need_cmd go
need_bpftrace
LIBDIR=$top_builddir/libstapsdt/.libs
[ -e "$LIBDIR/libstapsdt.so" ] || fail "$LIBDIR/libstapsdt.so is not built"

mkdir "$T/src"
cp "$top_srcdir/tests/libstapsdt/cgo-host.go" "$T/src/main.go"
printf 'module cgohost\n\ngo 1.15\n' >"$T/src/go.mod"
(cd "$T/src" && HOME=$T GOPATH=$T/gopath GOCACHE=$T/gocache GOFLAGS=-mod=mod \
	GOPROXY=off CGO_ENABLED=1 CGO_CFLAGS="-I$top_srcdir/libstapsdt" \
	CGO_LDFLAGS="-L$LIBDIR -Wl,-rpath,$LIBDIR" \
	go build -o "$T/cgo-host" .) >"$T/build.log" 2>&1 ||
	fail "the cgo program does not build against our header: $(cat "$T/build.log")"

start_ready "$T/cgo-host"
note "$(grep refused "$T/host.out")"

out=$(bpftrace_run -p "$HOST_PID" -e "$(bt_script "$(memfd_obj "$HOST_PID")" '
usdt:*:go-demo:tick-1 { printf("tick %d %s\n", arg0, str(arg1)); }
usdt:*:go-demo:dup /arg0 >= 1000 && arg0 < 2000/ { @first = count(); }
usdt:*:go-demo:dup /arg0 >= 2000/ { @second = count(); }
interval:ms:1500 { exit(); }')")
note "$(echo "$out" | grep '^tick' | head -n 2)"
expect_hits "$out" tick msg
echo "$out" | grep -q '^@first: [1-9]' || fail "the first 'dup' site never fired: $out"
echo "$out" | grep -q '^@second: [1-9]' || fail "the second 'dup' site never fired: $out"
exit 0
