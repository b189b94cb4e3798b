#!/bin/sh
# <usdt.h> as installed: `make install' puts it beside sys/sdt.h, so the
# Cflags of sdtkit.pc and CMake's sdtkit::sdt find `#include <usdt.h>',
# and it takes the staged sys/sdt.h next to it (never SystemTap's, on
# the system include path here). samples/usdt/jobs.c is built both ways;
# usdt.h(3) is installed.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/packaging/lib.sh"
. "$top_srcdir/tests/usdt/lib.sh"
stage_install
JOBS_C=$top_srcdir/samples/usdt/jobs.c

# Which usdt.h and sys/sdt.h a compile with CFLAGS read (gcc -H).
headers_of() { # CFLAGS
	# shellcheck disable=SC2086 # CFLAGS are words
	$CC $1 -H -fsyntax-only "$JOBS_C" 2>&1 |
		sed -n 's/^\.* //p' | grep -E '/(usdt|sys/sdt)\.h$' |
		while read -r h; do readlink -f "$h"; done | sort -u
}
want=$(for h in usdt.h sys/sdt.h; do
	readlink -f "$(find "$STAGE" -path "*/$h" | head -n 1)"
done | sort)
[ -n "$want" ] || fail "the stage holds no usdt.h"
cflags=$(stage_pkg_config --cflags sdtkit) || fail "pkg-config --cflags sdtkit"
expect_eq "headers through sdtkit.pc" "$want" "$(headers_of "$cflags")"
# shellcheck disable=SC2086
$CC $cflags -Wall -Wextra -Werror -O2 -o "$T/jobs" "$JOBS_C" ||
	fail "samples/usdt/jobs.c does not build with sdtkit.pc's Cflags"
check_clean "$T/jobs"
note "pkg-config: <usdt.h> is the stage's, with its sys/sdt.h"

[ -f "$(find "$STAGE" -path '*/man3/usdt.h.3' | head -n 1)" ] ||
	fail "usdt.h(3) is not installed"

if command -v cmake >/dev/null 2>&1; then
	mkdir -p "$T/cm"
	cp "$JOBS_C" "$T/cm/"
	cat >"$T/cm/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.15)
project(jobs C)
find_package(sdtkit REQUIRED)
add_executable(jobs jobs.c)
target_link_libraries(jobs PRIVATE sdtkit::sdt)
CM
	cmake -S "$T/cm" -B "$T/cm/build" -DCMAKE_PREFIX_PATH="$STAGE_PREFIX" \
		-DCMAKE_C_COMPILER="$CC" >"$T/cmake.log" 2>&1 ||
		fail "cmake: $(tail -n 10 "$T/cmake.log")"
	cmake --build "$T/cm/build" -- VERBOSE=1 >"$T/build.log" 2>&1 ||
		fail "cmake --build: $(tail -n 10 "$T/build.log")"
	grep -q -- "-I$STAGE_PREFIX/include\|-isystem $STAGE_PREFIX/include" "$T/build.log" ||
		fail "sdtkit::sdt gave no include path into the stage: $(grep -m 1 jobs.c "$T/build.log")"
	check_clean "$T/cm/build/jobs"
	note "CMake: sdtkit::sdt finds <usdt.h>"
else
	note "cmake is not installed: sdtkit::sdt not checked"
fi
echo "PASS: #include <usdt.h> through sdtkit.pc and sdtkit::sdt"
