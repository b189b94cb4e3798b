/* SPDX-License-Identifier: MIT */
/*
 * <sys/sdt-config.h>: what the assembler under <sys/sdt.h> supports.
 *
 * SystemTap generates this file at configure time; programs and build
 * systems test _SDT_ASM_SECTION_AUTOGROUP_SUPPORT, so a drop-in must have
 * it. Ours is static: every assembler still in use (GNU as since 2.23,
 * LLVM's integrated assembler) accepts the "?" section flag. Each knob can
 * be preset with -D to override the default.
 */
#ifndef _SYS_SDT_CONFIG_H
#define _SYS_SDT_CONFIG_H 1

/*
 * 1: the assembler accepts .pushsection NAME,"?" (put the note in the
 * section group of the code around it, so a C++ inline function's probe
 * note is dropped together with the discarded copy of the function).
 */
#ifndef _SDT_ASM_SECTION_AUTOGROUP_SUPPORT
#define _SDT_ASM_SECTION_AUTOGROUP_SUPPORT 1
#endif

/*
 * Whether .stapsdt.base carries the "R" (SHF_GNU_RETAIN) flag, which keeps
 * it under --gc-sections. Left undefined, <sys/sdt.h> asks the assembler
 * itself: GNU as announces its version (.gasversion.) and has "R" since
 * 2.36; LLVM's integrated assembler has it since clang 13. Define to 0 or 1
 * to decide yourself.
 */
/* #define _SDT_ASM_SECTION_RETAIN_SUPPORT 1 */

#endif
