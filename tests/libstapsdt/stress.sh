# 8 threads fire while another loads and unloads in a loop (stress.c), and
# fork() while threads fire, load, extend and unload (fork-stress.c), under
# ASan+UBSan and under TSan: the library's sources are built into the
# program with each sanitizer, by $CC (the configured compiler). Only if
# $CC has no runtime for a sanitizer (checked on a trivial program) does
# the other of clang and gcc stand in; our own sources failing to build is
# a failure, never a reason to look elsewhere.
. "$top_srcdir/tests/lib.sh"
export TMPDIR=$T
S=$top_srcdir
. "$top_srcdir/tests/libstapsdt/sources.sh"
SRCS=$LIB_SRCS
CFL="$LIB_CFLAGS -g -O1"
printf 'int main(void) { return 0; }\n' >"$T/empty.c"

# has_runtime CC FLAGS: CC builds and runs a trivial program with FLAGS.
has_runtime() {
	$1 $2 -o "$T/empty" "$T/empty.c" >/dev/null 2>&1 && "$T/empty"
}

# pick_cc FLAGS: $CC if it has the runtime, else the other of clang/gcc.
pick_cc() {
	for cc in "$CC" clang gcc; do
		command -v "${cc%% *}" >/dev/null 2>&1 || continue
		has_runtime "$cc" "$1" && { echo "$cc"; return 0; }
	done
	return 1
}

ran=0
for san in "address,undefined -fno-sanitize-recover=undefined" thread; do
	name=${san%% *}
	name=$(echo "$name" | tr , +)
	sflags="-fsanitize=$san -fno-omit-frame-pointer"
	cc=$(pick_cc "$sflags") || { note "no compiler runs -fsanitize=$san here"; continue; }
	[ "$cc" = "$CC" ] || note "$CC has no -fsanitize=$san runtime: using $cc"
	for prog in stress fork-stress; do
		$cc $CFL $sflags -o "$T/$prog-$name" $SRCS "$S/tests/libstapsdt/$prog.c" \
			$LIB_LIBS >"$T/build-$name.log" 2>&1 ||
			fail "build the $name $prog program with $cc: $(tail -n 20 "$T/build-$name.log")"
	done
	for mode in memfd file; do
		out=$(TSAN_OPTIONS="halt_on_error=1 report_signal_unsafe=0" \
			ASAN_OPTIONS="detect_leaks=1:abort_on_error=0" \
			UBSAN_OPTIONS="print_stacktrace=1" \
			timeout 240 "$T/stress-$name" 150 $mode 2>&1) ||
			fail "$name ($cc, $mode): $out"
		echo "$out" | grep -q 'WARNING: ThreadSanitizer\|ERROR: AddressSanitizer\|runtime error:' &&
			fail "$name ($cc, $mode): $out"
		note "$name ($cc, $mode): $out"
	done
	# Leaks in children are by design (they exit with the parent's
	# providers); a hang shows up as SIGALRM.
	out=$(TSAN_OPTIONS="halt_on_error=1 report_signal_unsafe=0" \
		ASAN_OPTIONS="detect_leaks=0:abort_on_error=0" \
		UBSAN_OPTIONS="print_stacktrace=1" \
		timeout 300 "$T/fork-stress-$name" 20 2>&1) ||
		fail "$name ($cc, fork): $out"
	echo "$out" | grep -q 'WARNING: ThreadSanitizer\|ERROR: AddressSanitizer\|runtime error:' &&
		fail "$name ($cc, fork): $out"
	note "$name ($cc, fork): $out"
	ran=$((ran + 1))
done
# Without sanitizers, at full speed, for long enough that an unload which
# unmapped the object under a fire would crash it (it did, 3 runs in 4,
# when the grace period was taken out).
$CC $CFL -O2 -o "$T/stress-plain" $SRCS "$S/tests/libstapsdt/stress.c" \
	$LIB_LIBS >"$T/build-plain.log" 2>&1 ||
	fail "build the plain stress program: $(tail -n 20 "$T/build-plain.log")"
out=$(timeout 240 "$T/stress-plain" 20000 2>&1) || fail "plain ($CC): $out"
note "plain ($CC): $out"
# probeIsEnabled() marked instead of in an rseq section (libstapsdt/rseq.c).
out=$(GLIBC_TUNABLES=glibc.pthread.rseq=0 timeout 240 "$T/stress-plain" 5000 2>&1) ||
	fail "plain ($CC), glibc.pthread.rseq=0: $out"
note "plain ($CC), glibc.pthread.rseq=0: $out"
[ $ran -eq 2 ] || fail "only $ran of 2 sanitizers could be built and run"
left=$(find "$T" -name 'libstapsdt-*')
expect_eq "files left behind" "" "$left"
