#!/bin/sh
# .gitignore covers every program the Makefile builds, and hides no file
# under version control: after an in-tree build `git status' stays clean.
# Programs are named one by one in .gitignore, so a new program without
# its line fails here rather than dirtying everybody's tree.
. "$top_srcdir/tests/lib.sh"

need_cmd git make
git -C "$top_srcdir" rev-parse --git-dir >/dev/null 2>&1 ||
	skip "the source tree is not a git checkout"

# Every program and library target, from the Makefile itself.
printf 'sdtkit-print-targets:\n\t@echo $(bin_PROGRAMS) $(noinst_PROGRAMS) $(check_PROGRAMS) $(lib_LTLIBRARIES) $(noinst_LTLIBRARIES) $(check_LTLIBRARIES)\n' >"$T/print.mk"
targets=$(cd "$top_builddir" && env -u MAKEFLAGS -u MFLAGS \
	make -s -f Makefile -f "$T/print.mk" sdtkit-print-targets) ||
	fail "cannot list the Makefile's programs"
[ -n "$targets" ] || fail "the Makefile lists no programs"

missing=
for t in $targets; do
	# Ignored wherever the build puts it: in the tree, or under it.
	git -C "$top_srcdir" check-ignore -q --no-index "$t" ||
		missing="$missing $t"
done
[ -z "$missing" ] || fail "not in .gitignore:$missing"

# No tracked file matches an ignore pattern (a pattern hiding sources).
hidden=$(git -C "$top_srcdir" ls-files -ci --exclude-standard)
[ -z "$hidden" ] || fail ".gitignore matches tracked files: $hidden"
