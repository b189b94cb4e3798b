#!/bin/sh
# The examples in README.md and docs/*.md run as written: the blocks
# marked `<!-- example: FILE|run|output -->' (tests/docs/examples.py says
# how), each document's in a directory of its own, against a staged
# `make install' first on PATH and in pkg-config's path, the way a user
# with sdtkit installed would type them. tests/docs/using-it.sh replays
# README's "Using it" against a real install instead.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/packaging/lib.sh"

need_cmd python3 pkg-config
stage_install
lib=$(dirname "$(find "$STAGE" -name 'libstapsdt.so' | head -n 1)")
PATH=$STAGE_PREFIX/bin:$PATH
PKG_CONFIG_PATH=$STAGE_PC
PKG_CONFIG_SYSROOT_DIR=$STAGE
LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR LD_LIBRARY_PATH

cd "$top_srcdir" || fail "cd $top_srcdir"
python3 "$top_srcdir/tests/docs/examples.py" "$T" README.md docs/*.md
case $? in
0 | 77) exit 0 ;; # bpftrace blocks need root: the rest ran
*) exit 1 ;;
esac
