/* SPDX-License-Identifier: MIT */
/*
 * A note in .note.sdtkit written by hand at file scope, for the tests
 * that build type records without the headers or the generator:
 * NOTE(TYPE, BYTES) with owner "sdtkit", BYTES being assembler lines
 * such as S("text") (a NUL-terminated string) or B("1, 2") (bytes).
 */
#ifndef SDTKIT_TEST_NOTE_H
#define SDTKIT_TEST_NOTE_H

#define NOTE(type, bytes)                                                      \
	__asm__(".pushsection .note.sdtkit,\"\",%note\n"                       \
		".balign 4\n"                                                  \
		".4byte 7\n"                                                   \
		".4byte 2f-1f\n"                                               \
		".4byte " #type "\n"                                           \
		".asciz \"sdtkit\"\n"                                          \
		".balign 4\n"                                                  \
		"1:\n" bytes "2:\n"                                            \
		".balign 4\n"                                                  \
		".popsection\n")
#define S(text) ".asciz \"" text "\"\n"
#define B(bytes) ".byte " bytes "\n"

#endif
