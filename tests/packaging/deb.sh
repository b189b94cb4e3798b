#!/bin/sh
# The Debian packages (debian/): `dpkg-buildpackage -b -us -uc' on this
# tree's distribution files (`make distdir', so it works from any build
# tree, git checkout or not) must build the five binary packages, lintian
# must find no error, sdtkit's packages must leave `dtrace' and
# <sys/sdt.h> to systemtap-sdt-dev while sdtkit-sdt-dev takes them over
# (Conflicts/Replaces/Provides), and the installed layout must work: its
# sdtkit.pc and CMake package lead a build to our header (not SystemTap's,
# which the compiler finds first by default) and to dtrace-gen.
# The package build skips its own test suite (nocheck: the whole suite
# takes about 10 minutes), then its check step (dh_auto_test, with the
# package's build flags in the environment and its configuration: /usr,
# the multiarch libdir, the header in /usr/include/sdtkit) runs the tests
# that depend on them: what the environment's CFLAGS reach, and how other
# builds find the installed layout. About three minutes in all.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/packaging/lib.sh"

[ -z "${DEB_HOST_ARCH:-}" ] || skip "running inside a Debian package build"
need_cmd dpkg-buildpackage dh dpkg-deb lintian pkg-config
command -v dh_autoreconf >/dev/null 2>&1 || skip "dh-autoreconf is not installed"
dpkg-checkbuilddeps "$top_srcdir/debian/control" >"$T/deps.log" 2>&1 ||
	skip "build dependencies missing: $(cat "$T/deps.log")"

version=$(sed -n 's/^PACKAGE_VERSION = //p' "$top_builddir/Makefile")
SRC=$T/src/sdtkit-$version
mkdir "$T/src"
(cd "$top_builddir" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	"${MAKE:-make}" distdir distdir="$SRC") >"$T/distdir.log" 2>&1 ||
	{ tail -n 20 "$T/distdir.log"; fail "make distdir"; }

(cd "$SRC" && DEB_BUILD_OPTIONS="nocheck parallel=2" \
	timeout 900 dpkg-buildpackage -b -us -uc) >"$T/build.log" 2>&1 ||
	{ tail -n 40 "$T/build.log"; fail "dpkg-buildpackage -b -us -uc"; }
changes=$(ls "$T"/src/sdtkit_*.changes)

# The package's check step, on the tests its flags and layout can break.
PKG_TESTS="tests/dtrace-gen/compat.sh tests/packaging/cmake.sh
	tests/packaging/cmake-names.sh tests/packaging/autotools.sh
	tests/packaging/meson.sh tests/docs/man-links.sh tests/docs/examples.sh"
# shellcheck disable=SC2086 # one word per test for make
(cd "$SRC" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL DEB_BUILD_OPTIONS=parallel=2 \
	timeout 900 dh_auto_test -- TESTS="$(echo $PKG_TESTS)") >"$T/check.log" 2>&1 ||
	{ grep -h -B2 -A30 '^FAIL' "$T/check.log" "$SRC"/tests/*/*.log | head -n 80
	  fail "the package's check step (dh_auto_test) on: $(echo $PKG_TESTS)"; }
note "dh_auto_test: $(grep -c '^PASS' "$T/check.log") passed, $(grep -c '^SKIP' "$T/check.log") skipped" \
	"with CFLAGS='$(cd "$SRC" && dpkg-buildflags --get CFLAGS)'"
deb() { ls "$T"/src/"$1"_*.deb; }
for p in sdtkit sdtkit-dev libstapsdt0 libstapsdt-dev sdtkit-sdt-dev; do
	[ -f "$(deb $p)" ] || fail "no $p package was built"
done
built=
for d in "$T"/src/*.deb; do
	case "$d" in *-dbgsym_*) ;; *) built="$built ${d##*/}" ;; esac
done
note "built:$built"

lintian --fail-on error "$changes" >"$T/lintian.log" 2>&1 ||
	{ cat "$T/lintian.log"; fail "lintian found errors"; }
sed 's/^/# lintian: /' "$T/lintian.log"

# Who owns which name: sdtkit's own packages neither `dtrace' nor
# sys/sdt.h outside /usr/include/sdtkit; sdtkit-sdt-dev both, as links.
contents() { dpkg-deb -c "$(deb "$1")" | awk '{ print $6 $7 $8 }'; }
for p in sdtkit sdtkit-dev libstapsdt0 libstapsdt-dev; do
	bad=$(contents $p | grep -E '^\./usr/bin/dtrace$|^\./usr/include/(.*-linux-gnu/)?sys/')
	[ -z "$bad" ] || fail "$p installs a name systemtap-sdt-dev owns: $bad"
done
for f in include/sdtkit/sys/sdt.h share/man/man3/sdt.h.3.gz; do
	contents sdtkit-dev | grep -qx "./usr/$f" || fail "sdtkit-dev has no /usr/$f"
done
expect_eq "sdtkit-sdt-dev's links" "./usr/bin/dtrace->dtrace-gen
./usr/include/sys/sdt-config.h->../sdtkit/sys/sdt-config.h
./usr/include/sys/sdt.h->../sdtkit/sys/sdt.h
./usr/share/man/man1/dtrace.1.gz->dtrace-gen.1.gz" \
	"$(contents sdtkit-sdt-dev | grep -- '->' | sort)"
for f in Conflicts Replaces Provides; do
	expect_eq "sdtkit-sdt-dev $f" systemtap-sdt-dev \
		"$(dpkg-deb -f "$(deb sdtkit-sdt-dev)" $f)"
done

# The layout as installed, unpacked into a root: pkg-config and CMake find
# our header and generator there.
R=$T/root
for p in sdtkit sdtkit-dev libstapsdt0 libstapsdt-dev; do
	dpkg-deb -x "$(deb $p)" "$R" || fail "unpack $p"
done
pc=$(find "$R" -name sdtkit.pc)
[ -n "$pc" ] || fail "no sdtkit.pc in sdtkit-dev"
rpc() {
	PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_LIBDIR=$(dirname "$pc") \
		PKG_CONFIG_SYSROOT_DIR=$R pkg-config "$@"
}
expect_eq "sdtkit.pc dtrace" "$R/usr/bin/dtrace-gen" "$(rpc --variable=dtrace sdtkit)"
[ -x "$R/usr/bin/dtrace-gen" ] || fail "no dtrace-gen in sdtkit"
expect_sdtkit_header "$(rpc --cflags sdtkit)" "the packages' sdtkit.pc"
if command -v cmake >/dev/null 2>&1; then
	if ! { cmake -S "$top_srcdir/samples/cmake" -B "$T/cm" \
		-DCMAKE_PREFIX_PATH="$R/usr" -DCMAKE_C_COMPILER="${CC%% *}" &&
		cmake --build "$T/cm" --verbose; } >"$T/cm.log" 2>&1; then
		cat "$T/cm.log"
		fail "samples/cmake against the packages"
	fi
	grep -q "$R/usr/bin/dtrace-gen.* -G " "$T/cm.log" ||
		fail "the packages' CMake package did not run their dtrace-gen"
	expect_header_used "$T/cm" "$R/usr/include/sdtkit/sys/sdt.h" \
		"samples/cmake against the packages"
	"$T/cm/cmake-sample" 1 >/dev/null || fail "samples/cmake against the packages failed"
	note "samples/cmake builds against the packages' layout"
	# No language: CMake does not search lib/<multiarch>.
	mkdir "$T/none"
	printf '%s\n' 'cmake_minimum_required(VERSION 3.15)' 'project(none NONE)' \
		'find_package(sdtkit 0.1 REQUIRED)' 'find_package(libstapsdt 0.1 REQUIRED)' \
		>"$T/none/CMakeLists.txt"
	cmake -S "$T/none" -B "$T/none/b" -DCMAKE_PREFIX_PATH="$R/usr" >"$T/none.log" 2>&1 ||
		{ cat "$T/none.log"; fail "find_package in project(x NONE) against the packages"; }
fi
exit 0
