#!/bin/sh
# Where <sys/sdt.h> is included decides whether probes get semaphores:
# included before the generated header, without _SDT_HAS_SEMAPHORES, it
# gives probes none and _ENABLED() would stay 0 while they are traced. The
# generated header stops such a build with an #error that says what to
# do, for our <sys/sdt.h> and SystemTap's, gcc and clang, C and C++. The
# orders that work still build, warning-free, and every probe of each of
# them has its semaphore: the generated header first, <sys/sdt.h> after
# it, two generated headers, and a file that defines _SDT_HAS_SEMAPHORES
# itself before <sys/sdt.h>. And glib's build, which turns the header's
# `#define _SDT_HAS_SEMAPHORES 1' into an #undef to have no semaphores,
# still builds with two such headers in one file, and C++ that includes
# the header inside `extern "C" {' (CPython's pydtrace.h does) builds. Last, under bpftrace the
# semaphores of the file that includes <sys/sdt.h> after the header count:
# both _ENABLED() are true.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"

SDT_LIST=$top_builddir/sdt-list/sdt-list
cd "$T" || fail "cd"
printf 'provider ioa {\n\tprobe x(int v);\n};\n' >a.d
printf 'provider iob {\n\tprobe y(const char *s);\n};\n' >b.d
"$DG" -h -s a.d && "$DG" -h -s b.d && "$DG" -G -s a.d -o a-probes.o &&
	"$DG" -G -s b.d -o b-probes.o || fail "dtrace-gen"

# The order that must fail, then those that must work.
cat >bad.c <<'EOF_'
#include <sys/sdt.h>
#include "a.h"
int main(void) { IOA_X(1); return IOA_X_ENABLED(); }
EOF_
cat >first.c <<'EOF_'
#include "a.h"
#include <sys/sdt.h>
#include "b.h"
int main(void)
{
	IOA_X(1);
	IOB_Y("s");
	return IOA_X_ENABLED() + IOB_Y_ENABLED();
}
EOF_
cat >own.c <<'EOF_'
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#include "a.h"
#include "b.h"
int main(void)
{
	IOA_X(1);
	IOB_Y("s");
	return IOA_X_ENABLED() + IOB_Y_ENABLED();
}
EOF_

cat >wrapped.c <<'EOF_'
#ifdef __cplusplus
extern "C" {
#endif
#include "a.h"
#ifdef __cplusplus
}
#endif
int main(void) { IOA_X(1); return IOA_X_ENABLED(); }
EOF_
for h in a b; do
	sed 's/define _SDT_HAS_SEMAPHORES 1/undef _SDT_HAS_SEMAPHORES/' $h.h >$h-nosema.h
done
sed 's/"\([ab]\)\.h"/"\1-nosema.h"/' first.c >nosema.c

# Our header, and SystemTap's where it is installed.
headers="ours"
stap_header "$T/stap-inc" && headers="$headers systemtap"
compilers=
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 && compilers="$compilers $cc"
done
[ -n "$compilers" ] || skip "neither gcc nor clang is installed"
note "headers: $headers; compilers:$compilers"
for h in $headers; do
	inc="$STAP_INC -I."
	[ $h = ours ] && inc="-I$SDT_INCLUDE -I."
	for cc in $compilers; do
		for lang in c c++; do
			what="$h sdt.h, $cc -x $lang"
			$cc -x $lang $inc -Wall -Wextra -Werror -c bad.c -o bad.o 2>err &&
				fail "$what: <sys/sdt.h> first compiled"
			grep -q 'error: .*<sys/sdt.h> came before this header without _SDT_HAS_SEMAPHORES (no semaphores: _ENABLED() stays 0): include this header first, or define _SDT_HAS_SEMAPHORES before <sys/sdt.h>' err ||
				fail "$what: the #error: $(cat err)"
			$cc -x $lang $inc -Wall -Wextra -Werror -c nosema.c -o nosema.o 2>err ||
				fail "$what: two headers without semaphores: $(cat err)"
			$cc nosema.o a-probes.o b-probes.o -o nosema &&
				"$SDT_LIST" nosema >list || fail "$what: nosema"
			grep -q semaphore list && fail "$what: #undef _SDT_HAS_SEMAPHORES ignored: $(cat list)"
			for f in first own wrapped; do
				$cc -x $lang $inc -Wall -Wextra -Werror -c $f.c -o $f.o 2>err ||
					fail "$what: $f.c: $(cat err)"
				$cc $f.o a-probes.o b-probes.o -o $f ||
					fail "$what: linking $f"
				./$f || fail "$what: $f: _ENABLED() true untraced"
				"$SDT_LIST" $f >list || fail "$what: sdt-list $f"
				[ "$(grep -c ', semaphore$' list)" = "$(grep -c '^' list)" ] ||
					fail "$what: $f: a probe without its semaphore: $(cat list)"
			done
		done
	done
done

cat >traced.c <<'EOF_'
#include <stdio.h>
#include "a.h"
#include <sys/sdt.h>
#include "b.h"
int main(void)
{
	printf("enabled %d %d\n", IOA_X_ENABLED() != 0, IOB_Y_ENABLED() != 0);
	IOA_X(1);
	IOB_Y("s");
	return 0;
}
EOF_
$CC -O2 -I"$SDT_INCLUDE" -I. traced.c a-probes.o b-probes.o -o traced ||
	fail "building traced.c"
need_bpftrace
bpftrace_run -e 'usdt:./traced:ioa:x { } usdt:./traced:iob:y { }' -c ./traced >got ||
	fail "bpftrace: $(cat got)"
grep -q '^enabled 1 1$' got || fail "a semaphore did not count: $(cat got)"
exit 0
