#!/bin/sh
# The parser under libFuzzer with ASan and UBSan for about 25 seconds,
# seeded with the real-world shapes in inputs/: no crash, leak or UB.
# Skips only when clang's fuzzer runtime is missing.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"
need_cmd clang
cd "$T" || fail "cd"
src=$top_srcdir/dtrace-gen
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >probe.c
clang -fsanitize=fuzzer probe.c -o probe 2>/dev/null ||
	skip "clang's libFuzzer runtime is missing (libclang-rt / compiler-rt)"
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-I"$src" -I"$top_srcdir/elfcore" \
	"$top_srcdir/tests/dtrace-gen/fuzz-parser.c" "$src/lexer.c" \
	"$src/parser.c" "$src/header.c" "$src/diag.c" "$src/buf.c" \
	"$top_srcdir/elfcore/names.c" "$top_srcdir/elfcore/typetext.c" \
	-o fuzz-parser 2>build.log || { cat build.log; fail "building the fuzzer"; }
mkdir corpus
cp "$DG_DATA"/inputs/*.d corpus/ || fail "seed corpus"
i=0
for f in "$DG_DATA"/inputs/*.d; do
	i=$((i + 1))
	# cpp-style variants: line markers, directives, cut files.
	{ printf '# 1 "%s"\n# 1 "<built-in>"\n' "$f"; cat "$f"; } >corpus/marker$i.d
	head -c 300 "$f" >corpus/cut$i.d
done
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
ASAN_OPTIONS=detect_leaks=1 \
	timeout 120 ./fuzz-parser -max_total_time=25 -max_len=4096 \
	-timeout=10 -rss_limit_mb=1024 -print_final_stats=1 corpus >fuzz.log 2>&1
rc=$?
tail -n 15 fuzz.log
[ $rc = 0 ] || fail "the fuzzer found a problem (exit $rc); see the log above"
grep -q 'stat::number_of_executed_units' fuzz.log || fail "the fuzzer did not run"
note "$(grep 'stat::number_of_executed_units' fuzz.log)"
exit 0
