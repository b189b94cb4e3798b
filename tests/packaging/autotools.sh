#!/bin/sh
# samples/autotools built against a staged `make install', as its README
# says: configure must take the staged dtrace-gen from sdtkit.pc (not
# SystemTap's dtrace, first on PATH here) and our <sys/sdt.h> from its
# Cflags; without sdtkit.pc it must still prefer dtrace-gen on PATH to an
# earlier dtrace. The program must carry semaphores and bpftrace must read
# its probes. Then samples/dynamic as its README says: built against the
# staged libstapsdt it fails to start without an rpath (the loader does not
# know the prefix) and starts with the rpath from pkg-config.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/packaging/lib.sh"

need_cmd autoreconf
stage_install
note_systemtap

copy_sample autotools "$T/src"
cd "$T/src" || fail "cd"
autoreconf -fi >"$T/autoreconf.log" 2>&1 ||
	{ cat "$T/autoreconf.log"; fail "autoreconf -fi in the sample"; }

# No sdtkit.pc: dtrace-gen anywhere on PATH beats an earlier dtrace.
PATH=/usr/bin:/bin:$STAGE_PREFIX/bin PKG_CONFIG_LIBDIR=$T/none \
	./configure CC="$CC" >"$T/configure0.log" 2>&1 ||
	{ cat "$T/configure0.log"; fail "configure the sample without sdtkit.pc"; }
grep -q "^DTRACE = $STAGE_DG\$" Makefile ||
	{ grep '^DTRACE' Makefile; fail "without sdtkit.pc, configure did not prefer dtrace-gen"; }
make distclean >/dev/null 2>&1

PKG_CONFIG_PATH=$STAGE_PC PKG_CONFIG_LIBDIR=$STAGE_PC \
	PKG_CONFIG_SYSROOT_DIR=$STAGE ./configure CC="$CC" >"$T/configure.log" 2>&1 ||
	{ cat "$T/configure.log"; fail "configure the sample"; }
grep -q "^DTRACE = $STAGE_DG\$" Makefile ||
	{ cat "$T/configure.log"; fail "configure did not take dtrace-gen from sdtkit.pc"; }
grep -q "<sys/sdt.h> is sdtkit's... yes" "$T/configure.log" ||
	{ cat "$T/configure.log"; fail "configure did not find our <sys/sdt.h>"; }
make >"$T/make.log" 2>&1 || { cat "$T/make.log"; fail "make the sample"; }
expect_our_dtrace "$T/make.log" autotools
./sdt-sample 1 >"$T/first.run" 2>&1 || fail "the sample failed"
expect_header_used . "$STAGE_SDT_H" autotools
expect_semaphores ./sdt-sample sample:request__start sample:request__done sample:tick
note "autotools: built with the staged dtrace-gen and header"

# samples/dynamic: without an rpath the loader cannot find the staged
# library, with the README's rpath it can.
JIT=$top_srcdir/samples/dynamic
# shellcheck disable=SC2046 # pkg-config's words are meant to split
$CC -o "$T/jit-bare" "$JIT/jit.c" $(stage_pkg_config --cflags --libs libstapsdt) ||
	fail "build samples/dynamic against the stage"
# (A libstapsdt installed earlier, in the loader's cache, would start it.)
if ldconfig -p 2>/dev/null | grep -q 'libstapsdt\.so\.0 '; then
	note "a libstapsdt.so.0 is in the loader's cache (installed before): the start without an rpath is not checked"
else
	"$T/jit-bare" "$JIT/probes.conf" 0 >"$T/bare.out" 2>&1 &&
		fail "jit started without an rpath (is the stage's libdir in the loader's cache?)"
	grep -q 'libstapsdt.so.0: cannot open shared object file' "$T/bare.out" ||
		{ cat "$T/bare.out"; fail "unexpected failure without an rpath"; }
fi
# shellcheck disable=SC2046
$CC -o "$T/jit" "$JIT/jit.c" $(stage_pkg_config --cflags --libs libstapsdt) \
	-Wl,-rpath,"$(stage_pkg_config --variable=libdir libstapsdt)" ||
	fail "build samples/dynamic with the README's rpath"
"$T/jit" "$JIT/probes.conf" 0 >"$T/jit.out" 2>&1 ||
	{ cat "$T/jit.out"; fail "jit with the rpath did not start"; }
grep -q 'probes of myprov loaded' "$T/jit.out" || { cat "$T/jit.out"; fail "jit output"; }
note "dynamic: fails without an rpath as the README says, runs with it"

need_bpftrace
trace_live "usdt:$T/src/sdt-sample:sample:request__start { printf(\"fired %d %s\\n\", arg0, str(arg1)); }" \
	./sdt-sample 100000
exit 0
