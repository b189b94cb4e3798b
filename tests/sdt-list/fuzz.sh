#!/bin/sh
# libFuzzer over the note reader and sdt-list's decoding (fuzz-notes.c),
# with ASan and UBSan, for ~20 s on a seed corpus of small real binaries
# and objects (several architectures; type records of both kinds, text
# and compact). Skips only when clang's fuzzer runtime is missing.
. "$top_srcdir/tests/lib.sh"
need_cmd clang
s=$top_srcdir
cat >"$T/probe.c" <<'C'
int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }
C
clang -fsanitize=fuzzer -o "$T/probe" "$T/probe.c" 2>/dev/null ||
	skip "clang's libFuzzer runtime is not installed"

# The core is compiled in, instrumented, from the source list its own
# fragment gives the library, so a file added to the core is not missed.
core=$(sed -n '/^elfcore_libsdt\(core\|dso\)_la_SOURCES *=/,/[^\\]$/p' "$s/elfcore/local.mk" |
	tr -s ' \t\\' '\n\n\n' | sed -n "s|^\(elfcore/.*\.c\)$|$s/\1|p")
[ -n "$core" ] || fail "no elfcore sources in $s/elfcore/local.mk"
# shellcheck disable=SC2086
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I"$s/elfcore" -I"$s/sdt-list" -o "$T/fuzz" \
	"$s/tests/sdt-list/fuzz-notes.c" "$s/sdt-list/describe.c" \
	"$s"/sdt-list/consumer*.c "$s/sdt-list/types.c" "$s/sdt-list/escape.c" \
	$core -lelf >"$T/build.log" 2>&1 || {
	cat "$T/build.log"
	fail "cannot build the fuzzer"
}

mkdir -p "$T/corpus"
cat >"$T/seed.c" <<'C'
#include <sys/sdt.h>
int g;
int main(int argc, char **argv)
{
	DTRACE_PROBE2(seed, two, argc, argv);
	DTRACE_PROBE1(seed, glob, g);
	DTRACE_PROBE1(seed, cst, 5);
	return 0;
}
C
$CC -O2 -o "$T/corpus/x86_64" "$T/seed.c" || fail "seed build"
$CC -O2 -c -o "$T/corpus/x86_64.o" "$T/seed.c" || fail "seed build"
$CC -O2 -I"$s/include" -c -o "$T/corpus/typed.o" "$s/tests/sdt-list/typed.c" ||
	fail "typed.c seed build"
$CC -O2 -I"$s/include" -c -o "$T/corpus/typed-codes.o" "$s/tests/sdt-list/typed-codes.c" ||
	fail "typed-codes.c seed build"
for cc in aarch64-linux-gnu-gcc arm-linux-gnueabihf-gcc riscv64-linux-gnu-gcc \
	powerpc64le-linux-gnu-gcc s390x-linux-gnu-gcc i686-linux-gnu-gcc; do
	command -v $cc >/dev/null 2>&1 || continue
	$cc -O2 -I"$s/include" -c -o "$T/corpus/$cc.o" "$T/seed.c" || fail "$cc seed"
done
# Strip the big executable down to what matters: keep it, plus its notes.
objcopy -O binary --only-section=.note.stapsdt "$T/corpus/x86_64" "$T/corpus/notes.raw" 2>/dev/null

timeout 120 "$T/fuzz" -max_total_time=20 -max_len=65536 -rss_limit_mb=1024 \
	-artifact_prefix="$T/" "$T/corpus" >"$T/fuzz.log" 2>&1
rc=$?
if [ $rc != 0 ]; then
	tail -n 40 "$T/fuzz.log"
	fail "the fuzzer found a crash (status $rc)"
fi
note "$(grep -E '^#[0-9]+.*DONE' "$T/fuzz.log" | tail -n 1)"
exit 0
