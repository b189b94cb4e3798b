/* Probes in assembler (see asm-mode.sh): arguments are written as specs. */
#include <sys/sdt.h>

	.text
	.globl	asm_probed
	.type	asm_probed, @function
asm_probed:
	STAP_PROBE(asm, zero)
	STAP_PROBE2(asm, two, -4@%edi, 8@%rsi)
	mov	%edi, %eax
	ret
	.size	asm_probed, .-asm_probed
	.section .note.GNU-stack,"",@progbits
