#!/bin/sh
# A .d declares `int frequency'; the program passes it as libvirt does,
# `(void *)(intptr_t)x', so the note records unsigned 8 bytes and a tracer
# that believes the note prints -1 as 18446744073709551615. Where the
# build recorded the declared type (dtrace-gen's records), sdt-list reads
# such an argument as declared: --bpftrace casts it ((int32)arg1, printed
# with %d) and real bpftrace prints -1; --perf reads it through a fetch
# argument of the declared type and real perf prints -1; -v says so; and
# --against names the width, a mismatch where a value reads otherwise
# (a signed type recorded unsigned), a note where none does (an unsigned
# type zero-extended). The class, not one case: char, short, int, long
# long, unsigned of each, and typedefs (int32_t, pid_t), each passed -1 or
# its largest value widened; an argument passed as declared is untouched.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
DG=$top_builddir/dtrace-gen/dtrace-gen
cd "$T" || fail "cd"

cat >lv.d <<'D'
provider lvt {
	probe timer(int timer, int frequency);
	probe kinds(signed char c, short s, long long ll, unsigned char uc, unsigned short us, unsigned int ui);
	probe typedefs(int32_t i32, pid_t pid, uint16_t u16, const int ci);
	probe plain(int same, const char *name, long n);
};
D
cat >lv.c <<'C'
#include <stdint.h>
#include <stdlib.h>
#include "lv.h"
#define WIDE(x) ((void *)(intptr_t)(x))
int main(int argc, char **argv)
{
	int v = argc > 1 ? atoi(argv[1]) : -1;

	LVT_TIMER(WIDE(argc), WIDE(v));
	LVT_KINDS(WIDE((signed char)v), WIDE((short)v), WIDE((long long)v),
		  WIDE((unsigned char)v), WIDE((unsigned short)v),
		  WIDE((unsigned int)v));
	LVT_TYPEDEFS(WIDE((int32_t)v), WIDE((pid_t)v), WIDE((uint16_t)v), WIDE(v));
	LVT_PLAIN(v, argv[0], (long)v);
	return 0;
}
C
"$DG" -h -s lv.d -o lv.h && "$DG" -G -s lv.d -o lvp.o || fail "dtrace-gen"
$CC -O2 -I"$SDT_INCLUDE" -c lv.c -o lv.o && $CC lv.o lvp.o -o lv || fail "cannot build lv"
"$SDT_NOTES" lv | grep -q 'lvt:timer.*args=8@%' || fail "lv's timer is not recorded as unsigned 8 bytes: $("$SDT_NOTES" lv)"

# -v: each widened argument says how to read it; plain ones say nothing.
"$SDT_LIST" -v lv >v.txt 2>&1 || fail "-v: $(cat v.txt)"
grep -q 'arg1 int frequency: unsigned 8 bytes in register .* (wider than declared: read its low 4 bytes as signed, (int32)arg1 in bpftrace)' v.txt ||
	fail "-v on frequency: $(cat v.txt)"
grep -q 'arg0 signed char c: .*low 1 byte as signed, (int8)arg0' v.txt || fail "-v on c: $(cat v.txt)"
grep -q 'arg1 pid_t pid: .*(int32)arg1' v.txt || fail "-v on pid_t: $(cat v.txt)"
grep -q 'arg2 uint16_t u16: .*(uint16)arg2' v.txt || fail "-v on uint16_t: $(cat v.txt)"
grep -A4 '^lvt:plain' v.txt | grep -q 'wider than declared' && fail "-v: a plain argument called wider: $(cat v.txt)"

# --against: signed ones mismatch, the unsigned ones are notes.
"$SDT_LIST" --against lv.d lv >against.txt 2>&1
expect_eq "--against: exit status" 1 $?
grep -q "^MISMATCH lvt:timer: arg0 declared \`int' (signed 4 bytes), lv records unsigned 8 bytes" against.txt ||
	fail "--against timer: $(cat against.txt)"
grep -q "^MISMATCH lvt:kinds: arg0 declared \`signed char'" against.txt || fail "--against kinds: $(cat against.txt)"
grep -q "^MISMATCH lvt:typedefs: arg0 declared \`int32_t'" against.txt || fail "--against typedefs: $(cat against.txt)"
grep -q "^WIDER lvt:kinds: arg3 declared \`unsigned char' (unsigned 1 byte), lv records unsigned 8 bytes: every value reads the same" against.txt ||
	fail "--against: the unsigned char not named: $(cat against.txt)"
grep -q "lvt:plain" against.txt && fail "--against: lvt:plain named: $(cat against.txt)"
grep -q "4 probes declared: 1 present as declared, 0 missing, 3 different" against.txt ||
	fail "--against summary: $(cat against.txt)"

# A build without records (SystemTap's dtrace writes none): --against
# reads the declared types from the .d file itself.
objcopy --remove-section .note.sdtkit lv lv-norec || fail "objcopy"
"$SDT_LIST" -v lv-norec | grep -q 'int frequency' && fail "lv-norec still has records"
"$SDT_LIST" --against lv.d lv-norec >against2.txt 2>&1
expect_eq "--against without records: exit status" 1 $?
grep -q "^MISMATCH lvt:timer: arg1 declared \`int' (signed 4 bytes), lv-norec records unsigned 8 bytes" against2.txt ||
	fail "--against without records: $(cat against2.txt)"
grep -q "4 probes declared: 1 present as declared, 0 missing, 3 different" against2.txt ||
	fail "--against without records, summary: $(cat against2.txt)"

# --bpftrace: the casts, then real bpftrace prints -1 (and the largest
# unsigned values) as C would.
"$SDT_LIST" --bpftrace lv >lv.bt 2>&1 || fail "--bpftrace: $(cat lv.bt)"
grep -q 'printf("lvt:timer timer=%d frequency=%d\\n", (int32)arg0, (int32)arg1);' lv.bt ||
	fail "--bpftrace timer: $(cat lv.bt)"
grep -q '(int8)arg0, (int16)arg1, (int64)arg2, (uint8)arg3, (uint16)arg4, (uint32)arg5' lv.bt ||
	fail "--bpftrace kinds: $(cat lv.bt)"
grep -q 'same=%d name=%s n=%ld\\n", arg0, str(arg1), arg2' lv.bt || fail "--bpftrace plain: $(cat lv.bt)"
need_root
need_bpftrace
bpftrace_run lv.bt -c "$T/lv" >bt.out 2>&1
grep -q 'lvt:timer timer=1 frequency=-1$' bt.out || fail "bpftrace: frequency: $(cat bt.out)"
grep -q 'lvt:kinds c=-1 s=-1 ll=-1 uc=255 us=65535 ui=4294967295$' bt.out || fail "bpftrace: kinds: $(cat bt.out)"
grep -q 'lvt:typedefs i32=-1 pid=-1 u16=65535 ci=-1$' bt.out || fail "bpftrace: typedefs: $(cat bt.out)"
grep -q 'lvt:plain same=-1 name=.* n=-1$' bt.out || fail "bpftrace: plain: $(cat bt.out)"
bpftrace_run lv.bt -c "$T/lv 300" >bt2.out 2>&1
grep -q 'lvt:kinds c=44 s=300 ll=300 uc=44 us=300 ui=300$' bt2.out || fail "bpftrace: kinds with 300: $(cat bt2.out)"

# --perf: the events read each argument as declared; real perf prints -1.
command -v perf >/dev/null 2>&1 || skip "perf is not installed"
perf version >/dev/null 2>&1 || skip "perf does not run here"
"$SDT_LIST" --perf lv 'lvt:timer' >perf.sh 2>&1 || fail "--perf: $(cat perf.sh)"
grep -q 'arg2=%[a-z0-9]*:s32' perf.sh || fail "--perf does not read arg2 as s32: $(cat perf.sh)"
# A group of our own: others trace at the same time.
grp=sdt_lvtw$$
sed "s/sdt_lvt/$grp/g" perf.sh >perf2.sh
trap 'perf probe -q -d "$grp:*" 2>/dev/null; rm -rf "$T"' EXIT
sh perf2.sh >/dev/null 2>&1 || fail "the --perf commands failed: $(sh perf2.sh 2>&1)"
timeout 60 perf record -q -o perf.data -e "$grp:timer" -- "$T/lv" >/dev/null 2>&1 || fail "perf record failed"
perf script -i perf.data >perf.out 2>&1
grep -q "$grp:timer: .* arg1=1 arg2=-1" perf.out || fail "perf script: $(cat perf.out)"
exit 0
