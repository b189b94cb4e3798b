# A program written against the public libstapsdt API (compat.c) builds
# against our header as C (several standards) and C++, links with our
# library and runs; <errno.h> before the header works (compat-errno.c).
. "$top_srcdir/tests/lib.sh"
D=$top_srcdir/tests/libstapsdt
LIBDIR=$top_builddir/libstapsdt/.libs
[ -e "$LIBDIR/libstapsdt.so" ] || fail "$LIBDIR/libstapsdt.so is not built"
INC="-I$top_srcdir/libstapsdt"
LINK="-L$LIBDIR -lstapsdt -Wl,-rpath,$LIBDIR"
export TMPDIR=$T

build() { # OUT COMPILER FLAGS... SOURCE
	out=$1; shift
	"$@" $INC -o "$T/$out" $LINK >"$T/$out.log" 2>&1 ||
		fail "$out: $* does not build: $(cat "$T/$out.log")"
	[ ! -s "$T/$out.log" ] || fail "$out: warnings: $(cat "$T/$out.log")"
}

build c11 $CC -std=c11 -Wall -Wextra "$D/compat.c"
build gnu89 $CC -std=gnu89 -Wall -Wextra -Wno-long-long "$D/compat.c"
build c99p $CC -std=c99 -pedantic -Wall -Wextra "$D/compat.c"
build cxx $CXX -x c++ -std=c++11 -Wall -Wextra "$D/compat.c"
build cxx98 $CXX -x c++ -std=c++98 -Wall -Wextra -Wno-long-long "$D/compat.c"
build errno $CC -Wall -Wextra "$D/compat-errno.c"
build errnocxx $CXX -x c++ -Wall -Wextra "$D/compat-errno.c"
for p in c11 gnu89 c99p cxx cxx98 errno errnocxx; do
	"$T/$p" || fail "$p: run failed"
done
# The header alone is clean in the strictest modes, with its inline
# probeIsEnabled() and without it.
printf '#include <libstapsdt.h>\nint f(SDTProbe_t *p) { return probeIsEnabled(p) + (probeIsEnabled)(p); }\n' >"$T/h.c"
for flags in "$CC -std=c89" "$CC -std=c89 -DLIBSTAPSDT_NO_INLINE" "$CC -std=c2x" \
	"$CXX -x c++ -std=c++98" "$CXX -x c++ -std=c++20"; do
	$flags -pedantic -Wall -Wextra -Werror $INC -fsyntax-only "$T/h.c" >"$T/h.log" 2>&1 ||
		fail "libstapsdt.h with $flags -pedantic: $(cat "$T/h.log")"
done
# Nothing of ours besides the public API is exported.
syms=$(nm -D --defined-only "$LIBDIR/libstapsdt.so.0" | awk '{print $3}' | sort | tr '\n' ' ')
expect_eq "exported symbols" "probeArgType probeFire probeIsEnabled probeSemaphore probeSetArgInfo providerAddProbe providerAddProbeArgs providerDestroy providerErrno providerExtend providerInit providerLoad providerUnload providerUseMemfd " "$syms"
# Nothing left behind in TMPDIR by the file-mode run.
left=$(find "$T" -name 'libstapsdt-*')
expect_eq "files left behind" "" "$left"
