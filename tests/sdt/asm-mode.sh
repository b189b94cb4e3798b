#!/bin/sh
# The assembler forms: STAP_PROBEn in a .S file (__ASSEMBLER__), and
# STAP_PROBE_ASM with a literal spec and with STAP_PROBE_ASM_TEMPLATE /
# STAP_PROBE_ASM_OPERANDS inside a C asm statement. bpftrace reads them.
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL
case $(uname -m) in x86_64) ;; *) skip "the .S sample is x86_64 assembly" ;; esac
cat >"$T/main.c" <<'SRC'
#include <sys/sdt.h>
int asm_probed(int a, long b);
int main(void)
{
	int v = 7;
	long w = -9;

	__asm__ __volatile__("nop\n"
			     STAP_PROBE_ASM(inasm, literal, -4@%%edi)
			     "nop" : : "D"(v));
	/* glibc's form: operands and a %%register in an extended asm. */
	__asm__ __volatile__(STAP_PROBE_ASM(inasm, extended, -4@%0 8@%%rsp)
			     "nop" : : "r"(v));
	__asm__ __volatile__(STAP_PROBE_ASM(inasm, tmpl,
					    STAP_PROBE_ASM_TEMPLATE(2))
			     : : STAP_PROBE_ASM_OPERANDS(2, v, w));
	return asm_probed(5, -6) == 5 ? 0 : 1;
}
SRC
for cc in gcc clang; do
	$cc -I"$SDT_INCLUDE" -O2 -Wall -Wextra -pedantic -Werror -std=c11 \
		"$T/main.c" "$top_srcdir/tests/sdt/asm-probe.S" -o "$T/x" ||
		fail "$cc: build"
	"$T/x" || fail "$cc: the program fails"
	"$SDT_NOTES" "$T/x" >"$T/notes" || fail "$cc: invalid spec"
	expect_eq "$cc: probes" "asm:macros 8@%rdi -4@%esi
asm:two -4@%edi 8@%rsi
asm:zero 
inasm:literal -4@%edi" \
		"$(sed -n 's/^\([a-z]*:[a-z]*\) .* args=\(.*\)/\1 \2/p' "$T/notes" |
			grep -v 'tmpl\|extended' | sort)"
	grep -q '^inasm:extended .* args=-4@%e[a-z0-9]* 8@%rsp$' "$T/notes" ||
		fail "$cc: extended-asm probe: $(grep extended "$T/notes")"
	grep -q '^inasm:tmpl .* args=-4@[^ ]* -8@' "$T/notes" ||
		fail "$cc: template probe: $(grep tmpl "$T/notes")"
done
need_bpftrace
out=$(bpftrace_run -e "usdt:$T/x:asm:two { printf(\"two %d %d\\n\", arg0, arg1); }
usdt:$T/x:inasm:* { printf(\"%s %d\\n\", probe, arg0); }" -c "$T/x")
expect_eq "bpftrace reads the asm probes" "two 5 -6
usdt:$T/x:inasm:extended 7
usdt:$T/x:inasm:literal 7
usdt:$T/x:inasm:tmpl 7" "$(echo "$out" | grep -E '^(usdt|two)' | sort)"
echo "PASS: assembler and asm-statement probes"
