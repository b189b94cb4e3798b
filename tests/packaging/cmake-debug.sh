#!/bin/sh
# sdtkit_add_provider() gives the probes their struct layouts in every
# build type: where the project's flags have no -g (no build type, the
# default; Release; a multi-config generator's Release), the target's
# objects get -g, so dtrace -G writes the layout of the struct a probe
# passes, and a stripped program still shows its fields (sdt-list -v) and
# bpftrace prints them from sdt-list's program. A Debug build keeps its
# one -g, and a project that asks for -g0 gets no -g: dtrace -G warns, as
# docs/packaging.md says.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/packaging/lib.sh"

need_cmd cmake strip
stage_install
SL=$STAGE_PREFIX/bin/sdt-list

P=$T/shop
mkdir -p "$P"
cat >"$P/shop.d" <<'D'
provider shop {
	probe order(struct order *o, int n);
};
D
cat >"$P/main.c" <<'C'
#include <stdio.h>
#include "shop.h"

struct order {
	int id;
	long total;
};

int main(int argc, char **argv)
{
	struct order o = { argc + 6, 4200 };

	(void)argv;
	SHOP_ORDER(&o, 1);
	printf("ready\n");
	return 0;
}
C
cat >"$P/CMakeLists.txt" <<'M'
cmake_minimum_required(VERSION 3.15)
project(shop C)
find_package(sdtkit REQUIRED)
add_executable(shop main.c)
sdtkit_add_provider(shop shop.d)
M

# build NAME GENERATOR [CMAKE-ARGS...]: configure and build the project
# in $T/NAME, verbosely (log in $T/NAME.log), and strip the program.
build() {
	b=$T/$1 gen=$2
	shift 2
	cmake -S "$P" -B "$b" -G "$gen" -DCMAKE_C_COMPILER="${CC%% *}" \
		-DCMAKE_PREFIX_PATH="$STAGE_PREFIX" "$@" >"$b.log" 2>&1 ||
		{ cat "$b.log"; fail "cmake -G '$gen' $*"; }
	cmake --build "$b" --verbose --config Release >>"$b.log" 2>&1 ||
		{ cat "$b.log"; fail "building with $gen $*"; }
	exe=$(find "$b" -name shop -type f -perm -u+x | head -n 1)
	[ -n "$exe" ] || fail "$gen $*: no program built"
	strip "$exe" || fail "strip $exe"
	# The compile lines of main.c, for the -g checks.
	grep -e '-c [^ ]*main\.c' "$b.log" >"$b.cc" ||
		{ cat "$b.log"; fail "$gen $*: no compile line of main.c in the log"; }
}

# expect_layout WHAT: the stripped program shows struct order's fields,
# and -G did not warn.
expect_layout() {
	"$SL" -v "$exe" >"$T/v" 2>&1 || { cat "$T/v"; fail "$1: sdt-list -v"; }
	grep -q 'long int total' "$T/v" ||
		{ cat "$b.log" "$T/v"; fail "$1: the stripped program has no layout of struct order"; }
	if grep -q 'no layout of it is written' "$b.log"; then
		cat "$b.log"
		fail "$1: dtrace -G warned that it wrote no layout"
	fi
	note "$1: struct order's layout is in the stripped program"
}

build none "Unix Makefiles"
grep -q -e ' -g ' "$T/none.cc" || { cat "$T/none.cc"; fail "no build type: main.c compiled without -g"; }
expect_layout "no build type"

# The real reader: bpftrace runs the program sdt-list prints for the
# stripped binary, which reads the field through the layout.
if [ "$(id -u)" = 0 ] && command -v bpftrace >/dev/null 2>&1; then
	[ -e "$TRACEFS/uprobe_events" ] || mount -t tracefs nodev "$TRACEFS" 2>/dev/null
	"$SL" --bpftrace "$exe" >"$T/t.bt" || fail "sdt-list --bpftrace"
	out=$(bpftrace_run "$T/t.bt" -c "$exe")
	case "$out" in
	*total*4200*) note "bpftrace printed o->total from the layout" ;;
	*'Failed to load'* | *'Permission denied'* | *'cannot load'*)
		note "bpftrace cannot load programs here: fields not traced" ;;
	*)
		cat "$T/t.bt"
		fail "bpftrace did not print o->total = 4200: $out"
		;;
	esac
else
	note "not root or no bpftrace: fields not traced"
fi

build release "Unix Makefiles" -DCMAKE_BUILD_TYPE=Release
grep -q -e ' -O3 .* -g ' "$T/release.cc" || { cat "$T/release.cc"; fail "Release: main.c compiled without -g"; }
expect_layout Release

build debug "Unix Makefiles" -DCMAKE_BUILD_TYPE=Debug
[ "$(grep -o -e ' -g ' "$T/debug.cc" | wc -l)" = 1 ] ||
	{ cat "$T/debug.cc"; fail "Debug: main.c should be compiled with its one -g"; }
expect_layout Debug

build nodebug "Unix Makefiles" -DCMAKE_C_FLAGS=-g0
if grep -q -e ' -g ' "$T/nodebug.cc"; then
	cat "$T/nodebug.cc"
	fail "-g0: sdtkit_add_provider added -g to a project that asked for none"
fi
grep -q 'no layout of it is written.*build them with -g' "$T/nodebug.log" ||
	{ cat "$T/nodebug.log"; fail "-g0: dtrace -G did not warn about the missing layout"; }
note "-g0: kept, and dtrace -G warns"

if command -v ninja >/dev/null 2>&1 &&
	cmake --help 2>/dev/null | grep -q 'Ninja Multi-Config'; then
	build multi "Ninja Multi-Config"
	expect_layout "Ninja Multi-Config, Release"
else
	note "no ninja or no Ninja Multi-Config generator: multi-config not checked"
fi
