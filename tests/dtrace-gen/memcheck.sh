#!/bin/sh
# The whole generator (command line, -h, -G through the ELF core, the
# atomic output, every error path) with no leak, no invalid access and no
# undefined behaviour: golden.sh, errors.sh and missing.sh (objects -G
# cannot read) run again against dtrace-gen built with ASan and UBSan, then
# under valgrind. The fuzzer covers the parser alone; this covers the rest.
#
# Both builds are made here from the sources the local.mk fragments list:
# the installed program is linked statically where possible, and valgrind
# cannot follow a static glibc's own malloc and string functions. The
# valgrind build uses DWARF 4, which valgrind 3.19 reads from every
# compiler (clang 14 writes DWARF 5 by default).
. "$top_srcdir/tests/lib.sh"
need_cmd valgrind
S=$top_srcdir
SRCS="$(mk_sources elfcore/local.mk elfcore_libsdtdso_la_SOURCES)
$(mk_sources elfcore/local.mk elfcore_libsdtcore_la_SOURCES)
$(mk_sources elfcore/local.mk elfcore_libsdtlayout_la_SOURCES)
$(mk_sources dtrace-gen/local.mk dtrace_gen_libsdtdparse_la_SOURCES)
$(mk_sources dtrace-gen/local.mk dtrace_gen_dtrace_gen_SOURCES)"
case "$SRCS" in
*/elfcore/*.c*/dtrace-gen/main.c*) ;;
*) fail "cannot read the generator's sources from the local.mk files: $SRCS" ;;
esac
# With libdw, -G also reads the objects' DWARF for struct layouts.
LIBS=-lelf
if grep -q '^#define HAVE_LIBDW 1' "$top_builddir/config.h"; then
	SRCS="$SRCS
$(mk_sources elfcore/local.mk elfcore_libsdtdwarf_la_SOURCES)"
	LIBS="-ldw -lelf"
fi
CFL="-std=gnu11 -g -O1 -I$S/include -I$S/elfcore -I$S/dtrace-gen -I$top_builddir"
mkdir "$T/asan" "$T/vg" "$T/logs" || fail mkdir

# The program keeps its name: messages start with it.
$CC $CFL -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -o "$T/asan/dtrace-gen" $SRCS $LIBS \
	>"$T/build.log" 2>&1 || fail "ASan/UBSan build with $CC: $(tail -n 20 "$T/build.log")"
$CC $CFL -gdwarf-4 -o "$T/vg/dtrace-gen" $SRCS $LIBS >"$T/build.log" 2>&1 ||
	fail "-gdwarf-4 build with $CC: $(tail -n 20 "$T/build.log")"

# A sanitizer report goes to a log of its own, whatever the test does with
# the program's stderr; the exit status 1 of an expected error stays.
cat >"$T/asan/run" <<EOF
#!/bin/sh
ASAN_OPTIONS=detect_leaks=1:log_path=$T/logs/asan:exitcode=99 \\
UBSAN_OPTIONS=print_stacktrace=1:log_path=$T/logs/ubsan \\
	exec "$T/asan/dtrace-gen" "\$@"
EOF
cat >"$T/vg/run" <<EOF
#!/bin/sh
exec valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \\
	--errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 \\
	--log-file=$T/logs/vg.%p "$T/vg/dtrace-gen" "\$@"
EOF
chmod +x "$T/asan/run" "$T/vg/run" || fail chmod

for build in asan vg; do
	for t in golden errors missing; do
		DG_UNDER_TEST=$T/$build/run "$SHELL" "$S/tests/dtrace-gen/$t.sh" >"$T/$build-$t.out" 2>&1
		rc=$?
		[ $rc = 0 ] || fail "$t.sh against the $build build: exit $rc: $(tail -n 20 "$T/$build-$t.out")"
	done
done
# valgrind writes its log even when clean: only non-empty ones count.
for f in "$T"/logs/*; do
	[ -s "$f" ] || continue
	grep -q "debuginfo reader\|unhandled dwarf2" "$f" &&
		fail "valgrind could not read the debug info: $(head -n 10 "$f")"
	fail "$(basename "$f"): $(head -n 40 "$f")"
done
note "golden.sh, errors.sh and missing.sh clean under ASan+UBSan and valgrind ($CC)"
