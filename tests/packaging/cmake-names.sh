#!/bin/sh
# sdtkit_add_provider() in a project whose directory, provider files and
# compiler path have names a shell or make would read as code: spaces,
# quotes, `$', `#', `$(...)', non-ASCII. With Ninja and with Makefiles the
# sample must build as it does elsewhere, with its semaphores, PREPROCESS
# must run the compiler given (through a path with a space and a quote),
# HEADER must name the header, bpftrace must trace the probes, and nothing
# a name spells may run (no file PWNED appears). CMake itself cannot build
# a C project in a directory with `"', `;' or `|' in its name, nor with
# Makefiles where `#' comes with a quote or a parenthesis, so those are not
# tried.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/packaging/lib.sh"

need_cmd cmake
stage_install
cc=$(command -v "${CC%% *}") || skip "no compiler $CC"

# build NAME GENERATOR: the sample copied into $T/NAME/src, its provider
# files renamed, built in $T/NAME/build; sets B.
build() {
	P=$T/${2%% *}/$1
	B=$P/build
	mkdir -p "$P" || fail "mkdir $P"
	copy_sample cmake "$P/src"
	# The program's provider, preprocessed: a probe only cpp can spell.
	{ echo '#define EXTRA_ARGS int x, long y'; sed \
		's/probe done(long count);/probe done(long count);\n\tprobe extra(EXTRA_ARGS);/' \
		"$P/src/app.d"; } >"$P/src/app \$(touch PWNED) #1.d" && rm "$P/src/app.d"
	# The library's keeps its name-derived header.
	mv "$P/src/greet_probes.d" "$P/src/greet 'probes' \$HOME ü.d"
	sed -i "s/\"greet_probes.h\"/\"greet 'probes' \$HOME ü.h\"/" "$P/src/greet.c"
	sed -i -e "s/greet_probes.d CHECK)/[=[greet 'probes' \$HOME ü.d]=] CHECK)/" \
		-e 's/(cmake-sample app.d CHECK)/(cmake-sample [=[app $(touch PWNED) #1.d]=] PREPROCESS HEADER app.h CHECK)/' \
		"$P/src/CMakeLists.txt"
	grep -q 'PREPROCESS HEADER app.h' "$P/src/CMakeLists.txt" || fail "edit CMakeLists.txt"
	# The compiler through a path with a space and a quote; it notes
	# each preprocessor run.
	mkdir -p "$P/cc 'bin'"
	printf '#!/bin/sh\ncase " $* " in *" -E "*) echo "$*" >>"%s/cpp.log" ;; esac\nexec "%s" "$@"\n' \
		"$T" "$cc" >"$P/cc 'bin'/cc"
	chmod +x "$P/cc 'bin'/cc"
	: >"$T/cpp.log"
	{ cmake -S "$P/src" -B "$B" -G "$2" -DCMAKE_C_COMPILER="$P/cc 'bin'/cc" \
		-DCMAKE_PREFIX_PATH="$STAGE_PREFIX" &&
		cmake --build "$B" --parallel 2 --verbose; } >"$T/build.log" 2>&1 ||
		{ cat "$T/build.log"; fail "$2 in $P"; }
	pwned=$(find "$T" "$PWD" "$HOME" -maxdepth 0 -name PWNED; find "$T" -name PWNED)
	[ -z "$pwned" ] || fail "$2 in $P ran a command from a name: $pwned"
	grep -q 'APP_EXTRA(arg1, arg2)' "$B/sdtkit/cmake-sample/app.h" ||
		fail "$2 in $P: app.h does not hold the preprocessed probe"
	grep -q 'app.*PWNED.*#1\.d' "$T/cpp.log" ||
		{ cat "$T/cpp.log"; fail "$2 in $P: PREPROCESS did not run the given compiler"; }
	[ -f "$B/sdtkit/greet/greet 'probes' \$HOME ü.h" ] ||
		fail "$2 in $P: no header named after the library's provider file"
	"$B/cmake-sample" 1 >"$T/run.log" 2>&1 || { cat "$T/run.log"; fail "$2 in $P: run"; }
	expect_semaphores "$B/cmake-sample" app:item app:done
	readelf -sW "$B/cmake-sample" | grep -q app_extra_semaphore ||
		fail "$2 in $P: no semaphore for the preprocessed probe"
	expect_semaphores "$B/libgreet.so" greet:hello
	# CHECK's tests: the library's provider is whole; the program's
	# preprocessed one declares app:extra, which main.c never fires.
	(cd "$B" && ctest --output-on-failure) >"$T/ctest.log" 2>&1 &&
		{ cat "$T/ctest.log"; fail "$2 in $P: ctest passed without app:extra"; }
	grep -q 'MISSING app:extra' "$T/ctest.log" && grep -q '1 tests failed out of 2' "$T/ctest.log" ||
		{ cat "$T/ctest.log"; fail "$2 in $P: CHECK did not find app:extra missing (only)"; }
	note "$2 in $1: built, preprocessed with the given compiler, semaphores in place"
}

gens="Unix Makefiles"
if command -v ninja >/dev/null 2>&1; then
	gens="$gens:Ninja"
else
	note "ninja is not installed: Makefiles only"
fi
IFS=:
for g in $gens; do
	IFS=' '
	build "v\$HOME it's ü" "$g"
	build "#1" "$g"
	build "x\$(touch PWNED)y" "$g"
done
IFS=' '

# The probes, traced in the program and its library, from the last one.
need_bpftrace
TRACE_KINDS="item hello"
trace_live "usdt:\"$B/cmake-sample\":app:item { printf(\"fired item %d %s\\n\", arg0, str(arg1)); }
	usdt:\"$B/libgreet.so\":greet:hello { printf(\"fired hello %d %s\\n\", arg0, str(arg1)); }" \
	"$B/cmake-sample" 100000 10
exit 0
