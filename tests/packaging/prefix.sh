#!/bin/sh
# ./configure --prefix=/usr on Debian: our sys/sdt.h in /usr/include would
# come after SystemTap's in /usr/include/<multiarch>, and pkg-config drops
# -I/usr/include, so sdtkit.pc would lead builds to SystemTap's header.
# configure must say so and install it in /usr/include/sdtkit instead,
# whose -I pkg-config keeps and the compiler searches first; told to use
# /usr/include anyway, it must warn and say what to do.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/packaging/lib.sh"

need_cmd pkg-config
ma=$($CC -print-multiarch 2>/dev/null)
[ -n "$ma" ] || skip "$CC has no multiarch directory"
$CC -E -Wp,-v -xc /dev/null 2>&1 >/dev/null | grep -q "^ /usr/include/$ma\$" ||
	skip "$CC does not search /usr/include/$ma"

version=$(sed -n 's/^PACKAGE_VERSION = //p' "$top_builddir/Makefile")
SRC=$T/sdtkit-$version
(cd "$top_builddir" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	"${MAKE:-make}" distdir distdir="$SRC") >"$T/distdir.log" 2>&1 ||
	{ tail -n 20 "$T/distdir.log"; fail "make distdir"; }
cd "$SRC" || fail "cd $SRC"

# pkg-config reading only the sdtkit.pc configure wrote here.
pc_cflags() {
	PKG_CONFIG_PATH=$SRC PKG_CONFIG_LIBDIR=$SRC pkg-config --cflags sdtkit | sed "s/ *$//"
}

./configure -C --prefix=/usr CC="$CC" >"$T/conf1.log" 2>&1 ||
	{ tail -n 20 "$T/conf1.log"; fail "configure --prefix=/usr"; }
grep -q "WARNING: /usr/include/sys/sdt.h would lose to /usr/include/$ma/sys/sdt.h" \
	"$T/conf1.log" || { cat "$T/conf1.log"; fail "configure --prefix=/usr said nothing"; }
expect_eq "sdtkit.pc Cflags with --prefix=/usr" -I/usr/include/sdtkit "$(pc_cflags)"
grep -qx 'sdtincludedir = ${includedir}/sdtkit' Makefile ||
	fail "the header is not installed in /usr/include/sdtkit"

# shellcheck disable=SC2016 # configure expands it
./configure -C --prefix=/usr --with-sdt-includedir='${includedir}' CC="$CC" \
	>"$T/conf2.log" 2>&1 || { tail -n 20 "$T/conf2.log"; fail "configure, told /usr/include"; }
grep -q "WARNING: the compiler searches /usr/include/$ma/sys/sdt.h.* before /usr/include" \
	"$T/conf2.log" || { cat "$T/conf2.log"; fail "no warning for --with-sdt-includedir=/usr/include"; }
grep -q "with-sdt-includedir='\${includedir}/sdtkit'" "$T/conf2.log" ||
	fail "the warning does not say what to do"
expect_eq "sdtkit.pc Cflags, told /usr/include (pkg-config drops it)" "" "$(pc_cflags)"
exit 0
