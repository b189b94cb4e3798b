#!/bin/sh
# A probe without a semaphore records address 0 for it, and gdb must take
# that 0 as "no semaphore": relocated by the load base of a PIE, it would be
# the first byte of the ELF header, and gdb would count that byte up while a
# breakpoint sits on the probe. Built with gcc and clang, PIE and not, -O0
# -g and -O2, and run under gdb with "breakpoint always-inserted" on and
# off, the program stops at both of its probes, reads its argument, and then
# finds its mapped ELF header (from __ehdr_start, the linker's symbol for
# it) byte for byte the same as its file's first bytes.
. "$top_srcdir/tests/lib.sh"
need_cmd gcc clang gdb readelf
cd "$T" || fail "cd"

cat >nosem.c <<'C'
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/sdt.h>

extern const unsigned char __ehdr_start[];

int main(int argc, char **argv)
{
	unsigned char file[64];
	int fd;
	int x = 23 + argc;

	(void)argv;
	STAP_PROBE1(nosem, hit, x);
	STAP_PROBE(nosem, again);
	fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0 || read(fd, file, sizeof(file)) != (ssize_t)sizeof(file))
		return 2;
	close(fd);
	/* 3: what is mapped differs from the file; 0: the same bytes. */
	return memcmp(file, __ehdr_start, sizeof(file)) ? 3 : 0;
}
C

runs=0
for cc in gcc clang; do
	for pie in "-fPIE -pie" "-fno-PIE -no-pie"; do
		for opt in "-O0 -g" "-O2"; do
			what="$cc $pie $opt"
			$cc -I"$SDT_INCLUDE" -Wall -Wextra -Werror $pie $opt \
				nosem.c -o nosem || fail "$what: does not compile"
			./nosem || fail "$what: the program fails alone ($?)"
			# The premise: both notes record no semaphore.
			expect_eq "$what: semaphores in the notes" "0x0000000000000000
0x0000000000000000" "$(readelf -n nosem | sed -n 's/.*Semaphore: //p')"
			for ins in on off; do
				timeout 60 gdb -batch -nx \
					-ex "set breakpoint always-inserted $ins" \
					-ex "break -probe-stap nosem:hit" \
					-ex "break -probe-stap nosem:again" \
					-ex "run" -ex 'echo @arg=' \
					-ex 'output $_probe_arg0' -ex 'echo \n' \
					-ex "continue" -ex 'echo @argc=' \
					-ex 'output $_probe_argc' -ex 'echo \n' \
					-ex "continue" ./nosem >out 2>&1
				expect_eq "$what, always-inserted $ins: gdb at the probes" \
					"@arg=24
@argc=0" "$(grep '^@' out)"
				grep -q 'exited normally' out || {
					cat out
					fail "$what, always-inserted $ins: the ELF header changed under gdb (or the program failed)"
				}
				runs=$((runs + 1))
			done
		done
	done
done
echo "PASS: $runs gdb runs: probes without a semaphore leave the ELF header alone"
