#!/bin/sh
# samples/cmake built against a staged `make install' through
# find_package(sdtkit) (CMAKE_PREFIX_PATH into the stage, nothing on PATH),
# with Ninja and with Makefiles, in parallel, its library shared and static:
# sdtkit_add_provider() must run the staged dtrace-gen for -h and -G (not
# SystemTap's dtrace on PATH), the program must be compiled against our
# <sys/sdt.h>, program and library must carry semaphores, editing the .d
# file must remake the header and relink, and bpftrace must read the
# probes of both. Also find_package(libstapsdt) and the version checks.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/packaging/lib.sh"

need_cmd cmake
stage_install
note_systemtap
for f in sdtkit/sdtkit-config.cmake sdtkit/sdtkit-config-version.cmake \
	sdtkit/sdtkit-provider.cmake libstapsdt/libstapsdt-config.cmake; do
	[ -n "$(find "$STAGE" -path "*/cmake/$f")" ] ||
		fail "cmake/$f is not installed"
done

# build DIR GENERATOR SHARED: configure and build the sample, verbosely,
# libgreet shared (ON) or static (OFF).
build() {
	cmake -S "$top_srcdir/samples/cmake" -B "$1" -G "$2" \
		-DCMAKE_C_COMPILER="${CC%% *}" -DBUILD_SHARED_LIBS="$3" \
		-DCMAKE_PREFIX_PATH="$STAGE_PREFIX" --log-level=VERBOSE >"$1.log" 2>&1 ||
		{ cat "$1.log"; fail "cmake -G '$2' on the sample"; }
	cmake --build "$1" --parallel 2 --verbose >>"$1.log" 2>&1 ||
		{ cat "$1.log"; fail "building the sample with $2"; }
	expect_our_dtrace "$1.log" "$2"
	# CHECK: `make test' runs sdt-list --against over each provider file.
	(cd "$1" && ctest --output-on-failure) >"$1.test" 2>&1 ||
		{ cat "$1.test"; fail "$2: the sample's probe checks failed"; }
	grep -q 'sdtkit_probes_cmake_sample_app' "$1.test" ||
		{ cat "$1.test"; fail "$2: CHECK added no test for app.d"; }
	"$1/cmake-sample" 1 >"$1.run" 2>&1 || { cat "$1.run"; fail "$2: the sample failed"; }
	expect_header_used "$1" "$STAGE_SDT_H" "$2"
	if [ "$3" = ON ]; then
		expect_semaphores "$1/cmake-sample" app:item app:done
		expect_semaphores "$1/libgreet.so" greet:hello
	else
		expect_semaphores "$1/cmake-sample" app:item app:done greet:hello
	fi
	note "$2, libgreet shared=$3: built with the staged dtrace-gen and header"
}

B=$T/make
build "$B" "Unix Makefiles" ON
if command -v ninja >/dev/null 2>&1; then
	build "$T/static" Ninja OFF
	B=$T/ninja
	build "$B" Ninja ON
else
	build "$T/static" "Unix Makefiles" OFF
	note "ninja is not installed: Makefiles only"
fi

# Editing the provider file remakes the header and relinks; here it also
# needs PREPROCESS: a probe whose arguments only the preprocessor can
# spell, which must run the project's compiler.
copy_sample cmake "$T/src"
if ! { cmake -S "$T/src" -B "$T/inc" -DCMAKE_PREFIX_PATH="$STAGE_PREFIX" \
	-DCMAKE_C_COMPILER="${CC%% *}" && cmake --build "$T/inc"; } >"$T/inc.log" 2>&1; then
	cat "$T/inc.log"
	fail "build a copy of the sample"
fi
{ echo '#define EXTRA_ARGS int x, long y'; sed \
	's/probe done(long count);/probe done(long count);\n\tprobe extra(EXTRA_ARGS);/' \
	"$T/src/app.d"; } >"$T/app.d" && mv "$T/app.d" "$T/src/app.d"
sed 's/sdtkit_add_provider(cmake-sample app.d CHECK)/sdtkit_add_provider(cmake-sample app.d CHECK PREPROCESS)/' \
	"$T/src/CMakeLists.txt" >"$T/cm.txt" && mv "$T/cm.txt" "$T/src/CMakeLists.txt"
grep -q 'app.d CHECK PREPROCESS' "$T/src/CMakeLists.txt" || fail "edit the sample's CMakeLists.txt"
cmake --build "$T/inc" --verbose >"$T/inc2.log" 2>&1 || { cat "$T/inc2.log"; fail "rebuild"; }
grep -q 'APP_EXTRA(arg1, arg2)' "$T/inc/sdtkit/cmake-sample/app.h" ||
	fail "app.h was not remade (through the preprocessor) after app.d changed"
grep -q '"CPP=[^"]* -E" .*dtrace-gen -C ' "$T/inc2.log" ||
	{ cat "$T/inc2.log"; fail "PREPROCESS did not run the project's compiler"; }
readelf -sW "$T/inc/cmake-sample" | grep -q app_extra_semaphore ||
	fail "the program was not relinked with the new -G object"

# find_package(libstapsdt), and a version this one cannot satisfy.
mkdir "$T/lib"
cat >"$T/lib/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.15)
project(uses_libstapsdt C)
find_package(libstapsdt 0.1 REQUIRED)
add_executable(uses uses.c)
target_link_libraries(uses PRIVATE libstapsdt::libstapsdt)
EOF
cat >"$T/lib/uses.c" <<'EOF'
#include <libstapsdt.h>
#include <stdio.h>
int main(void)
{
	SDTProvider_t *p = providerInit("pkgtest");

	if (!p || !providerAddProbe(p, "hit", 1, int64) || providerLoad(p))
		return 1;
	puts("loaded");
	providerDestroy(p);
	return 0;
}
EOF
if ! { cmake -S "$T/lib" -B "$T/lib/b" -DCMAKE_PREFIX_PATH="$STAGE_PREFIX" \
	-DCMAKE_C_COMPILER="${CC%% *}" && cmake --build "$T/lib/b"; } >"$T/lib.log" 2>&1; then
	cat "$T/lib.log"
	fail "find_package(libstapsdt) and link"
fi
expect_eq "libstapsdt via CMake" loaded "$("$T/lib/b/uses")"
sed -i 's/libstapsdt 0.1 REQUIRED/libstapsdt 0.99 REQUIRED/' "$T/lib/CMakeLists.txt"
cmake -S "$T/lib" -B "$T/lib/b2" -DCMAKE_PREFIX_PATH="$STAGE_PREFIX" \
	>"$T/lib2.log" 2>&1 && fail "find_package(libstapsdt 0.99) accepted $(sdt_h_version)"
grep -q "0.99" "$T/lib2.log" || { cat "$T/lib2.log"; fail "no version message"; }
note "find_package(libstapsdt): linked and loaded; 0.99 refused"

# No version asked, no compiler (so no pointer size to compare, and no
# lib/<multiarch> directory searched: a package build's libdir has one, and
# the package must still be found, from share/cmake), and an unknown
# component, required then optional.
find_pkg() { # ARGS...: configure a project that only calls find_package
	mkdir -p "$T/fp"
	printf 'cmake_minimum_required(VERSION 3.15)\nproject(fp NONE)\nfind_package(%s)\n' \
		"$*" >"$T/fp/CMakeLists.txt"
	rm -rf "$T/fp/b"
	cmake -S "$T/fp" -B "$T/fp/b" -DCMAKE_PREFIX_PATH="$STAGE_PREFIX" >"$T/fp.log" 2>&1
}
find_pkg sdtkit REQUIRED || { cat "$T/fp.log"; fail "find_package(sdtkit) with no version"; }
find_pkg sdtkit 0.1 REQUIRED || { cat "$T/fp.log"; fail "find_package(sdtkit 0.1) with no language"; }
find_pkg libstapsdt REQUIRED || { cat "$T/fp.log"; fail "find_package(libstapsdt) with no language"; }
find_pkg sdtkit REQUIRED COMPONENTS nosuch && fail "a required unknown component was accepted"
grep -q "unknown component .nosuch" "$T/fp.log" || { cat "$T/fp.log"; fail "no message for it"; }
find_pkg sdtkit REQUIRED OPTIONAL_COMPONENTS nosuch ||
	{ cat "$T/fp.log"; fail "an optional unknown component was refused"; }

# The probes, traced in the program and in its shared library.
need_bpftrace
TRACE_KINDS="item hello"
trace_live "usdt:$B/cmake-sample:app:item { printf(\"fired item %d %s\\n\", arg0, str(arg1)); }
	usdt:$B/libgreet.so:greet:hello { printf(\"fired hello %d %s\\n\", arg0, str(arg1)); }" \
	"$B/cmake-sample" 100000 10
exit 0
