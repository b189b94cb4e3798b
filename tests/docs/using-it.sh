#!/bin/sh
# A new user's first contact, replayed: every command of README.md's
# "Using it" section, as written, against sdtkit as the quick start
# installs it (`make install && ldconfig'): the tools on PATH, the
# header and libstapsdt found through the system's pkg-config and dynamic
# loader, with nothing of the build tree in the environment. Every code
# block of the section must be a marked example (tests/docs/examples.py),
# so none is left for a reader to guess at.
#
# Run it by hand from the top of the tree, as root (the bpftrace lines
# need it), right after the quick start:
#
#   make -j2 install && ldconfig && tests/docs/using-it.sh
#
# .ci/run does, in each fresh root. Exit 0: every block ran and printed
# what the README says; 77: none failed but bpftrace could not load
# programs, and the blocks that call it were not run; 1: a failure.
top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
top_srcdir=$top top_builddir=$top
. "$top/tests/lib.sh"

need_cmd python3
for c in pkg-config dtrace-gen sdt-list; do
	command -v "$c" >/dev/null 2>&1 ||
		fail "$c is not on PATH: install sdtkit first (make install && ldconfig)"
done
pkg-config --exists sdtkit libstapsdt ||
	fail "pkg-config finds no sdtkit.pc or libstapsdt.pc: install sdtkit first (make install && ldconfig)"
note "sdtkit $(pkg-config --modversion sdtkit) from $(command -v sdt-list)"

cd "$top" || fail "cd $top"
env -u LD_LIBRARY_PATH -u PKG_CONFIG_PATH -u PKG_CONFIG_SYSROOT_DIR \
	-u PKG_CONFIG_LIBDIR -u CPATH -u C_INCLUDE_PATH -u LIBRARY_PATH \
	python3 "$top/tests/docs/examples.py" --section "Using it" --all-marked \
	"$T" README.md
