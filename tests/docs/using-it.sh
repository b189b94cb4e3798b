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
		fail "$c is not on PATH ($PATH): install sdtkit first (make install && ldconfig) and have its bindir on PATH"
done
pkg-config --exists sdtkit libstapsdt ||
	fail "pkg-config finds no sdtkit.pc or libstapsdt.pc: install sdtkit first (make install && ldconfig)"
note "sdtkit $(pkg-config --modversion sdtkit) from $(command -v sdt-list)"

cd "$top" || fail "cd $top"
env -u LD_LIBRARY_PATH -u PKG_CONFIG_PATH -u PKG_CONFIG_SYSROOT_DIR \
	-u PKG_CONFIG_LIBDIR -u CPATH -u C_INCLUDE_PATH -u LIBRARY_PATH \
	python3 "$top/tests/docs/examples.py" --section "Using it" --all-marked \
	"$T" README.md
rc=$?
[ $rc = 0 ] || [ $rc = 77 ] || exit 1

# The inventory's schema is where README and sdt-list(1) say, and an
# inventory of the programs just built validates against it the way
# sdt-list(1) shows.
schema=$(pkg-config --variable=prefix sdtkit)/share/doc/sdtkit/inventory.schema.json
[ -f "$schema" ] || fail "no $schema, where sdt-list(1) says the schema is installed"
grep -qF "$schema" README.md ||
	note "README names the schema's place under /usr/local; this install is elsewhere"
if python3 -c 'import jsonschema' 2>/dev/null; then
	sdt-list --json "$T/examples" >"$T/inventory.json" || fail "sdt-list --json"
	python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' \
		"$T/inventory.json" "$schema" || fail "the inventory does not validate against $schema"
	note "an inventory of the replay's programs validates against $schema"
else
	note "python3-jsonschema is not installed: the inventory is not validated"
fi
exit $rc
