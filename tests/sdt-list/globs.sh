#!/bin/sh
# A PROVIDER:NAME glob that matches no probe of the inputs is an error in
# every output (exit 2, on stderr), naming the probe meant when one is
# near (a typo, a swap); the probes the other globs match are still
# listed. --bpftrace never writes a program bpftrace refuses (one without
# a probe): bpftrace compiles every program it writes. --check says in one
# line per file what it checked, also when nothing is wrong.
. "$top_srcdir/tests/lib.sh"
SDT_LIST=$top_builddir/sdt-list/sdt-list
[ -x "$SDT_LIST" ] || fail "$SDT_LIST is not built"
cd "$T" || fail "cd"

cat >jobs.c <<'C'
#include <sys/sdt.h>
int main(int argc, char **argv)
{
	DTRACE_PROBE2(jobs, query, argc, argv);
	DTRACE_PROBE1(jobs, queue, argc);
	DTRACE_PROBE(jobs, start);
	return 0;
}
C
$CC -O2 -I"$SDT_INCLUDE" -o jobs jobs.c || fail "build"

# expect_glob_error WHAT STDERR-LINE ARGS...: exit 2, the line on stderr.
expect_glob_error() {
	what=$1 line=$2
	shift 2
	"$SDT_LIST" "$@" >out 2>err
	expect_eq "$what: status" 2 $?
	grep -qxF "$line" err || fail "$what: stderr: $(cat err)"
}

typo="sdt-list: no probe matches \`jobs:qurey'; did you mean \`jobs:query'?"
for mode in "" -v --json --bpftrace --perf --check; do
	# shellcheck disable=SC2086
	expect_glob_error "${mode:-summary}" "$typo" $mode ./jobs 'jobs:qurey'
done
expect_eq "--check, a glob matching nothing" "./jobs: nothing to check: no probe selected" "$(cat out)"
expect_glob_error "two near" \
	"sdt-list: no probe matches \`jobs:queu'; did you mean \`jobs:queue'?" \
	./jobs 'jobs:queu'
expect_glob_error "nothing near" "sdt-list: no probe matches \`web:*'" ./jobs 'web:*'
printf 'int main(void) { return 0; }\n' >none.c
$CC -O2 -o none none.c || fail "build none"
expect_glob_error "no probes at all" \
	"sdt-list: no probe matches \`jobs:*': the inputs have no probes" \
	./none 'jobs:*'

# One glob matches, one does not: the match is listed, the status is 2.
"$SDT_LIST" ./jobs 'jobs:st*' 'jobs:qurey' >out 2>err
expect_eq "one of two globs: status" 2 $?
expect_eq "one of two globs: listed" "jobs:start()  1 site" "$(cat out)"
grep -qxF "$typo" err || fail "one of two globs: $(cat err)"
"$SDT_LIST" ./jobs 'jobs:qu*' >out 2>err || fail "a glob that matches: $(cat err)"
[ -s err ] && fail "a glob that matches: stderr: $(cat err)"

# --bpftrace: no program without a probe; every program it writes loads.
"$SDT_LIST" --bpftrace ./jobs 'jobs:qurey' >none.bt 2>err
[ -s none.bt ] && fail "--bpftrace wrote a program without a probe: $(cat none.bt)"
grep -qxF "sdt-list: no probe for bpftrace to trace: no program written" err ||
	fail "--bpftrace, nothing to trace: $(cat err)"
"$SDT_LIST" --bpftrace ./jobs 'jobs:qu*' >some.bt || fail "--bpftrace"

# --check: one line per file, passed or failed.
"$SDT_LIST" --check ./jobs >out || fail "--check: $(cat out)"
expect_eq "--check on readable probes" \
"jobs:query(int argc, void *argv)  1 site
jobs:queue(int argc)  1 site
jobs:start()  1 site
./jobs: check passed: 3 probes, 3 sites: libbpf, bcc/bpftrace, bpftrace 0.25+, gdb and perf read every argument" \
	"$(cat out)"
cat >bad.c <<'C'
#include <sys/sdt.h>
int main(void)
{
	__asm__ __volatile__(STAP_PROBE_ASM(jobs, odd, 8f@%xmm0));
	return 0;
}
C
if $CC -O2 -I"$SDT_INCLUDE" -o bad bad.c 2>/dev/null; then
	"$SDT_LIST" --check ./bad ./jobs >out
	expect_eq "--check with an unreadable probe: status" 1 $?
	grep -qx './bad: check failed: 1 of 1 probe with problems (above)' out ||
		fail "--check failed line: $(cat out)"
	grep -qx './jobs: check passed: 3 probes, 3 sites: .*' out ||
		fail "--check, second file: $(cat out)"
else
	note "no STAP_PROBE_ASM build here: the failing --check line is not checked"
fi

need_bpftrace
# bpftrace compiles the program (--emit-elf; -d takes a debug stage from
# 0.20 on).
bpftrace_compile some.elf some.bt ||
	fail "bpftrace refused the program: $(cat "$T/.bpftrace.out")"
echo "PASS: globs matching nothing are errors with the near name; --check sums up"
