#!/bin/sh
# Nothing in the tree points outside it: no reference to a design file or
# a path that only exists on the machines the project was written on, and
# every relative link in the Markdown pages (docs/, READMEs) names a file
# of the tree. The outside paths allowed are the optional reference
# sources `make bench' and the libbpf tests build (bench/lib.sh,
# tests/libbpf/lib.sh, overridable).
. "$top_srcdir/tests/lib.sh"
need_cmd python3
cd "$top_srcdir" || fail "cd $top_srcdir"

files=$(find . \( -name .git -o -name 'sdtkit-*' -o -name autom4te.cache \
	-o -path ./build-aux -o -path ./m4 \
	-o -name .libs -o -name .deps \) -prune -o -type f \
	\( -name '*.[ch]' -o -name '*.cc' -o -name '*.S' -o -name '*.sh' \
	-o -name '*.md' -o -name '*.mk' -o -name '*.am' -o -name '*.ac' \
	-o -name '*.[1-8]' -o -name '*.d' -o -name '*.py' -o -name README \
	-o -name '.clang-format' -o -name '.gitignore' \) -print |
	grep -v '^\./tests/docs/links\.sh$')
[ -n "$files" ] || fail "no files found under $top_srcdir"

# shellcheck disable=SC2086
outside=$(grep -nE 'DESIGN\.md|/work/|shared/(DESIGN|anchors)' $files |
	grep -v '^\./\(bench\|tests/libbpf\)/lib\.sh:.*\.\./shared/anchors')
[ -z "$outside" ] || fail "pointers outside the repository:
$outside"

# Relative Markdown links: [text](path) and [text](path#anchor).
# shellcheck disable=SC2086
python3 - $(echo "$files" | grep '\.md$') <<'PY' || exit 1
import os, re, sys
bad = []
for md in sys.argv[1:]:
    for n, line in enumerate(open(md), 1):
        for target in re.findall(r"\]\(([^)\s]+)\)", line):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = os.path.normpath(os.path.join(os.path.dirname(md),
                                                 target.split("#")[0]))
            if path.startswith("..") or not os.path.exists(path):
                bad.append("%s:%d: %s" % (md, n, target))
if bad:
    print("FAIL: links to nothing in the tree:\n" + "\n".join(bad),
          file=sys.stderr)
    sys.exit(1)
PY
