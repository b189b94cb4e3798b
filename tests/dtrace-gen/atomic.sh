#!/bin/sh
# Outputs appear whole or not at all: a failed run leaves the earlier
# output intact, no temporary file is left anywhere (the current
# directory included), and many runs in parallel on the same input and
# output never interfere.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"
mkdir "$T/work" "$T/out" && cd "$T/work" || fail "cd"

cp "$DG_DATA/inputs/memcached.d" good.d
"$DG" -h -s good.d -o ../out/p.h || fail "-h"
"$DG" -G -s good.d -o ../out/p.o || fail "-G"
cp ../out/p.h ref.h && cp ../out/p.o ref.o
# Parallel runs, half of them failing (bad input), all to the same files.
printf 'provider a { probe x(; };\n' >bad.d
i=0
while [ $i -lt 24 ]; do
	"$DG" -h -s good.d -o ../out/p.h 2>/dev/null &
	"$DG" -G -s good.d -o ../out/p.o 2>/dev/null &
	"$DG" -h -s bad.d -o ../out/p.h 2>/dev/null &
	"$DG" -C -G -s bad.d -o ../out/p.o 2>/dev/null &
	i=$((i + 1))
done
wait
cmp -s ref.h ../out/p.h || fail "parallel runs damaged the header"
cmp -s ref.o ../out/p.o || fail "parallel runs damaged the object"
left=$(ls -A ../out | grep -v -x -e p.h -e p.o)
[ -z "$left" ] || fail "temporary files left in the output directory: $left"
left=$(ls -A . | grep -v -x -e good.d -e bad.d -e ref.h -e ref.o)
[ -z "$left" ] || fail "files left in the current directory: $left"

# The file gets the usual mode, not mkstemp's 0600.
(umask 022 && "$DG" -h -s good.d -o ../out/mode.h) || fail "-h"
expect_eq "mode" "-rw-r--r--" "$(ls -l ../out/mode.h | cut -c1-10)"
# Outputs that are not regular files are written in place.
"$DG" -h -s good.d -o /dev/null || fail "-o /dev/null"
"$DG" -G -s good.d -o /dev/null || fail "-G -o /dev/null"
# A symbolic link is written through, as open() would, and stays a link:
# to a file, to nothing yet, and to the file behind our stdout (what
# `-o /dev/stdout > probes.h' does; renaming over /dev/stdout would be bad).
echo old >../out/real.h
ln -s real.h ../out/link.h && ln -s new.h ../out/dangling.h &&
	ln -s /proc/self/fd/1 ../out/stdout || fail "ln -s"
"$DG" -h -s good.d -o ../out/link.h || fail "-o a link"
"$DG" -G -s good.d -o ../out/dangling.h || fail "-o a dangling link"
"$DG" -h -s good.d -o ../out/stdout >../out/captured.h || fail "-o a link to stdout"
for l in link.h dangling.h stdout; do
	[ -L ../out/$l ] || fail "-o $l replaced the link with a file"
done
cmp -s ref.h ../out/real.h || fail "-o link.h did not write the file it leads to"
cmp -s ref.o ../out/new.h || fail "-o dangling.h did not create the file it names"
cmp -s ref.h ../out/captured.h || fail "-o a link to stdout did not write stdout"
left=$(ls -A ../out | grep '^\.' || true)
[ -z "$left" ] || fail "writing through links left $left"
# -o /dev/stdout writes where stdout would: after what a `>>' keeps.
echo "kept" >../out/log.h
"$DG" -h -s good.d -o /dev/stdout >>../out/log.h || fail "-o /dev/stdout >>"
expect_eq "-o /dev/stdout >> appends" "kept" "$(head -n 1 ../out/log.h)"
expect_eq "-o /dev/stdout >> writes all" "$(($(wc -l <ref.h) + 1))" "$(wc -l <../out/log.h | tr -d ' ')"
# An interrupted run (SIGTERM while writing a big file) leaves nothing.
awk 'BEGIN { print "provider big {"; for (i = 0; i < 100000; i++) printf "probe p%d(int);\n", i; print "};" }' >big.d
"$DG" -h -s big.d -o ../out/big.h &
sleep 0.05
kill -TERM $! 2>/dev/null
wait
left=$(ls -A ../out | grep '^\.' || true)
[ -z "$left" ] || fail "an interrupted run left $left"
# Any name that fits NAME_MAX (255) works: the temporary's name is short.
long=$(printf '%0250d' 0 | tr 0 x)
"$DG" -h -s good.d -o ../out/$long.h || fail "a 252-character output name"
"$DG" -G -s good.d -o ../out/$long.o || fail "a 252-character output name (-G)"
cmp -s ref.h ../out/$long.h && cmp -s ref.o ../out/$long.o || fail "long names: wrong output"
rm -f ../out/$long.h ../out/$long.o

# A write that fails names its cause, and leaves the earlier output:
# past a file size limit (SIGXFSZ ignored, so write() says EFBIG) ...
echo earlier >../out/p.h && echo earlier >../out/p.o
for out in p.h p.o; do
	mode=-h
	[ $out = p.o ] && mode=-G
	(trap '' XFSZ && ulimit -f 8 && exec "$DG" $mode -s big.d -o ../out/$out) 2>err &&
		fail "$mode past the file size limit succeeded"
	grep -q "^../out/$out: error: .*File too large" err || fail "$mode EFBIG: $(cat err)"
	expect_eq "$mode EFBIG keeps the output" earlier "$(cat ../out/$out)"
done
# ... and on a full file system.
if [ "$(id -u)" = 0 ] && mkdir ../full && mount -t tmpfs -o size=64k tmpfs ../full 2>/dev/null; then
	trap 'umount "$T/full"; rm -rf "$T"' EXIT
	for mode in h G; do
		"$DG" -$mode -s big.d -o ../full/p 2>err && fail "-$mode on a full disk succeeded"
		grep -q "^../full/p: error: .*No space left on device" err ||
			fail "-$mode ENOSPC: $(cat err)"
	done
	[ -z "$(ls -A ../full)" ] || fail "a full disk kept $(ls -A ../full)"
else
	note "not root or no tmpfs: the full-disk case is not checked"
fi
exit 0
