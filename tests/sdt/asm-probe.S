/* Probes in assembler (see asm-mode.sh): arguments are written as specs. */
#include <sys/sdt.h>

/* Specs built from macros, as glibc writes them (LP_SIZE@%RDI_LP). */
#define WORD_SIZE 8
#define FIRST_REG rdi

	.text
	.globl	asm_probed
	.type	asm_probed, @function
asm_probed:
	STAP_PROBE(asm, zero)
	STAP_PROBE2(asm, two, -4@%edi, 8@%rsi)
	STAP_PROBE2(asm, macros, WORD_SIZE@%FIRST_REG, -4@%esi)
	mov	%edi, %eax
	ret
	.size	asm_probed, .-asm_probed
	.section .note.GNU-stack,"",@progbits
