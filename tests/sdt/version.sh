#!/bin/sh
# SDTKIT_SDT_H: builds tell our <sys/sdt.h> from SystemTap's by it. It must
# be the package's version (MAJOR * 10000 + MINOR * 100 + PATCH), usable in
# #if from C89 and C++98 up, and absent when SystemTap's header was
# included first (the shared _SYS_SDT_H guard keeps ours out).
. "$top_srcdir/tests/lib.sh"

version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$top_builddir/config.h")
[ -n "$version" ] || fail "no PACKAGE_VERSION in $top_builddir/config.h"
want=$(echo "$version" | awk -F. '{ print $1 * 10000 + $2 * 100 + $3 }')

cat >"$T/v.c" <<'C'
#include <stdio.h>
#include <sys/sdt.h>
#if !defined(SDTKIT_SDT_H) || !defined(_SYS_SDT_H)
#error "SDTKIT_SDT_H or _SYS_SDT_H missing"
#endif
#if SDTKIT_SDT_H < 1
#error "SDTKIT_SDT_H is not a positive number"
#endif
int main(void)
{
	printf("%ld\n", (long)SDTKIT_SDT_H);
	return 0;
}
C
for std in "$CC -std=c89 -pedantic-errors" "$CC -std=c11" \
	"$CXX -x c++ -std=c++98 -pedantic-errors"; do
	# shellcheck disable=SC2086
	$std -Wall -Werror -I"$SDT_INCLUDE" -o "$T/v" "$T/v.c" ||
		fail "$std: SDTKIT_SDT_H not usable"
	expect_eq "SDTKIT_SDT_H under $std (package $version)" "$want" "$("$T/v")"
done

# SystemTap's header first: its guard keeps ours out, so no SDTKIT_SDT_H.
if stap_header "$T/stap-inc"; then
	printf '#include "%s"\n#include <sys/sdt.h>\n#ifdef SDTKIT_SDT_H\n#error ours\n#endif\nint main(void) { return 0; }\n' \
		"$T/stap-inc/sys/sdt.h" >"$T/t.c"
	$CC -I"$SDT_INCLUDE" -c -o "$T/t.o" "$T/t.c" ||
		fail "SDTKIT_SDT_H defined after SystemTap's <sys/sdt.h>"
else
	note "SystemTap's sys/sdt.h not installed: its case not checked"
fi
