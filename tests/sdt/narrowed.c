/*
 * One probe whose arguments are a 64-bit value cast to each narrower
 * integer type: the compiler may hand the asm statement the register that
 * holds the whole 64-bit value, since the cast changes no bits it keeps.
 * The value is negative and every narrowing of it is out of the narrow
 * type's range, which is what gdb 16 misreads when a register holds more
 * than the argument (tests/sdt/narrowed.sh).
 */
#include <sys/sdt.h>
#include <stdint.h>

/* Read through volatile: a register at run time, not a constant. */
static volatile int64_t wide = (int64_t)0x8899aabbccddeeffULL;

int main(void)
{
	int64_t v = wide;

	STAP_PROBE6(narrowed, casts, (int8_t)v, (uint8_t)v, (int16_t)v,
		    (uint16_t)v, (int32_t)v, (uint32_t)v);
	return 0;
}
