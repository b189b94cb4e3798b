# 8 threads fire while another loads and unloads in a loop, under ASan and
# under TSan: the library's sources are built into the program with each
# sanitizer (with $CC, then clang and gcc if $CC is the other one).
. "$top_srcdir/tests/lib.sh"
export TMPDIR=$T
S=$top_srcdir
SRCS="$S/libstapsdt/provider.c $S/libstapsdt/object.c $S/libstapsdt/arch.c
$S/libstapsdt/loader.c $S/libstapsdt/fire.c $S/elfcore/target.c
$S/elfcore/note.c $S/elfcore/argspec.c $S/elfcore/elfread.c
$S/elfcore/elfwrite.c $S/tests/libstapsdt/stress.c"
CFL="-std=gnu11 -g -O1 -pthread -I$S/include -I$S/elfcore -I$S/libstapsdt -I$top_builddir"

ran=0
for san in address thread; do
	built=
	for cc in "$CC" clang gcc; do
		command -v "$cc" >/dev/null 2>&1 || continue
		if $cc $CFL -fsanitize=$san -fno-omit-frame-pointer -o "$T/stress-$san" \
			$SRCS -lelf -ldl >"$T/build-$san.log" 2>&1 &&
			"$T/stress-$san" 5 >/dev/null 2>&1; then
			built=$cc
			break
		fi
	done
	[ -n "$built" ] || { note "no working -fsanitize=$san: $(tail -n 3 "$T/build-$san.log")"; continue; }
	for mode in memfd file; do
		out=$(TSAN_OPTIONS="halt_on_error=1 report_signal_unsafe=0" \
			ASAN_OPTIONS="detect_leaks=1:abort_on_error=0" \
			timeout 240 "$T/stress-$san" 150 $mode 2>&1) ||
			fail "$san ($built, $mode): $out"
		echo "$out" | grep -q 'WARNING: ThreadSanitizer\|ERROR: AddressSanitizer' &&
			fail "$san ($built, $mode): $out"
		note "$san ($built, $mode): $out"
	done
	ran=$((ran + 1))
done
[ $ran -eq 2 ] || fail "only $ran of 2 sanitizers could be built and run"
left=$(find "$T" -name 'libstapsdt-*')
expect_eq "files left behind" "" "$left"
