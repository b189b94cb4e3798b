#!/bin/sh
# samples/meson built against a staged `make install' through pkg-config
# (sdtkit.pc read from the stage, its paths moved by the sysroot): the
# staged dtrace-gen from sdtkit.pc's `dtrace' variable must make the header
# and the object in one step (-h -G; SystemTap's dtrace on PATH cannot),
# the program must be built with our
# <sys/sdt.h> and carry semaphores, and bpftrace must read its probes.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/packaging/lib.sh"

need_cmd meson ninja
stage_install
note_systemtap

expect_eq "sdtkit.pc dtrace variable" "$STAGE_DG" \
	"$(stage_pkg_config --variable=dtrace sdtkit)"

B=$T/build
PKG_CONFIG_PATH=$STAGE_PC PKG_CONFIG_LIBDIR=$STAGE_PC \
	PKG_CONFIG_SYSROOT_DIR=$STAGE CC="$CC" \
	meson setup "$B" "$top_srcdir/samples/meson" >"$T/setup.log" 2>&1 ||
	{ cat "$T/setup.log"; fail "meson setup on the sample"; }
ninja -C "$B" -j 2 -v >"$T/build.log" 2>&1 ||
	{ cat "$T/build.log"; fail "ninja on the sample"; }
expect_our_dtrace "$T/build.log" meson
"$B/sdt-worker" 1 >"$T/first.run" 2>&1 || fail "the sample failed"
expect_header_used "$B" "$STAGE_SDT_H" meson
expect_semaphores "$B/sdt-worker" worker:job worker:progress
note "meson: built with the staged dtrace-gen and header"
meson test -C "$B" >"$T/test.log" 2>&1 ||
	{ cat "$T/test.log" "$B/meson-logs/testlog.txt"; fail "meson test (sdt-list --against) on the sample"; }
note "meson test: sdt-list --against probes.d passes"

# A release build (no -g): the one step still gives the program every
# probe with its semaphore, and meson test passes.
PKG_CONFIG_PATH=$STAGE_PC PKG_CONFIG_LIBDIR=$STAGE_PC \
	PKG_CONFIG_SYSROOT_DIR=$STAGE CC="$CC" \
	meson setup --buildtype=release "$T/rel" "$top_srcdir/samples/meson" \
	>"$T/rel.log" 2>&1 && ninja -C "$T/rel" -j 2 -v >>"$T/rel.log" 2>&1 &&
	meson test -C "$T/rel" >>"$T/rel.log" 2>&1 ||
	{ cat "$T/rel.log"; fail "meson --buildtype=release on the sample"; }
expect_semaphores "$T/rel/sdt-worker" worker:job worker:progress
note "meson --buildtype=release: probes and semaphores, meson test passes"

need_bpftrace
TRACE_KINDS=job
trace_live "usdt:$B/sdt-worker:worker:job { printf(\"fired job %d %s\\n\", arg0, str(arg1)); }" \
	"$B/sdt-worker" 100000 10
exit 0
