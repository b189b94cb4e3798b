# Threads fire while another thread adds probes with providerExtend() and
# now and then unloads (extend-stress.c), under ASan+UBSan and under TSan,
# each built by gcc and by clang from the library's sources, in a memfd
# and in a file. A compiler without a sanitizer's runtime here (checked on
# a trivial program) is skipped for it with a note; none at all fails.
. "$top_srcdir/tests/lib.sh"
export TMPDIR=$T
S=$top_srcdir
. "$top_srcdir/tests/libstapsdt/sources.sh"
CFL="$LIB_CFLAGS -g -O1"
printf 'int main(void) { return 0; }\n' >"$T/empty.c"

ran=0
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || { note "$cc is not installed"; continue; }
	for san in "address,undefined -fno-sanitize-recover=undefined" thread; do
		name=$(echo "${san%% *}" | tr , +)
		sflags="-fsanitize=$san -fno-omit-frame-pointer"
		if ! $cc $sflags -o "$T/empty" "$T/empty.c" >/dev/null 2>&1 || ! "$T/empty"; then
			note "$cc has no -fsanitize=$san runtime here"
			continue
		fi
		prog=$T/extend-stress-$cc-$name
		# shellcheck disable=SC2086
		$cc $CFL $sflags -o "$prog" $LIB_SRCS "$S/tests/libstapsdt/extend-stress.c" \
			$LIB_LIBS >"$T/build.log" 2>&1 ||
			fail "build extend-stress with $cc -fsanitize=$san: $(tail -n 20 "$T/build.log")"
		for mode in memfd file; do
			out=$(TSAN_OPTIONS="halt_on_error=1 report_signal_unsafe=0" \
				ASAN_OPTIONS="detect_leaks=1:abort_on_error=0" \
				UBSAN_OPTIONS="print_stacktrace=1" \
				timeout 300 "$prog" 300 $mode 2>&1) ||
				fail "$cc $name ($mode): $out"
			echo "$out" | grep -q 'WARNING: ThreadSanitizer\|ERROR: AddressSanitizer\|runtime error:' &&
				fail "$cc $name ($mode): $out"
			note "$cc $name ($mode): $out"
		done
		ran=$((ran + 1))
	done
done
[ $ran -gt 0 ] || fail "no compiler could build and run a sanitizer here"
left=$(find "$T" -name 'libstapsdt-*')
expect_eq "files left behind" "" "$left"
