#!/bin/sh
# Where configure puts <sys/sdt.h>. A -I directory is searched before
# every system directory, so for a prefix the compiler does not search by
# itself (/opt/x, a home directory) the header goes in $prefix/include,
# and -I$prefix/include (what sdtkit.pc says) finds it before SystemTap's,
# without a warning. /usr/local/include is searched before the multiarch
# directory: the same. Only a directory on the compiler's own list after
# one holding another sys/sdt.h loses: ./configure --prefix=/usr on Debian,
# where /usr/include comes after /usr/include/<multiarch> and pkg-config
# drops -I/usr/include. configure must say exactly that and install it in
# /usr/include/sdtkit instead; told to use /usr/include anyway, it must
# warn and say what to do.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/packaging/lib.sh"

need_cmd pkg-config make

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

# conf LOG ARG...: ./configure ARG..., its output in $T/LOG.
conf() {
	_log=$T/$1
	shift
	./configure -C CC="$CC" "$@" >"$_log" 2>&1 ||
		{ tail -n 20 "$_log"; fail "configure $*"; }
}

# Only the headers, installed under DESTDIR (nothing needs building).
install_headers() { # DESTDIR
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" \
		install-sysincludeHEADERS install-sdtincludeHEADERS \
		DESTDIR="$1" >"$T/install.log" 2>&1 ||
		{ tail -n 20 "$T/install.log"; fail "make install of the headers"; }
}

# A prefix the compiler does not search, or searches before SystemTap's
# header: the header lands in PREFIX/include, silently, and -I for it
# (sdtkit.pc's Cflags) gets ours.
for prefix in /opt/x "$T/home/user/.local" /usr/local; do
	conf conf-plain.log --prefix="$prefix"
	if grep -q WARNING "$T/conf-plain.log"; then
		cat "$T/conf-plain.log"
		fail "configure --prefix=$prefix warned"
	fi
	grep -qx 'sdtincludedir = ${includedir}' Makefile ||
		fail "--prefix=$prefix: the header is not installed in $prefix/include"
	case $prefix in
	/usr/local) expect_eq "sdtkit.pc Cflags with --prefix=$prefix" \
		"" "$(pc_cflags | sed "s|^-I$prefix/include\$||")" ;;
	*) expect_eq "sdtkit.pc Cflags with --prefix=$prefix" \
		"-I$prefix/include" "$(pc_cflags)" ;;
	esac
	rm -rf "$T/stage"
	install_headers "$T/stage"
	[ -f "$T/stage$prefix/include/sys/sdt.h" ] ||
		fail "--prefix=$prefix: no $prefix/include/sys/sdt.h installed"
	expect_sdtkit_header "-I$T/stage$prefix/include" \
		"-I$prefix/include after --prefix=$prefix"
done

ma=$($CC -print-multiarch 2>/dev/null)
[ -n "$ma" ] || skip "$CC has no multiarch directory (the other prefixes passed)"
$CC -E -Wp,-v -xc /dev/null 2>&1 >/dev/null | grep -q "^ /usr/include/$ma\$" ||
	skip "$CC does not search /usr/include/$ma (the other prefixes passed)"

conf conf1.log --prefix=/usr
grep -q "WARNING: /usr/include is on the compiler's own search list, after" \
	"$T/conf1.log" || { cat "$T/conf1.log"; fail "configure --prefix=/usr said nothing"; }
# The first directory ahead of /usr/include with a sys/sdt.h: an earlier
# `make install' of ours in /usr/local/include, else SystemTap's.
first=/usr/include/$ma
[ -f /usr/local/include/sys/sdt.h ] && first=/usr/local/include
grep -q "^ *  $first, \(which holds another\|where systemtap-sdt-dev installs its\) sys/sdt.h" \
	"$T/conf1.log" || { cat "$T/conf1.log"; fail "configure --prefix=/usr did not name $first"; }
expect_eq "sdtkit.pc Cflags with --prefix=/usr" -I/usr/include/sdtkit "$(pc_cflags)"
grep -qx 'sdtincludedir = ${includedir}/sdtkit' Makefile ||
	fail "the header is not installed in /usr/include/sdtkit"
rm -rf "$T/stage"
install_headers "$T/stage"
expect_sdtkit_header "-I$T/stage/usr/include/sdtkit" "--prefix=/usr, its sdtkit.pc's -I"

# shellcheck disable=SC2016 # configure expands it
conf conf2.log --prefix=/usr --with-sdt-includedir='${includedir}'
grep -q "WARNING: /usr/include is on the compiler's own search list, after" \
	"$T/conf2.log" || { cat "$T/conf2.log"; fail "no warning for --with-sdt-includedir=/usr/include"; }
grep -q "with-sdt-includedir='\${includedir}/sdtkit'" "$T/conf2.log" ||
	fail "the warning does not say what to do"
expect_eq "sdtkit.pc Cflags, told /usr/include (pkg-config drops it)" "" "$(pc_cflags)"
exit 0
