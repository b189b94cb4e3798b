#!/bin/sh
# The C sources keep the repository's .clang-format style: every .c and .h
# of the products, tests, benchmarks and samples, as the clang-format
# installed leaves them. The tree is written so that clang-format 14
# (Debian 12), 19 (Debian 13) and 21 (unstable) agree on it; where they
# would differ, the code takes a form all leave alone (an attribute before
# the return type, not on a line of its own; no identifier spelled like a
# C++ operator keyword such as `or': 14 and 19 space it as an operator,
# 21 as a name). Generated outputs (tests/dtrace-gen/golden) are not
# sources. Fix a failure with `clang-format -i FILE`, then check the file
# with the other versions too.
. "$top_srcdir/tests/lib.sh"
need_cmd clang-format
v=$(clang-format --version | sed -n 's/.*version \([0-9][0-9.]*\).*/\1/p')
cd "$top_srcdir" || fail "cd $top_srcdir"
[ -f .clang-format ] || fail "no .clang-format in $top_srcdir"
n=0 bad=
for f in $(find elfcore dtrace-gen libstapsdt sdt-list include tests bench \
	samples -name '*.[ch]' ! -path '*/.*' ! -path 'tests/dtrace-gen/golden/*' |
	LC_ALL=C sort); do
	clang-format --style=file --dry-run -Werror "$f" >/dev/null 2>&1 ||
		bad="$bad $f"
	n=$((n + 1))
done
[ "$n" -gt 50 ] || fail "only $n sources found under $top_srcdir"
[ -z "$bad" ] || fail "not in the .clang-format style (clang-format -i):$bad"
echo "PASS: $n sources in the .clang-format style (clang-format ${v:-of unknown version})"
