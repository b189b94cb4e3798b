#!/bin/sh
# A file that shrinks while sdt-list reads it: a process maps its own copy
# of a binary with 2000 probe sites and keeps truncating and rewriting it
# (anyone may do this to a file of theirs that root then lists with -p).
# Every run of sdt-list, by -p and by path, in every output, ends by
# itself: status 0 (what the file held as it was read), or 2 with a
# message naming the file. Never a signal (a mapped file cut short is a
# SIGBUS).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_cmd timeout
PIDS=
trap 'for p in $PIDS; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT

python3 - "$T/many.c" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("#include <sys/sdt.h>\n")
    for fn in range(20):
        f.write("void f%d(int i, long l)\n{\n" % fn)
        for p in range(100):
            f.write("\tDTRACE_PROBE2(shrink, p%d, i, l);\n" % (fn * 100 + p))
        f.write("}\n")
    f.write("int main(void) { return 0; }\n")
PY
$CC -O2 -I"$top_srcdir/include" -o "$T/many" "$T/many.c" || fail "cannot build many.c"

cat >"$T/host.c" <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
/* host SRC COPY: map COPY (SRC's bytes), then cut it to 0 and refill it. */
int main(int argc, char **argv)
{
	int in = open(argv[1], O_RDONLY), fd;
	struct stat st;
	char *buf;

	(void)argc;
	if (in < 0 || fstat(in, &st) < 0 || !(buf = malloc(st.st_size)) ||
	    read(in, buf, st.st_size) != st.st_size)
		return 1;
	fd = open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || pwrite(fd, buf, st.st_size, 0) != st.st_size ||
	    mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED)
		return 1;
	printf("ready %d %s\n", (int)getpid(), argv[2]);
	fflush(stdout);
	for (;;) {
		if (ftruncate(fd, 0) < 0 ||
		    pwrite(fd, buf, st.st_size, 0) != st.st_size)
			return 1;
		usleep(300);
	}
}
C
$CC -O2 -o "$T/host" "$T/host.c" || fail "cannot build the host"
start_host "$T/host.out" "$T/host" "$T/many" "$T/copy"

whole=0 refused=0 n=0
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	for opts in "" --check --json -v; do
		for target in "-p $HOST_PID" "$T/copy"; do
			n=$((n + 1))
			# shellcheck disable=SC2086
			timeout 20 "$SDT_LIST" $opts $target >"$T/out" 2>"$T/err"
			rc=$?
			[ $rc != 124 ] || fail "sdt-list $opts $target hung"
			[ $rc -lt 128 ] || fail "sdt-list $opts $target died of signal $((rc - 128)): $(cat "$T/err")"
			# --check -p flags the C library's own probes (glibc
			# 2.43's symbol operands): status 1, and none of ours.
			if [ $rc = 1 ] && [ "$opts" = --check ] &&
				awk '/^[^ ]/ { p = $1 } /^ +NO / { if (p ~ /^shrink:/) ours = 1; else libc = 1 }
					END { exit ours || !libc }' "$T/out"; then
				rc=0
			fi
			case $rc in
			0) whole=$((whole + 1)) ;;
			2)
				grep -q "^sdt-list: .*$T/copy: " "$T/err" ||
					fail "sdt-list $opts $target: status 2 without a message naming the file: $(cat "$T/err")"
				refused=$((refused + 1))
				;;
			*) fail "sdt-list $opts $target: status $rc: $(cat "$T/err")" ;;
			esac
		done
	done
done
note "$n runs against a shrinking file: $whole with status 0, $refused with status 2 and a message"
exit 0
