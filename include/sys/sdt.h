/* SPDX-License-Identifier: MIT */
/*
 * <sys/sdt.h>: static probes for Linux user-space tracing (USDT).
 *
 * A drop-in for SystemTap's header of the same name: the same macros
 * (STAP_PROBEn, DTRACE_PROBEn, STAP_PROBEV, the assembler forms, semaphores)
 * and the same note, which bpftrace, bcc, libbpf, gdb, perf and SystemTap
 * read. A probe is a nop in the code plus an ELF note in .note.stapsdt that
 * names it and says where each argument is when the nop is reached.
 *
 * What differs from SystemTap is where arguments are put. The note holds,
 * per argument, "[-]SIZE@OPERAND" with the operand printed by the compiler.
 * SystemTap lets the compiler pick any operand ("nor"), so real binaries
 * carry "gi(%rip)", "%fs:x@tpoff" or "(%rax,%rbx,8)" that some consumers
 * cannot read. Here the compiler only gets choices that every consumer
 * parses:
 *  - machines with 64-bit registers: a register ("r"), constants too:
 *    perf records no value for a constant operand, and on ppc64 constants
 *    and register numbers look alike. It costs one move per constant.
 *  - machines with 32-bit registers (i386, arm, ...): a copy of the
 *    argument in a local variable, passed as memory ("m"), which can only be
 *    a frame slot (register + displacement). This also covers 8-byte values,
 *    which no single register holds there, and probes with more arguments
 *    than the machine has free registers.
 * Floats travel as their raw bits (unsigned) in a general register, like
 * any value the program keeps in a vector, MMX or x87 register: SystemTap
 * writes "8f@%xmm0", whose suffix and register most consumers cannot read.
 * Struct, union, __int128 and long double arguments are refused at
 * compile time, with what to do.
 *
 * The probe site is one nop, one byte on x86 (the kernel may turn a 5-byte
 * nop into a call, which clobbers the red zone below the stack pointer),
 * plus whatever moves put the arguments where the note says. Nothing runs
 * when no tracer is attached. On x86_64, SDTKIT_FAST_ATTACH asks for a
 * site newer libbpf can enter with a call instead of a trap (see "The
 * site of a C or C++ probe" below).
 *
 * The layout of the note is written once (_SDT_NOTE), as assembler lines
 * that become a string for an asm statement in C and C++, or stay lines in
 * a preprocessed .S file (__ASSEMBLER__).
 */

/*
 * This header is formatted by hand: its macros build assembler text by
 * stringifying their arguments, and the spaces between those tokens are
 * part of the text (".pushsection .note.stapsdt" must not turn into
 * ".pushsection.note.stapsdt"), which no formatter can know.
 */
/* clang-format off */
#ifndef _SYS_SDT_H
#define _SYS_SDT_H 1

/*
 * Which <sys/sdt.h> a build got: ours defines SDTKIT_SDT_H to sdtkit's
 * version as MAJOR * 10000 + MINOR * 100 + PATCH (0.1.0: 100); SystemTap's
 * leaves it undefined. _SYS_SDT_H guards both, so whichever is included
 * first wins: test SDTKIT_SDT_H after the #include, not before.
 */
#define SDTKIT_SDT_H 100

#include "sdt-config.h"

/*
 * STAP_SDT_V1 and STAP_SDT_V2 asked old SystemTap headers for older note
 * versions. Every consumer reads version 3, which is all we write: the
 * macros are accepted and change nothing.
 */

/* ---- One block per architecture ---------------------------------------
 * _SDT_NOP          the probe site instruction
 * _SDT_ARG_IN_FRAME 1: arguments are copied to frame slots ("m")
 * _SDT_ARG_REG      otherwise, the constraint for an argument
 * _SDT_ARG_PRINT    operand modifier naming the register ("%q": %rax)
 * _SDT_ARG_EXTEND   1: the spec names the whole 64-bit register, so an
 *                   integer narrower than it is passed extended from its
 *                   own type (below, _SDT_REG_VALUE)
 */
#if defined(__x86_64__)
/* The 64-bit names: gdb knows no %r8b..%r15b; the size says the width. */
#define _SDT_NOP nop
#define _SDT_ARG_IN_FRAME 0
#define _SDT_ARG_REG "r"
#define _SDT_ARG_PRINT "%q"
#define _SDT_ARG_EXTEND 1
#elif defined(__i386__)
#define _SDT_NOP nop
#define _SDT_ARG_IN_FRAME 1
#define _SDT_ARG_REG "r"
#define _SDT_ARG_PRINT "%k"
#define _SDT_FRAME_TEXT(s, o) "%n" #s "@%c" #o "(%k0)"
#elif defined(__aarch64__)
/* Always the x register (clang warns about a narrow value otherwise). */
#define _SDT_NOP nop
#define _SDT_ARG_IN_FRAME 0
#define _SDT_ARG_REG "r"
#define _SDT_ARG_PRINT "%x"
#define _SDT_ARG_EXTEND 1
#elif defined(__arm__)
#define _SDT_NOP nop
#define _SDT_ARG_IN_FRAME 1
#define _SDT_ARG_REG "r"
#define _SDT_ARG_PRINT "%"
#define _SDT_FRAME_TEXT(s, o) "%n" #s "@[%0, #%c" #o "]"
#elif defined(__riscv) && __riscv_xlen == 64
#define _SDT_NOP nop
#define _SDT_ARG_IN_FRAME 0
#define _SDT_ARG_REG "r"
#define _SDT_ARG_PRINT "%"
#define _SDT_ARG_EXTEND 1
#elif defined(__powerpc64__)
/* Registers print as bare numbers: a constant must never be one. */
#define _SDT_NOP nop
#define _SDT_ARG_IN_FRAME 0
#define _SDT_ARG_REG "r"
#define _SDT_ARG_PRINT "%"
#elif defined(__s390x__)
/* The 4-byte nop: uprobes and SystemTap expect "nop 0" here. */
#define _SDT_NOP nop 0
#define _SDT_ARG_IN_FRAME 0
#define _SDT_ARG_REG "r"
#define _SDT_ARG_PRINT "%"
#else
/* Anything else: frame slots when registers are narrower than 8 bytes. */
#if defined(__s390__) || defined(__ia64__)
#define _SDT_NOP nop 0
#else
#define _SDT_NOP nop
#endif
#if defined(__LP64__) || defined(_LP64)
#define _SDT_ARG_IN_FRAME 0
#else
#define _SDT_ARG_IN_FRAME 1
#endif
#define _SDT_ARG_REG "r"
#define _SDT_ARG_PRINT "%"
#define _SDT_FRAME_TEXT(s, o) "%n" #s "@%c" #o "(%0)"
#endif
#ifndef _SDT_ARG_EXTEND
#define _SDT_ARG_EXTEND 0
#endif

/*
 * What the asm statement gets for an argument: a value, not the variable.
 * A register variable is otherwise handed over in its own register, where
 * clang binds it even if the constraint's class does not hold it: `register
 * int r asm("xmm0")' would print as %xmm0, %mm0 or %st, which no tracer
 * but SystemTap reads (clang refuses the "%q" of such a register outright).
 * As a value, it is moved to a general register like any other.
 *
 * A user-chosen constraint wins, applied to the argument itself as
 * SystemTap does.
 */
#ifdef STAP_SDT_ARG_CONSTRAINT
#undef _SDT_ARG_IN_FRAME
#define _SDT_ARG_IN_FRAME 0
#undef _SDT_ARG_EXTEND
#define _SDT_ARG_EXTEND 0
#undef _SDT_ARG_REG
#define _SDT_ARG_REG _SDT_STR(STAP_SDT_ARG_CONSTRAINT)
#define _SDT_ARG_VALUE(x) (x)
#elif defined(__cplusplus) && defined(__clang__)
/* Through __sdt_pass(): pointers to data members as integers (below). */
#define _SDT_ARG_VALUE(x) __sdt_pass(x)
#else
#define _SDT_ARG_VALUE(x) ((void)0, (x))
#endif

#if (defined(__SIZEOF_POINTER__) && __SIZEOF_POINTER__ == 8) ||             \
	(!defined(__SIZEOF_POINTER__) && (defined(__LP64__) || defined(_LP64)))
#define _SDT_ASM_ADDR .8byte
#define _SDT_ASM_ADDR_TEXT ".8byte"
#else
#define _SDT_ASM_ADDR .4byte
#define _SDT_ASM_ADDR_TEXT ".4byte"
#endif

#define _SDT_STR_(x) #x
#define _SDT_STR(x) _SDT_STR_(x)
#define _SDT_CAT_(a, b) a##b
#define _SDT_CAT(a, b) _SDT_CAT_(a, b)

/* ---- Assembler lines: a string in C and C++, lines in a .S file ------- */
#ifdef __ASSEMBLER__
#define _SDT_ASM1(a) a;
#define _SDT_ASM2(a, b) a, b;
#define _SDT_ASM3(a, b, c) a, b, c;
#define _SDT_ASM5(a, b, c, d, e) a, b, c, d, e;
#else
#define _SDT_ASM1(a) _SDT_STR(a) "\n"
#define _SDT_ASM2(a, b) _SDT_STR(a) "," _SDT_STR(b) "\n"
#define _SDT_ASM3(a, b, c) _SDT_STR(a) "," _SDT_STR(b) "," _SDT_STR(c) "\n"
#define _SDT_ASM5(a, b, c, d, e)                                               \
	_SDT_STR(a) "," _SDT_STR(b) "," _SDT_STR(c) "," _SDT_STR(d) ","       \
		_SDT_STR(e) "\n"
#endif

/*
 * The note's name and type, as SystemTap's header defines them: programs
 * test them (gdb's own test: "#if _SDT_NOTE_TYPE != 3").
 */
#define _SDT_NOTE_NAME "stapsdt"
#define _SDT_NOTE_TYPE 3

#if _SDT_ASM_SECTION_AUTOGROUP_SUPPORT
#define _SDT_NOTE_GROUP "?"
#else
#define _SDT_NOTE_GROUP ""
#endif

#if defined _SDT_HAS_SEMAPHORES
#define _SDT_SEMAPHORE(provider, name) provider##_##name##_semaphore
#else
#define _SDT_SEMAPHORE(provider, name) 0
#endif

/*
 * The note (NT_STAPSDT, version 3): name "stapsdt"; then the probe's
 * address, the address of _.stapsdt.base (tracers adjust the first by how
 * far the second moved, e.g. under prelink), the semaphore's address or 0;
 * then provider, name and argument spec as C strings. ARGS is the line
 * that emits the spec. The "?" flag puts the note in the section group of
 * the code around it, so it goes away with a discarded inline function.
 */
#define _SDT_NOTE(provider, name, args)                                        \
	_SDT_ASM1(990: _SDT_NOP) _SDT_NOTE_DESC(provider, name, args)
/* The note alone, for a site that puts its own instructions at 990. */
#define _SDT_NOTE_DESC(provider, name, args)                                   \
	_SDT_NOTE_DESC_AT(provider, name, _SDT_SEMAPHORE(provider, name), args)
/* The same with the semaphore's symbol (or 0) given: <usdt.h> names its own. */
#ifdef __ASSEMBLER__
#define _SDT_NOTE_DESC_AT(provider, name, semaphore, args)                     \
	_SDT_ASM3(.pushsection .note.stapsdt, _SDT_NOTE_GROUP, "note")         \
	_SDT_ASM1(.balign 4)                                                   \
	_SDT_ASM3(.4byte 992f-991f, 994f-993f, _SDT_NOTE_TYPE)                 \
	_SDT_ASM1(991: .asciz _SDT_NOTE_NAME)                                  \
	_SDT_ASM1(992: .balign 4)                                              \
	_SDT_ASM1(993: _SDT_ASM_ADDR 990b)                                     \
	_SDT_ASM1(_SDT_ASM_ADDR _.stapsdt.base)                                \
	_SDT_ASM1(_SDT_ASM_ADDR semaphore)                                     \
	_SDT_ASM1(.asciz _SDT_STR(provider))                                   \
	_SDT_ASM1(.asciz _SDT_STR(name))                                       \
	args                                                                   \
	_SDT_ASM1(994: .balign 4)                                              \
	_SDT_ASM1(.popsection)
#else
/*
 * In C the same lines, but as few macro calls as can be: a probe expands
 * this once per site, and the compiler's time goes into macro calls.
 */
#define _SDT_NOTE_DESC_AT(provider, name, semaphore, args)                     \
	_SDT_NOTE_HEAD_TEXT _SDT_STR_(semaphore) "\n.asciz \""               \
	_SDT_STR_(provider) "\"\n.asciz \"" _SDT_STR_(name) "\"\n" args       \
	"994: .balign 4\n.popsection\n"
#define _SDT_NOTE_HEAD_TEXT                                                    \
	".pushsection .note.stapsdt,\"" _SDT_NOTE_GROUP "\",\"note\"\n"       \
	".balign 4\n.4byte 992f-991f,994f-993f,3\n991: .asciz \"stapsdt\"\n"  \
	"992: .balign 4\n993: " _SDT_ASM_ADDR_TEXT " 990b\n"                  \
	_SDT_ASM_ADDR_TEXT " _.stapsdt.base\n" _SDT_ASM_ADDR_TEXT " "
#endif

/*
 * _.stapsdt.base: one byte per linked object, whatever the number of probes
 * (a comdat group keeps one copy). Only the notes refer to it, and they are
 * not allocated, so --gc-sections would drop it: "R" (retain) keeps it
 * where the assembler knows the flag.
 */
#define _SDT_BASE_PUSH_AGR                                                     \
	".pushsection .stapsdt.base,\"aGR\",\"progbits\",.stapsdt.base,comdat\n"
#define _SDT_BASE_PUSH_AG                                                      \
	".pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n"
#if !defined(_SDT_ASM_SECTION_RETAIN_SUPPORT)
#if defined(__clang__) && __clang_major__ >= 13
#define _SDT_BASE_FLAGS_OTHER "aGR"
#define _SDT_BASE_PUSH_OTHER _SDT_BASE_PUSH_AGR
#else
#define _SDT_BASE_FLAGS_OTHER "aG"
#define _SDT_BASE_PUSH_OTHER _SDT_BASE_PUSH_AG
#endif
#define _SDT_BASE_SECTION                                                      \
	_SDT_ASM1(.ifdef .gasversion.)                                         \
	_SDT_ASM1(.if .gasversion.>=23600)                                     \
	_SDT_BASE_PUSH("aGR")                                                  \
	_SDT_ASM1(.else)                                                       \
	_SDT_BASE_PUSH("aG")                                                   \
	_SDT_ASM1(.endif)                                                      \
	_SDT_ASM1(.else)                                                       \
	_SDT_BASE_PUSH(_SDT_BASE_FLAGS_OTHER)                                  \
	_SDT_ASM1(.endif)
#define _SDT_BASE_SECTION_TEXT                                                 \
	".ifdef .gasversion.\n.if .gasversion.>=23600\n" _SDT_BASE_PUSH_AGR    \
	".else\n" _SDT_BASE_PUSH_AG ".endif\n.else\n" _SDT_BASE_PUSH_OTHER     \
	".endif\n"
#elif _SDT_ASM_SECTION_RETAIN_SUPPORT
#define _SDT_BASE_SECTION _SDT_BASE_PUSH("aGR")
#define _SDT_BASE_SECTION_TEXT _SDT_BASE_PUSH_AGR
#else
#define _SDT_BASE_SECTION _SDT_BASE_PUSH("aG")
#define _SDT_BASE_SECTION_TEXT _SDT_BASE_PUSH_AG
#endif
#define _SDT_BASE_PUSH(flags)                                                  \
	_SDT_ASM5(.pushsection .stapsdt.base, flags, "progbits",               \
		  .stapsdt.base, comdat)

#ifdef __ASSEMBLER__
#define _SDT_BASE                                                              \
	_SDT_ASM1(.ifndef _.stapsdt.base)                                      \
	_SDT_BASE_SECTION                                                      \
	_SDT_ASM1(.weak _.stapsdt.base)                                        \
	_SDT_ASM1(.hidden _.stapsdt.base)                                      \
	_SDT_ASM1(_.stapsdt.base: .space 1)                                    \
	_SDT_ASM2(.size _.stapsdt.base, 1)                                     \
	_SDT_ASM1(.popsection)                                                 \
	_SDT_ASM1(.endif)
#else
/* The same lines as one string: no macro call per probe. */
#define _SDT_BASE                                                              \
	".ifndef _.stapsdt.base\n" _SDT_BASE_SECTION_TEXT                      \
	".weak _.stapsdt.base\n.hidden _.stapsdt.base\n"                       \
	"_.stapsdt.base: .space 1\n.size _.stapsdt.base,1\n.popsection\n"      \
	".endif\n"
#endif

#ifdef __ASSEMBLER__
/* ---- .S files: arguments are written as specs, "-4@%eax" -------------- */
#define _SDT_DEPAREN_0()
#define _SDT_DEPAREN_1(a) a
#define _SDT_DEPAREN_2(a, b) a b
#define _SDT_DEPAREN_3(a, b, c) a b c
#define _SDT_DEPAREN_4(a, b, c, d) a b c d
#define _SDT_DEPAREN_5(a, b, c, d, e) a b c d e
#define _SDT_DEPAREN_6(a, b, c, d, e, f) a b c d e f
#define _SDT_DEPAREN_7(a, b, c, d, e, f, g) a b c d e f g
#define _SDT_DEPAREN_8(a, b, c, d, e, f, g, h) a b c d e f g h
#define _SDT_DEPAREN_9(a, b, c, d, e, f, g, h, i) a b c d e f g h i
#define _SDT_DEPAREN_10(a, b, c, d, e, f, g, h, i, j) a b c d e f g h i j
#define _SDT_DEPAREN_11(a, b, c, d, e, f, g, h, i, j, k) a b c d e f g h i j k
#define _SDT_DEPAREN_12(a, b, c, d, e, f, g, h, i, j, k, l)                    \
	a b c d e f g h i j k l
#define _SDT_ASM_SPEC(spec) _SDT_ASM1(.asciz _SDT_STR(spec))
#define _SDT_ASM_ARGS_0() _SDT_ASM1(.asciz "")
#define _SDT_ASM_ARGS_1(a) _SDT_ASM_SPEC(_SDT_DEPAREN_1(a))
#define _SDT_ASM_ARGS_2(a, b) _SDT_ASM_SPEC(_SDT_DEPAREN_2(a, b))
#define _SDT_ASM_ARGS_3(a, b, c) _SDT_ASM_SPEC(_SDT_DEPAREN_3(a, b, c))
#define _SDT_ASM_ARGS_4(a, b, c, d) _SDT_ASM_SPEC(_SDT_DEPAREN_4(a, b, c, d))
#define _SDT_ASM_ARGS_5(a, b, c, d, e) \
	_SDT_ASM_SPEC(_SDT_DEPAREN_5(a, b, c, d, e))
#define _SDT_ASM_ARGS_6(a, b, c, d, e, f) \
	_SDT_ASM_SPEC(_SDT_DEPAREN_6(a, b, c, d, e, f))
#define _SDT_ASM_ARGS_7(a, b, c, d, e, f, g) \
	_SDT_ASM_SPEC(_SDT_DEPAREN_7(a, b, c, d, e, f, g))
#define _SDT_ASM_ARGS_8(a, b, c, d, e, f, g, h) \
	_SDT_ASM_SPEC(_SDT_DEPAREN_8(a, b, c, d, e, f, g, h))
#define _SDT_ASM_ARGS_9(a, b, c, d, e, f, g, h, i) \
	_SDT_ASM_SPEC(_SDT_DEPAREN_9(a, b, c, d, e, f, g, h, i))
#define _SDT_ASM_ARGS_10(a, b, c, d, e, f, g, h, i, j) \
	_SDT_ASM_SPEC(_SDT_DEPAREN_10(a, b, c, d, e, f, g, h, i, j))
#define _SDT_ASM_ARGS_11(a, b, c, d, e, f, g, h, i, j, k) \
	_SDT_ASM_SPEC(_SDT_DEPAREN_11(a, b, c, d, e, f, g, h, i, j, k))
#define _SDT_ASM_ARGS_12(a, b, c, d, e, f, g, h, i, j, k, l) \
	_SDT_ASM_SPEC(_SDT_DEPAREN_12(a, b, c, d, e, f, g, h, i, j, k, l))
#define _SDT_PROBE(provider, name, n, args)                                    \
	_SDT_NOTE(provider, name, _SDT_ASM_ARGS_##n args)                      \
	_SDT_BASE

#else /* C and C++ */

/* ---- What each argument is: size, signedness, whether we can pass it -- */
#if _SDT_ARG_EXTEND
/* A register's width, without "long long" (C89 and C++98 have none). */
typedef int __sdt_wide __attribute__((__mode__(__DI__)));
#endif
#ifdef __cplusplus
/*
 * __sdt_decay(x) has the type x has once passed by value: arrays and
 * functions become pointers, cv-qualifiers go. Only used under __typeof__.
 */
template <typename __sdt_T> __sdt_T __sdt_decay(__sdt_T);
#define _SDT_TYPE(x) __typeof__(__sdt_decay(x))

/* Kind: 0 arithmetic or pointer, 1 enumeration, 2 class or union. */
template <typename __sdt_T, int __sdt_kind> struct __sdt_sign_of {
	enum { value = (__sdt_T)-1 < (__sdt_T)1 };
};
template <typename __sdt_T> struct __sdt_sign_of<__sdt_T, 1> {
	enum {
		value = (__underlying_type(__sdt_T))-1 <
			(__underlying_type(__sdt_T))1
	};
};
template <typename __sdt_T> struct __sdt_sign_of<__sdt_T, 2> {
	enum { value = 0 };
};
template <typename __sdt_T> struct __sdt_type {
	enum {
		is_signed = __sdt_sign_of<__sdt_T,
					  __is_enum(__sdt_T) ? 1 :
					  __is_class(__sdt_T) ||
							  __is_union(__sdt_T) ?
							  2 :
							  0>::value,
		is_record = __is_class(__sdt_T) || __is_union(__sdt_T)
	};
};
/* Pointers (also to functions) and floats are unsigned bits. */
template <typename __sdt_T> struct __sdt_type<__sdt_T *> {
	enum { is_signed = 0, is_record = 0 };
};
template <> struct __sdt_type<bool> {
	enum { is_signed = 0, is_record = 0 };
};
template <> struct __sdt_type<float> {
	enum { is_signed = 0, is_record = 0 };
};
template <> struct __sdt_type<double> {
	enum { is_signed = 0, is_record = 0 };
};
template <> struct __sdt_type<long double> {
	enum { is_signed = 0, is_record = 0 };
};
/* Pointers to data members are offsets; nullptr is a null pointer. */
template <typename __sdt_T, typename __sdt_C>
struct __sdt_type<__sdt_T __sdt_C::*> {
	enum { is_signed = 0, is_record = 0 };
};
#if __cplusplus >= 201103L
template <> struct __sdt_type<decltype(nullptr)> {
	enum { is_signed = 0, is_record = 0 };
};
#endif

/*
 * A register operand's value: the argument itself, but a pointer to a
 * data member as the unsigned integer of its size (its bits, an offset):
 * clang 19 and later refuse a pointer-to-member in a register-constrained
 * operand ("cannot pass a pointer-to-member through register-constrained
 * inline assembly parameter"), and so fail on SystemTap's header too.
 * Inlined even at -O0. Only with clang: gcc takes the pointer as it is,
 * and would see through the call a freed or unset argument that the asm
 * statement's own diagnostics pragmas keep quiet. A pointer to a member
 * function (two words) has no integer of its size: it stays refused by
 * _SDT_CHECK.
 */
template <int __sdt_n> struct __sdt_uint {
	typedef unsigned long type; /* 8 bytes: LP64; C++98 has no long long */
};
template <> struct __sdt_uint<4> {
	typedef unsigned int type;
};
template <typename __sdt_T>
__attribute__((__always_inline__)) inline __sdt_T __sdt_pass(__sdt_T __sdt_v)
{
	return __sdt_v;
}
template <typename __sdt_T, typename __sdt_C>
__attribute__((__always_inline__)) inline
	typename __sdt_uint<sizeof(__sdt_T __sdt_C::*)>::type
	__sdt_pass(__sdt_T __sdt_C::*__sdt_v)
{
	typename __sdt_uint<sizeof(__sdt_v)>::type __sdt_bits;

	__builtin_memcpy(&__sdt_bits, &__sdt_v, sizeof(__sdt_bits));
	return __sdt_bits;
}

#if _SDT_ARG_EXTEND
/*
 * __typeof__(__sdt_reg<T>::value) is the type an argument of type T is
 * passed as (_SDT_REG_VALUE): __sdt_wide for bool, enumerations and the
 * integer types narrower than it, T itself for anything else. A static
 * member's type, not a typedef: it needs no "typename" where T depends
 * on a template parameter. Only declared.
 */
template <typename __sdt_T, bool __sdt_enum = __is_enum(__sdt_T)>
struct __sdt_reg {
	static __sdt_T value;
};
template <typename __sdt_T> struct __sdt_reg<__sdt_T, true> {
	static __sdt_wide value;
};
#define _SDT_WIDENED(type)                                                     \
	template <> struct __sdt_reg<type, false> {                            \
		static __sdt_wide value;                                       \
	};
_SDT_WIDENED(bool)
_SDT_WIDENED(char)
_SDT_WIDENED(signed char)
_SDT_WIDENED(unsigned char)
_SDT_WIDENED(short)
_SDT_WIDENED(unsigned short)
_SDT_WIDENED(int)
_SDT_WIDENED(unsigned int)
_SDT_WIDENED(wchar_t)
#if __SIZEOF_LONG__ < 8
_SDT_WIDENED(long)
_SDT_WIDENED(unsigned long)
#endif
#if __cplusplus >= 201103L
_SDT_WIDENED(char16_t)
_SDT_WIDENED(char32_t)
#endif
#ifdef __cpp_char8_t
_SDT_WIDENED(char8_t)
#endif
#undef _SDT_WIDENED
#endif

#define _SDT_ARG_SIZE(x) sizeof(_SDT_TYPE(x))
#define _SDT_ARG_SIGNED(x) (__sdt_type<_SDT_TYPE(x)>::is_signed)
#define _SDT_ARG_IS_RECORD(x) (__sdt_type<_SDT_TYPE(x)>::is_record)

#else /* C */
/*
 * __builtin_classify_type: 1 integer, 2 char, 3 enum, 4 bool, 5 pointer,
 * 8 real, 9 complex, 10 function, 12 struct, 13 union, 14 array.
 */
#define _SDT_CLASS(x) __builtin_classify_type(x)
#define _SDT_IS_INTEGER(x) (_SDT_CLASS(x) >= 1 && _SDT_CLASS(x) <= 4)
#define _SDT_IS_ADDRESS(x)                                                     \
	(_SDT_CLASS(x) == 5 || _SDT_CLASS(x) == 10 || _SDT_CLASS(x) == 14)
/*
 * x as a value: typeof and sizeof refuse a bit-field member itself, not a
 * comma expression yielding it (gcc gives it a type of the field's width,
 * clang the promoted type; either holds the value).
 */
#define _SDT_RVALUE(x) ((void)0, (x))
/* The integer type of x, or unsigned int for anything else. */
#define _SDT_INT_TYPE(x)                                                       \
	__typeof__(__builtin_choose_expr(_SDT_IS_INTEGER(x), _SDT_RVALUE(x), 0U))
#define _SDT_ARG_SIZE(x)                                                       \
	sizeof(__builtin_choose_expr(_SDT_IS_ADDRESS(x), (void *)0,           \
				     _SDT_RVALUE(x)))
#define _SDT_ARG_SIGNED(x) ((_SDT_INT_TYPE(x))-1 < (_SDT_INT_TYPE(x))1)
#define _SDT_ARG_IS_RECORD(x)                                                  \
	(_SDT_CLASS(x) == 9 || _SDT_CLASS(x) == 12 || _SDT_CLASS(x) == 13)
#endif

/* -SIZE for a signed argument, SIZE otherwise: printed as the spec prefix. */
#define _SDT_ARG_SIZE_SIGN(x)                                                  \
	(_SDT_ARG_SIGNED(x) ? -(int)_SDT_ARG_SIZE(x) : (int)_SDT_ARG_SIZE(x))

/*
 * The same per argument i, from names the probe's block declares first
 * (_SDT_DECL_TYPES): _SDT_V<i>, the type passed (an address as void *),
 * and in C _SDT_K<i>, its class, and _SDT_I<i>, its integer type. Each
 * argument's text is then written out a handful of times per probe
 * instead of two dozen (size, sign, checks), which was most of what a
 * probe cost to compile.
 */
#ifdef __cplusplus
#define _SDT_DECL_TYPES(i, x) typedef _SDT_TYPE(x) _SDT_V##i;
#define _SDT_SIGNED_OF(i) (__sdt_type<_SDT_V##i>::is_signed)
#define _SDT_RECORD_OF(i) (__sdt_type<_SDT_V##i>::is_record)
#define _SDT_OK_OF(i)                                                          \
	(!_SDT_RECORD_OF(i) && (sizeof(_SDT_V##i) == 1 || sizeof(_SDT_V##i) == 2 || \
				sizeof(_SDT_V##i) == 4 || sizeof(_SDT_V##i) == 8))
#else
/*
 * The class's tests are bits of a mask, and the macros here call as few
 * others as they can: a probe expands them at every site, and macro
 * calls, then && and || (which clang checks operand by operand), were
 * most of what a probe cost to compile. Bit k of a class mask is class k.
 */
#define _SDT_INTEGERS 0x1e   /* 1 integer, 2 char, 3 enum, 4 bool */
#define _SDT_ADDRESSES 0x4420 /* 5 pointer, 10 function, 14 array */
#define _SDT_RECORDS 0x3200  /* 9 complex, 12 struct, 13 union */
#define _SDT_SIZES 0x116     /* bit n: n bytes fit a register operand */
/*
 * The argument's text appears once, in the typedef _SDT_X<i> of its value's
 * type; the rest names a value of that type as *(_SDT_X<i> *)0. clang
 * takes a compound literal, `((struct s){a}).a', for one of file scope in
 * an enumerator's expression, and refuses it there.
 */
#define _SDT_DECL_TYPES(i, x)                                                  \
	typedef __typeof__(((void)0, (x))) _SDT_X##i;                          \
	enum { _SDT_K##i = __builtin_classify_type(*(_SDT_X##i *)0) };         \
	typedef __typeof__(__builtin_choose_expr(                              \
		(_SDT_ADDRESSES >> (_SDT_K##i & 31)) & 1, (void *)0,          \
		*(_SDT_X##i *)0)) _SDT_V##i;                                   \
	typedef __typeof__(__builtin_choose_expr(                              \
		(_SDT_INTEGERS >> (_SDT_K##i & 31)) & 1, *(_SDT_X##i *)0, 0U)) \
		_SDT_I##i;
#define _SDT_ADDRESS_OF(i) ((_SDT_ADDRESSES >> (_SDT_K##i & 31)) & 1)
#define _SDT_SIGNED_OF(i) ((_SDT_I##i)-1 < (_SDT_I##i)1)
#define _SDT_RECORD_OF(i) ((_SDT_RECORDS >> (_SDT_K##i & 31)) & 1)
/*
 * 1, 2, 4 or 8 bytes and not a record: what is no record (integers,
 * floats, addresses) has no size whose low five bits are one of those but
 * these.
 */
#define _SDT_OK_OF(i)                                                          \
	((_SDT_SIZES >> (sizeof(_SDT_V##i) & 31)) &                            \
	 ~(_SDT_RECORDS >> (_SDT_K##i & 31)) & 1)
#endif

/*
 * Refuse what no register holds, saying what to pass instead. With the
 * names above, declarations, so they must come first in the probe's block.
 */
#define _SDT_CHECK_MESSAGE                                                     \
	"sys/sdt.h: a probe argument must be an integer, enum, bool, "        \
	"pointer, float or double (1, 2, 4 or 8 bytes); for a struct, union, " \
	"__int128 or long double pass a pointer to it or one of its scalar "   \
	"fields instead"
#if defined(__cplusplus) && __cplusplus >= 201103L
#define _SDT_CHECK_ALL(ok) static_assert(ok, _SDT_CHECK_MESSAGE);
#elif defined(__cplusplus)
/*
 * C++98: only the true case is complete, so sizeof fails for a bad
 * argument with an error naming this template. An enumerator, not a
 * typedef: it needs no "typename" where the argument's type depends on a
 * template parameter.
 */
template <bool __sdt_ok>
struct __sdt_probe_argument_must_be_scalar__pass_a_pointer_or_a_field_instead;
template <>
struct __sdt_probe_argument_must_be_scalar__pass_a_pointer_or_a_field_instead<true> {
};
#define _SDT_CHECK_ALL(ok)                                                     \
	enum {                                                                 \
		_SDT_CHECKED = sizeof(                                         \
			__sdt_probe_argument_must_be_scalar__pass_a_pointer_or_a_field_instead< \
				(ok)>)                                         \
	};
#else
#define _SDT_CHECK_ALL(ok)                                                     \
	__extension__ _Static_assert(ok, _SDT_CHECK_MESSAGE);
#endif

/* ---- How the arguments reach the asm statement -----------------------
 * Registers: operand 2i-2 is argument i's signed size, negated, 2i-1 its
 *   value: "%n0@%q1" prints "-4@%rdi".
 * Frame: the arguments are copied into one local struct whose address is
 *   operand 0, in a register; operand 2i-1 is argument i's signed size,
 *   negated, 2i its offset in the struct: "%n1@%c2(%k0)" prints
 *   "-4@8(%eax)". One register serves all arguments, however far the
 *   struct is from the stack pointer (arm cannot reach far slots without
 *   one per argument).
 * The size is printed with %n (minus the constant), not %c: gcc for x32
 * (-mx32) refuses %c of a negative constant, as it is no valid address
 * there.
 * Numbered operands, not named: they keep the asm string within the 509
 * characters C90 promises (clang -pedantic checks).
 */
#define _SDT_SIZE_OPERAND(x) "n"(-(_SDT_ARG_SIZE_SIGN(x)))
#define _SDT_SIZE_OPERAND_OF(i)                                                \
	"n"(_SDT_SIGNED_OF(i) ? (int)sizeof(_SDT_V##i) : -(int)sizeof(_SDT_V##i))
#define _SDT_REG_OPERAND(i, x)                                                 \
	_SDT_SIZE_OPERAND_OF(i), _SDT_ARG_REG(_SDT_REG_VALUE(i, x))
#define _SDT_FRAME_OPERAND(i, x)                                               \
	_SDT_SIZE_OPERAND_OF(i),                                               \
		"n"(__builtin_offsetof(__typeof__(_SDT_FRAME), _SDT_F##i))
/*
 * Each field's type is named by a typedef before the struct: inside the
 * struct, clang takes "this" (also implied by a member's name) as the
 * struct's own, which has none.
 */
#define _SDT_FIELD(i, x) _SDT_T##i _SDT_F##i;
#ifdef __cplusplus
#define _SDT_FIELD_TYPE(i, x) typedef _SDT_V##i _SDT_T##i;
#define _SDT_VALUE(i, x) (x)
#else
/* Addresses (pointers, arrays, functions) as integers of their size. */
#define _SDT_FIELD_TYPE(i, x)                                                  \
	typedef __typeof__(__builtin_choose_expr(_SDT_ADDRESS_OF(i), 0UL,      \
						 _SDT_RVALUE(x))) _SDT_T##i;
#define _SDT_VALUE(i, x)                                                       \
	__builtin_choose_expr(_SDT_ADDRESS_OF(i), (unsigned long)(x), (x))
#endif

/* _SDT_EACH_n(M, a1..an): M(1, a1), ..., M(n, an), the operand lists. */
#define _SDT_EACH_1(m, a1) m(1, a1)
#define _SDT_EACH_2(m, a1, a2) \
	m(1, a1), m(2, a2)
#define _SDT_EACH_3(m, a1, a2, a3) \
	m(1, a1), m(2, a2), m(3, a3)
#define _SDT_EACH_4(m, a1, a2, a3, a4) \
	m(1, a1), m(2, a2), m(3, a3), m(4, a4)
#define _SDT_EACH_5(m, a1, a2, a3, a4, a5) \
	m(1, a1), m(2, a2), m(3, a3), m(4, a4), m(5, a5)
#define _SDT_EACH_6(m, a1, a2, a3, a4, a5, a6) \
	m(1, a1), m(2, a2), m(3, a3), m(4, a4), m(5, a5), m(6, a6)
#define _SDT_EACH_7(m, a1, a2, a3, a4, a5, a6, a7) \
	m(1, a1), m(2, a2), m(3, a3), m(4, a4), m(5, a5), m(6, a6), m(7, a7)
#define _SDT_EACH_8(m, a1, a2, a3, a4, a5, a6, a7, a8) \
	m(1, a1), m(2, a2), m(3, a3), m(4, a4), m(5, a5), m(6, a6), m(7, a7), m(8, a8)
#define _SDT_EACH_9(m, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
	m(1, a1), m(2, a2), m(3, a3), m(4, a4), m(5, a5), m(6, a6), m(7, a7), m(8, a8), m(9, a9)
#define _SDT_EACH_10(m, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
	m(1, a1), m(2, a2), m(3, a3), m(4, a4), m(5, a5), m(6, a6), m(7, a7), m(8, a8), m(9, a9), m(10, a10)
#define _SDT_EACH_11(m, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
	m(1, a1), m(2, a2), m(3, a3), m(4, a4), m(5, a5), m(6, a6), m(7, a7), m(8, a8), m(9, a9), m(10, a10), m(11, a11)
#define _SDT_EACH_12(m, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
	m(1, a1), m(2, a2), m(3, a3), m(4, a4), m(5, a5), m(6, a6), m(7, a7), m(8, a8), m(9, a9), m(10, a10), m(11, a11), m(12, a12)

/* _SDT_ALL_n(M, a1..an): the same, without commas: declarations, checks. */
#define _SDT_ALL_1(m, a1) m(1, a1)
#define _SDT_ALL_2(m, a1, a2) \
	m(1, a1) m(2, a2)
#define _SDT_ALL_3(m, a1, a2, a3) \
	m(1, a1) m(2, a2) m(3, a3)
#define _SDT_ALL_4(m, a1, a2, a3, a4) \
	m(1, a1) m(2, a2) m(3, a3) m(4, a4)
#define _SDT_ALL_5(m, a1, a2, a3, a4, a5) \
	m(1, a1) m(2, a2) m(3, a3) m(4, a4) m(5, a5)
#define _SDT_ALL_6(m, a1, a2, a3, a4, a5, a6) \
	m(1, a1) m(2, a2) m(3, a3) m(4, a4) m(5, a5) m(6, a6)
#define _SDT_ALL_7(m, a1, a2, a3, a4, a5, a6, a7) \
	m(1, a1) m(2, a2) m(3, a3) m(4, a4) m(5, a5) m(6, a6) m(7, a7)
#define _SDT_ALL_8(m, a1, a2, a3, a4, a5, a6, a7, a8) \
	m(1, a1) m(2, a2) m(3, a3) m(4, a4) m(5, a5) m(6, a6) m(7, a7) m(8, a8)
#define _SDT_ALL_9(m, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
	m(1, a1) m(2, a2) m(3, a3) m(4, a4) m(5, a5) m(6, a6) m(7, a7) m(8, a8) m(9, a9)
#define _SDT_ALL_10(m, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
	m(1, a1) m(2, a2) m(3, a3) m(4, a4) m(5, a5) m(6, a6) m(7, a7) m(8, a8) m(9, a9) m(10, a10)
#define _SDT_ALL_11(m, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
	m(1, a1) m(2, a2) m(3, a3) m(4, a4) m(5, a5) m(6, a6) m(7, a7) m(8, a8) m(9, a9) m(10, a10) m(11, a11)
#define _SDT_ALL_12(m, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
	m(1, a1) m(2, a2) m(3, a3) m(4, a4) m(5, a5) m(6, a6) m(7, a7) m(8, a8) m(9, a9) m(10, a10) m(11, a11) m(12, a12)

/* Per argument count: checks, the frame copy, operands and spec text. */
/* The names of each argument's type and class alone (<usdt.h>'s locals). */
#define _SDT_DECLS_0()
#define _SDT_DECLS_1(a1) _SDT_ALL_1(_SDT_DECL_TYPES, a1)
#define _SDT_DECLS_2(a1, a2) _SDT_ALL_2(_SDT_DECL_TYPES, a1, a2)
#define _SDT_DECLS_3(a1, a2, a3) _SDT_ALL_3(_SDT_DECL_TYPES, a1, a2, a3)
#define _SDT_DECLS_4(a1, a2, a3, a4) _SDT_ALL_4(_SDT_DECL_TYPES, a1, a2, a3, a4)
#define _SDT_DECLS_5(a1, a2, a3, a4, a5) _SDT_ALL_5(_SDT_DECL_TYPES, a1, a2, a3, a4, a5)
#define _SDT_DECLS_6(a1, a2, a3, a4, a5, a6) _SDT_ALL_6(_SDT_DECL_TYPES, a1, a2, a3, a4, a5, a6)
#define _SDT_DECLS_7(a1, a2, a3, a4, a5, a6, a7) _SDT_ALL_7(_SDT_DECL_TYPES, a1, a2, a3, a4, a5, a6, a7)
#define _SDT_DECLS_8(a1, a2, a3, a4, a5, a6, a7, a8) _SDT_ALL_8(_SDT_DECL_TYPES, a1, a2, a3, a4, a5, a6, a7, a8)
#define _SDT_DECLS_9(a1, a2, a3, a4, a5, a6, a7, a8, a9) _SDT_ALL_9(_SDT_DECL_TYPES, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define _SDT_DECLS_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _SDT_ALL_10(_SDT_DECL_TYPES, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define _SDT_DECLS_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _SDT_ALL_11(_SDT_DECL_TYPES, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define _SDT_DECLS_12(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _SDT_ALL_12(_SDT_DECL_TYPES, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)
/* Per argument count: one check of every argument, after their types. */
#define _SDT_OKS_1 _SDT_OK_OF(1)
#define _SDT_OKS_2 _SDT_OKS_1 & _SDT_OK_OF(2)
#define _SDT_OKS_3 _SDT_OKS_2 & _SDT_OK_OF(3)
#define _SDT_OKS_4 _SDT_OKS_3 & _SDT_OK_OF(4)
#define _SDT_OKS_5 _SDT_OKS_4 & _SDT_OK_OF(5)
#define _SDT_OKS_6 _SDT_OKS_5 & _SDT_OK_OF(6)
#define _SDT_OKS_7 _SDT_OKS_6 & _SDT_OK_OF(7)
#define _SDT_OKS_8 _SDT_OKS_7 & _SDT_OK_OF(8)
#define _SDT_OKS_9 _SDT_OKS_8 & _SDT_OK_OF(9)
#define _SDT_OKS_10 _SDT_OKS_9 & _SDT_OK_OF(10)
#define _SDT_OKS_11 _SDT_OKS_10 & _SDT_OK_OF(11)
#define _SDT_OKS_12 _SDT_OKS_11 & _SDT_OK_OF(12)
#define _SDT_CHECKS_0()
#define _SDT_CHECKS_1(a1) \
	_SDT_ALL_1(_SDT_DECL_TYPES, a1) _SDT_CHECK_ALL(_SDT_OKS_1)
#define _SDT_CHECKS_2(a1, a2) \
	_SDT_ALL_2(_SDT_DECL_TYPES, a1, a2) _SDT_CHECK_ALL(_SDT_OKS_2)
#define _SDT_CHECKS_3(a1, a2, a3) \
	_SDT_ALL_3(_SDT_DECL_TYPES, a1, a2, a3) _SDT_CHECK_ALL(_SDT_OKS_3)
#define _SDT_CHECKS_4(a1, a2, a3, a4) \
	_SDT_ALL_4(_SDT_DECL_TYPES, a1, a2, a3, a4) _SDT_CHECK_ALL(_SDT_OKS_4)
#define _SDT_CHECKS_5(a1, a2, a3, a4, a5) \
	_SDT_ALL_5(_SDT_DECL_TYPES, a1, a2, a3, a4, a5) _SDT_CHECK_ALL(_SDT_OKS_5)
#define _SDT_CHECKS_6(a1, a2, a3, a4, a5, a6) \
	_SDT_ALL_6(_SDT_DECL_TYPES, a1, a2, a3, a4, a5, a6) _SDT_CHECK_ALL(_SDT_OKS_6)
#define _SDT_CHECKS_7(a1, a2, a3, a4, a5, a6, a7) \
	_SDT_ALL_7(_SDT_DECL_TYPES, a1, a2, a3, a4, a5, a6, a7) _SDT_CHECK_ALL(_SDT_OKS_7)
#define _SDT_CHECKS_8(a1, a2, a3, a4, a5, a6, a7, a8) \
	_SDT_ALL_8(_SDT_DECL_TYPES, a1, a2, a3, a4, a5, a6, a7, a8) _SDT_CHECK_ALL(_SDT_OKS_8)
#define _SDT_CHECKS_9(a1, a2, a3, a4, a5, a6, a7, a8, a9) \
	_SDT_ALL_9(_SDT_DECL_TYPES, a1, a2, a3, a4, a5, a6, a7, a8, a9) _SDT_CHECK_ALL(_SDT_OKS_9)
#define _SDT_CHECKS_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
	_SDT_ALL_10(_SDT_DECL_TYPES, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _SDT_CHECK_ALL(_SDT_OKS_10)
#define _SDT_CHECKS_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
	_SDT_ALL_11(_SDT_DECL_TYPES, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _SDT_CHECK_ALL(_SDT_OKS_11)
#define _SDT_CHECKS_12(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
	_SDT_ALL_12(_SDT_DECL_TYPES, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _SDT_CHECK_ALL(_SDT_OKS_12)

#if _SDT_ARG_IN_FRAME
#define _SDT_FRAME_0()
#define _SDT_FRAME_1(a1) \
	_SDT_ALL_1(_SDT_FIELD_TYPE, a1) \
	__extension__ struct { _SDT_FIELDS_1(a1) } _SDT_FRAME = { \
		_SDT_VALUES_1(a1) };
#define _SDT_FRAME_2(a1, a2) \
	_SDT_ALL_2(_SDT_FIELD_TYPE, a1, a2) \
	__extension__ struct { _SDT_FIELDS_2(a1, a2) } _SDT_FRAME = { \
		_SDT_VALUES_2(a1, a2) };
#define _SDT_FRAME_3(a1, a2, a3) \
	_SDT_ALL_3(_SDT_FIELD_TYPE, a1, a2, a3) \
	__extension__ struct { _SDT_FIELDS_3(a1, a2, a3) } _SDT_FRAME = { \
		_SDT_VALUES_3(a1, a2, a3) };
#define _SDT_FRAME_4(a1, a2, a3, a4) \
	_SDT_ALL_4(_SDT_FIELD_TYPE, a1, a2, a3, a4) \
	__extension__ struct { _SDT_FIELDS_4(a1, a2, a3, a4) } _SDT_FRAME = { \
		_SDT_VALUES_4(a1, a2, a3, a4) };
#define _SDT_FRAME_5(a1, a2, a3, a4, a5) \
	_SDT_ALL_5(_SDT_FIELD_TYPE, a1, a2, a3, a4, a5) \
	__extension__ struct { _SDT_FIELDS_5(a1, a2, a3, a4, a5) } _SDT_FRAME = { \
		_SDT_VALUES_5(a1, a2, a3, a4, a5) };
#define _SDT_FRAME_6(a1, a2, a3, a4, a5, a6) \
	_SDT_ALL_6(_SDT_FIELD_TYPE, a1, a2, a3, a4, a5, a6) \
	__extension__ struct { _SDT_FIELDS_6(a1, a2, a3, a4, a5, a6) } _SDT_FRAME = { \
		_SDT_VALUES_6(a1, a2, a3, a4, a5, a6) };
#define _SDT_FRAME_7(a1, a2, a3, a4, a5, a6, a7) \
	_SDT_ALL_7(_SDT_FIELD_TYPE, a1, a2, a3, a4, a5, a6, a7) \
	__extension__ struct { _SDT_FIELDS_7(a1, a2, a3, a4, a5, a6, a7) } _SDT_FRAME = { \
		_SDT_VALUES_7(a1, a2, a3, a4, a5, a6, a7) };
#define _SDT_FRAME_8(a1, a2, a3, a4, a5, a6, a7, a8) \
	_SDT_ALL_8(_SDT_FIELD_TYPE, a1, a2, a3, a4, a5, a6, a7, a8) \
	__extension__ struct { _SDT_FIELDS_8(a1, a2, a3, a4, a5, a6, a7, a8) } _SDT_FRAME = { \
		_SDT_VALUES_8(a1, a2, a3, a4, a5, a6, a7, a8) };
#define _SDT_FRAME_9(a1, a2, a3, a4, a5, a6, a7, a8, a9) \
	_SDT_ALL_9(_SDT_FIELD_TYPE, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
	__extension__ struct { _SDT_FIELDS_9(a1, a2, a3, a4, a5, a6, a7, a8, a9) } _SDT_FRAME = { \
		_SDT_VALUES_9(a1, a2, a3, a4, a5, a6, a7, a8, a9) };
#define _SDT_FRAME_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
	_SDT_ALL_10(_SDT_FIELD_TYPE, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
	__extension__ struct { _SDT_FIELDS_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) } _SDT_FRAME = { \
		_SDT_VALUES_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) };
#define _SDT_FRAME_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
	_SDT_ALL_11(_SDT_FIELD_TYPE, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
	__extension__ struct { _SDT_FIELDS_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) } _SDT_FRAME = { \
		_SDT_VALUES_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) };
#define _SDT_FRAME_12(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
	_SDT_ALL_12(_SDT_FIELD_TYPE, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
	__extension__ struct { _SDT_FIELDS_12(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) } _SDT_FRAME = { \
		_SDT_VALUES_12(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) };

#define _SDT_FIELDS_0()
#define _SDT_FIELDS_1(a1) _SDT_ALL_1(_SDT_FIELD, a1)
#define _SDT_FIELDS_2(a1, a2) _SDT_ALL_2(_SDT_FIELD, a1, a2)
#define _SDT_FIELDS_3(a1, a2, a3) _SDT_ALL_3(_SDT_FIELD, a1, a2, a3)
#define _SDT_FIELDS_4(a1, a2, a3, a4) _SDT_ALL_4(_SDT_FIELD, a1, a2, a3, a4)
#define _SDT_FIELDS_5(a1, a2, a3, a4, a5) _SDT_ALL_5(_SDT_FIELD, a1, a2, a3, a4, a5)
#define _SDT_FIELDS_6(a1, a2, a3, a4, a5, a6) _SDT_ALL_6(_SDT_FIELD, a1, a2, a3, a4, a5, a6)
#define _SDT_FIELDS_7(a1, a2, a3, a4, a5, a6, a7) _SDT_ALL_7(_SDT_FIELD, a1, a2, a3, a4, a5, a6, a7)
#define _SDT_FIELDS_8(a1, a2, a3, a4, a5, a6, a7, a8) _SDT_ALL_8(_SDT_FIELD, a1, a2, a3, a4, a5, a6, a7, a8)
#define _SDT_FIELDS_9(a1, a2, a3, a4, a5, a6, a7, a8, a9) _SDT_ALL_9(_SDT_FIELD, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define _SDT_FIELDS_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _SDT_ALL_10(_SDT_FIELD, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define _SDT_FIELDS_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _SDT_ALL_11(_SDT_FIELD, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define _SDT_FIELDS_12(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _SDT_ALL_12(_SDT_FIELD, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)

#define _SDT_VALUES_0()
#define _SDT_VALUES_1(a1) _SDT_EACH_1(_SDT_VALUE, a1)
#define _SDT_VALUES_2(a1, a2) _SDT_EACH_2(_SDT_VALUE, a1, a2)
#define _SDT_VALUES_3(a1, a2, a3) _SDT_EACH_3(_SDT_VALUE, a1, a2, a3)
#define _SDT_VALUES_4(a1, a2, a3, a4) _SDT_EACH_4(_SDT_VALUE, a1, a2, a3, a4)
#define _SDT_VALUES_5(a1, a2, a3, a4, a5) _SDT_EACH_5(_SDT_VALUE, a1, a2, a3, a4, a5)
#define _SDT_VALUES_6(a1, a2, a3, a4, a5, a6) _SDT_EACH_6(_SDT_VALUE, a1, a2, a3, a4, a5, a6)
#define _SDT_VALUES_7(a1, a2, a3, a4, a5, a6, a7) _SDT_EACH_7(_SDT_VALUE, a1, a2, a3, a4, a5, a6, a7)
#define _SDT_VALUES_8(a1, a2, a3, a4, a5, a6, a7, a8) _SDT_EACH_8(_SDT_VALUE, a1, a2, a3, a4, a5, a6, a7, a8)
#define _SDT_VALUES_9(a1, a2, a3, a4, a5, a6, a7, a8, a9) _SDT_EACH_9(_SDT_VALUE, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define _SDT_VALUES_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _SDT_EACH_10(_SDT_VALUE, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define _SDT_VALUES_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _SDT_EACH_11(_SDT_VALUE, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define _SDT_VALUES_12(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _SDT_EACH_12(_SDT_VALUE, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)

#define _SDT_OPERANDS_0()
#define _SDT_OPERANDS_1(a1) \
	"r"(&_SDT_FRAME), _SDT_EACH_1(_SDT_FRAME_OPERAND, a1), "m"(_SDT_FRAME)
#define _SDT_OPERANDS_2(a1, a2) \
	"r"(&_SDT_FRAME), _SDT_EACH_2(_SDT_FRAME_OPERAND, a1, a2), "m"(_SDT_FRAME)
#define _SDT_OPERANDS_3(a1, a2, a3) \
	"r"(&_SDT_FRAME), _SDT_EACH_3(_SDT_FRAME_OPERAND, a1, a2, a3), "m"(_SDT_FRAME)
#define _SDT_OPERANDS_4(a1, a2, a3, a4) \
	"r"(&_SDT_FRAME), _SDT_EACH_4(_SDT_FRAME_OPERAND, a1, a2, a3, a4), "m"(_SDT_FRAME)
#define _SDT_OPERANDS_5(a1, a2, a3, a4, a5) \
	"r"(&_SDT_FRAME), _SDT_EACH_5(_SDT_FRAME_OPERAND, a1, a2, a3, a4, a5), "m"(_SDT_FRAME)
#define _SDT_OPERANDS_6(a1, a2, a3, a4, a5, a6) \
	"r"(&_SDT_FRAME), _SDT_EACH_6(_SDT_FRAME_OPERAND, a1, a2, a3, a4, a5, a6), "m"(_SDT_FRAME)
#define _SDT_OPERANDS_7(a1, a2, a3, a4, a5, a6, a7) \
	"r"(&_SDT_FRAME), _SDT_EACH_7(_SDT_FRAME_OPERAND, a1, a2, a3, a4, a5, a6, a7), "m"(_SDT_FRAME)
#define _SDT_OPERANDS_8(a1, a2, a3, a4, a5, a6, a7, a8) \
	"r"(&_SDT_FRAME), _SDT_EACH_8(_SDT_FRAME_OPERAND, a1, a2, a3, a4, a5, a6, a7, a8), "m"(_SDT_FRAME)
#define _SDT_OPERANDS_9(a1, a2, a3, a4, a5, a6, a7, a8, a9) \
	"r"(&_SDT_FRAME), _SDT_EACH_9(_SDT_FRAME_OPERAND, a1, a2, a3, a4, a5, a6, a7, a8, a9), "m"(_SDT_FRAME)
#define _SDT_OPERANDS_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
	"r"(&_SDT_FRAME), _SDT_EACH_10(_SDT_FRAME_OPERAND, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10), "m"(_SDT_FRAME)
#define _SDT_OPERANDS_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
	"r"(&_SDT_FRAME), _SDT_EACH_11(_SDT_FRAME_OPERAND, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11), "m"(_SDT_FRAME)
#define _SDT_OPERANDS_12(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
	"r"(&_SDT_FRAME), _SDT_EACH_12(_SDT_FRAME_OPERAND, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12), "m"(_SDT_FRAME)


#define _SDT_TEXT_0 ""
#define _SDT_TEXT_1 _SDT_FRAME_TEXT(1, 2)
#define _SDT_TEXT_2 _SDT_TEXT_1 " " _SDT_FRAME_TEXT(3, 4)
#define _SDT_TEXT_3 _SDT_TEXT_2 " " _SDT_FRAME_TEXT(5, 6)
#define _SDT_TEXT_4 _SDT_TEXT_3 " " _SDT_FRAME_TEXT(7, 8)
#define _SDT_TEXT_5 _SDT_TEXT_4 " " _SDT_FRAME_TEXT(9, 10)
#define _SDT_TEXT_6 _SDT_TEXT_5 " " _SDT_FRAME_TEXT(11, 12)
#define _SDT_TEXT_7 _SDT_TEXT_6 " " _SDT_FRAME_TEXT(13, 14)
#define _SDT_TEXT_8 _SDT_TEXT_7 " " _SDT_FRAME_TEXT(15, 16)
#define _SDT_TEXT_9 _SDT_TEXT_8 " " _SDT_FRAME_TEXT(17, 18)
#define _SDT_TEXT_10 _SDT_TEXT_9 " " _SDT_FRAME_TEXT(19, 20)
#define _SDT_TEXT_11 _SDT_TEXT_10 " " _SDT_FRAME_TEXT(21, 22)
#define _SDT_TEXT_12 _SDT_TEXT_11 " " _SDT_FRAME_TEXT(23, 24)

#else /* registers */
#define _SDT_FRAME_0()
#define _SDT_FRAME_1(a1)
#define _SDT_FRAME_2(a1, a2)
#define _SDT_FRAME_3(a1, a2, a3)
#define _SDT_FRAME_4(a1, a2, a3, a4)
#define _SDT_FRAME_5(a1, a2, a3, a4, a5)
#define _SDT_FRAME_6(a1, a2, a3, a4, a5, a6)
#define _SDT_FRAME_7(a1, a2, a3, a4, a5, a6, a7)
#define _SDT_FRAME_8(a1, a2, a3, a4, a5, a6, a7, a8)
#define _SDT_FRAME_9(a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define _SDT_FRAME_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define _SDT_FRAME_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define _SDT_FRAME_12(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)

/* Unused: an operand list is never empty, so the site's may follow a comma. */
#define _SDT_OPERANDS_0() "n"(0)
#define _SDT_OPERANDS_1(a1) _SDT_EACH_1(_SDT_REG_OPERAND, a1)
#define _SDT_OPERANDS_2(a1, a2) _SDT_EACH_2(_SDT_REG_OPERAND, a1, a2)
#define _SDT_OPERANDS_3(a1, a2, a3) _SDT_EACH_3(_SDT_REG_OPERAND, a1, a2, a3)
#define _SDT_OPERANDS_4(a1, a2, a3, a4) _SDT_EACH_4(_SDT_REG_OPERAND, a1, a2, a3, a4)
#define _SDT_OPERANDS_5(a1, a2, a3, a4, a5) _SDT_EACH_5(_SDT_REG_OPERAND, a1, a2, a3, a4, a5)
#define _SDT_OPERANDS_6(a1, a2, a3, a4, a5, a6) _SDT_EACH_6(_SDT_REG_OPERAND, a1, a2, a3, a4, a5, a6)
#define _SDT_OPERANDS_7(a1, a2, a3, a4, a5, a6, a7) _SDT_EACH_7(_SDT_REG_OPERAND, a1, a2, a3, a4, a5, a6, a7)
#define _SDT_OPERANDS_8(a1, a2, a3, a4, a5, a6, a7, a8) _SDT_EACH_8(_SDT_REG_OPERAND, a1, a2, a3, a4, a5, a6, a7, a8)
#define _SDT_OPERANDS_9(a1, a2, a3, a4, a5, a6, a7, a8, a9) _SDT_EACH_9(_SDT_REG_OPERAND, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define _SDT_OPERANDS_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _SDT_EACH_10(_SDT_REG_OPERAND, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define _SDT_OPERANDS_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _SDT_EACH_11(_SDT_REG_OPERAND, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define _SDT_OPERANDS_12(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _SDT_EACH_12(_SDT_REG_OPERAND, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)

#define _SDT_TEXT_0 ""
#define _SDT_TEXT_1 "%n0@" _SDT_ARG_PRINT "1"
#define _SDT_TEXT_2 _SDT_TEXT_1 " %n2@" _SDT_ARG_PRINT "3"
#define _SDT_TEXT_3 _SDT_TEXT_2 " %n4@" _SDT_ARG_PRINT "5"
#define _SDT_TEXT_4 _SDT_TEXT_3 " %n6@" _SDT_ARG_PRINT "7"
#define _SDT_TEXT_5 _SDT_TEXT_4 " %n8@" _SDT_ARG_PRINT "9"
#define _SDT_TEXT_6 _SDT_TEXT_5 " %n10@" _SDT_ARG_PRINT "11"
#define _SDT_TEXT_7 _SDT_TEXT_6 " %n12@" _SDT_ARG_PRINT "13"
#define _SDT_TEXT_8 _SDT_TEXT_7 " %n14@" _SDT_ARG_PRINT "15"
#define _SDT_TEXT_9 _SDT_TEXT_8 " %n16@" _SDT_ARG_PRINT "17"
#define _SDT_TEXT_10 _SDT_TEXT_9 " %n18@" _SDT_ARG_PRINT "19"
#define _SDT_TEXT_11 _SDT_TEXT_10 " %n20@" _SDT_ARG_PRINT "21"
#define _SDT_TEXT_12 _SDT_TEXT_11 " %n22@" _SDT_ARG_PRINT "23"
#endif

#define _SDT_NAMED_OPERANDS(i, x, operand)                                     \
	[_SDT_S##i] _SDT_SIZE_OPERAND(x), [_SDT_A##i] operand
/* The same with names, for probes inside the caller's own asm. */
#define _SDT_NAMED_TEXT(i) "%n[_SDT_S" #i "]@" _SDT_ARG_PRINT "[_SDT_A" #i "]"
#define _SDT_NAMED_TEXT_0 ""
#define _SDT_NAMED_TEXT_1 _SDT_NAMED_TEXT(1)
#define _SDT_NAMED_TEXT_2 _SDT_NAMED_TEXT_1 " " _SDT_NAMED_TEXT(2)
#define _SDT_NAMED_TEXT_3 _SDT_NAMED_TEXT_2 " " _SDT_NAMED_TEXT(3)
#define _SDT_NAMED_TEXT_4 _SDT_NAMED_TEXT_3 " " _SDT_NAMED_TEXT(4)
#define _SDT_NAMED_TEXT_5 _SDT_NAMED_TEXT_4 " " _SDT_NAMED_TEXT(5)
#define _SDT_NAMED_TEXT_6 _SDT_NAMED_TEXT_5 " " _SDT_NAMED_TEXT(6)
#define _SDT_NAMED_TEXT_7 _SDT_NAMED_TEXT_6 " " _SDT_NAMED_TEXT(7)
#define _SDT_NAMED_TEXT_8 _SDT_NAMED_TEXT_7 " " _SDT_NAMED_TEXT(8)
#define _SDT_NAMED_TEXT_9 _SDT_NAMED_TEXT_8 " " _SDT_NAMED_TEXT(9)
#define _SDT_NAMED_TEXT_10 _SDT_NAMED_TEXT_9 " " _SDT_NAMED_TEXT(10)
#define _SDT_NAMED_TEXT_11 _SDT_NAMED_TEXT_10 " " _SDT_NAMED_TEXT(11)
#define _SDT_NAMED_TEXT_12 _SDT_NAMED_TEXT_11 " " _SDT_NAMED_TEXT(12)
#define _SDT_ARGS_LINE(text) ".asciz \"" text "\"\n"

/*
 * The semaphore's name comes from dtrace -h; referring to it from C, not
 * only from the note, keeps link-time optimization from dropping it.
 */
#if defined _SDT_HAS_SEMAPHORES
#define _SDT_SEMAPHORE_USE(provider, name)                                     \
	__asm__ __volatile__("" : : "m"(provider##_##name##_semaphore));
#else
#define _SDT_SEMAPHORE_USE(provider, name)
#endif

/*
 * ---- Argument types and names (docs/typed-probes.md) ------------------
 * The note says where an argument is and how wide, not what it is. The
 * compiler knows, so each probe also leaves a typed-probe record, the one
 * dtrace-gen writes from a .d file: provider, name, and per argument a C
 * type and the argument as written (`path', `req->len + 1'; readers show
 * a name only where it is an identifier). It costs the probe nothing:
 * - the type is classified into a code, a constant: _Generic from C11,
 *   __builtin_types_compatible_p before, a class template in C++; an
 *   enumeration is its underlying integer. Codes:
 *     1 char  2 signed char  3 unsigned char  4 short  5 unsigned short
 *     6 int  7 unsigned int  8 long  9 unsigned long  10 long long
 *     11 unsigned long long  12 bool  13 char *  14 const char *
 *     16 void * (any other pointer, array or function)  17 float
 *     18 double  0 anything else: an empty type, "not known";
 * - the record is the compact kind (note type 3, docs/typed-probes.md):
 *   provider and name, then the count and the codes as bytes, then the
 *   names; readers turn a code into its type's text;
 * - the codes are "n" operands of the probe's own statement, after its
 *   operands (a statement of their own past 9 arguments: 30 operands at
 *   most), which writes the record's head with them (.byte N,%c8,...)
 *   the first time the unit sees this probe with these codes (an
 *   .ifndef on a symbol naming both), and sets .L__sdt_w to say so: no
 *   instruction, the note's bytes unchanged;
 * - the statement that puts _.stapsdt.base, which has no operands (so
 *   nothing in an argument's text, `%' or `{|}', is taken for an operand
 *   or a dialect), appends the names when .L__sdt_w says so, each the
 *   argument's text stringized twice: a C string literal, which is also
 *   an assembler one; the head's size counts to a label it puts last;
 * - the record is in a comdat group per probe: the link keeps one, LTO
 *   included.
 * A .d file's record wins over this one, and records of sites that pass
 * other types are merged, not reported. A header dtrace-gen wrote gives
 * its probes the .d file's record instead (_SDT_DPROBE_n). What the
 * compiler spends here is measured against SystemTap's header by
 * bench/sdt-compile.sh. ELF only; SDTKIT_NO_TYPES leaves them out.
 */
#if defined(__ELF__) && !defined(SDTKIT_NO_TYPES)
#ifdef __cplusplus
template <typename __sdt_T, int __sdt_kind = __is_enum(__sdt_T) ? 1 :
		__is_class(__sdt_T) || __is_union(__sdt_T) ? 2 : 0>
struct __sdt_code {
	/* Integers not named below (C++98's long long): by size and sign. */
	enum {
		value = (sizeof(__sdt_T) == 1 ? 2 : sizeof(__sdt_T) == 2 ? 4 :
			 sizeof(__sdt_T) == 4 ? 6 :
			 sizeof(__sdt_T) == sizeof(long) ? 8 : 10) +
			!__sdt_type<__sdt_T>::is_signed
	};
};
template <typename __sdt_T> struct __sdt_code<__sdt_T, 1> {
	enum { value = __sdt_code<__underlying_type(__sdt_T)>::value };
};
template <typename __sdt_T> struct __sdt_code<__sdt_T, 2> {
	enum { value = 0 };
};
template <typename __sdt_T> struct __sdt_code<__sdt_T *, 0> {
	enum { value = 16 };
};
template <typename __sdt_T, typename __sdt_C>
struct __sdt_code<__sdt_T __sdt_C::*, 0> {
	enum { value = 0 };
};
#define _SDT_CODE_OF(type, c)                                                  \
	template <> struct __sdt_code<type, 0> {                               \
		enum { value = c };                                            \
	};
_SDT_CODE_OF(char, 1)
_SDT_CODE_OF(bool, 12)
_SDT_CODE_OF(char *, 13)
_SDT_CODE_OF(const char *, 14)
_SDT_CODE_OF(float, 17)
_SDT_CODE_OF(double, 18)
_SDT_CODE_OF(long double, 0)
#if __cplusplus >= 201103L
_SDT_CODE_OF(long long, 10)
_SDT_CODE_OF(unsigned long long, 11)
_SDT_CODE_OF(decltype(nullptr), 0)
#endif
#undef _SDT_CODE_OF
#define _SDT_CODE_OF_TYPE(type) __sdt_code<type>::value
#define _SDT_CODE_AT(i, x) _SDT_CODE_OF_TYPE(_SDT_V##i)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define _SDT_CODE_AT(i, x)                                                     \
	_Generic((x), char: 1, signed char: 2, unsigned char: 3, short: 4,     \
		 unsigned short: 5, int: 6, unsigned int: 7, long: 8,          \
		 unsigned long: 9, long long: 10, unsigned long long: 11,      \
		 _Bool: 12, char *: 13, const char *: 14, float: 17,           \
		 double: 18,                                                   \
		 default: (_SDT_ADDRESSES >> (_SDT_K##i & 31)) & 1 ? 16 : 0)
#else
#define _SDT_IS(x, type)                                                       \
	__builtin_types_compatible_p(__typeof__(_SDT_RVALUE(x)), type)
#define _SDT_CODE_AT(i, x)                                                     \
	(__extension__(_SDT_IS(x, char *) ? 13 : _SDT_IS(x, const char *) ? 14 : \
		       _SDT_IS(x, char) ? 1 : _SDT_IS(x, float) ? 17 :         \
		       _SDT_IS(x, double) ? 18 : _SDT_IS(x, _Bool) ? 12 :      \
		       _SDT_IS(x, long long) ? 10 :                            \
		       _SDT_IS(x, unsigned long long) ? 11 :                   \
		       _SDT_CODE_OTHER(x)))
#endif
#if !defined(__cplusplus) &&                                                   \
	!(defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L)
/* Other pointers; integers by size and sign. */
#define _SDT_CODE_OTHER(x)                                                     \
	(_SDT_IS_ADDRESS(x) ? 16 :                                             \
	 !_SDT_IS_INTEGER(x) ? 0 :                                             \
	 (_SDT_ARG_SIZE(x) == 1 ? 2 : _SDT_ARG_SIZE(x) == 2 ? 4 :              \
	  _SDT_ARG_SIZE(x) == 4 ? 6 :                                          \
	  _SDT_ARG_SIZE(x) == sizeof(long) ? 8 : 10) + !_SDT_ARG_SIGNED(x))
#endif


/*
 * The section of provider:name's record, in the probe's comdat group: a
 * link keeps one group of a name.
 */
/*
 * Here and below, a parameter is stringized by _SDT_STR_ alone: it was
 * expanded already, when this macro was called.
 */
#define _SDT_REC_PUSH(provider, name)                                          \
	".pushsection .note.sdtkit,\"G\",\"note\",.sdtkit.sdt."             \
	_SDT_STR_(provider.name) ",comdat\n"
/* The record's head, in the section PUSH enters: count and codes (B). */
#define _SDT_REC_HEAD(push, provider, name, n, B)                              \
	push ".balign 4\n.4byte 7,996f-995f,3\n.asciz \"sdtkit\"\n"          \
	".balign 4\n995: .asciz \"" _SDT_STR_(provider) "\",\""              \
	_SDT_STR_(name) "\"\n.byte " #n B "\n.popsection\n"
/*
 * BODY, only the first time this unit sees provider:name with these codes
 * (K: ".%c0.%c1...", of the codes' operands, or _SDT_RK_n's count and
 * packed codes); .L__sdt_w then tells the
 * statements after it to add the rest of the record.
 */
#define _SDT_REC_KEYED(provider, name, K, body)                               \
	".ifndef .L__sdt_k." _SDT_STR_(provider.name) K "\n"                  \
	".set .L__sdt_k." _SDT_STR_(provider.name) K ",1\n"                   \
	body ".set .L__sdt_w,1\n.else\n.set .L__sdt_w,0\n.endif\n"
/* The codes' statement; B: ",%c0,%c1...". */
#define _SDT_REC_CODES(provider, name, n, K, B)                               \
	_SDT_REC_KEYED(provider, name, K,                                      \
		       _SDT_REC_HEAD(_SDT_REC_PUSH(provider, name), provider,  \
				     name, n, B))
/* The record's statement: NAMES, then the end the head's size counts to. */
#define _SDT_REC_TEXT(provider, name, names)                                   \
	".if .L__sdt_w\n" _SDT_REC_PUSH(provider, name) names                 \
	"996: .balign 4\n.popsection\n.endif\n"
#define _SDT_NAME_LINE(i, x) ".asciz " _SDT_STR_(#x) "\n"
#define _SDT_CODE_OP(i, x) "n"(_SDT_CODE_AT(i, x))

#define _SDT_K_1 ".%c0"
#define _SDT_K_2 _SDT_K_1 ".%c1"
#define _SDT_K_3 _SDT_K_2 ".%c2"
#define _SDT_K_4 _SDT_K_3 ".%c3"
#define _SDT_K_5 _SDT_K_4 ".%c4"
#define _SDT_K_6 _SDT_K_5 ".%c5"
#define _SDT_K_7 _SDT_K_6 ".%c6"
#define _SDT_K_8 _SDT_K_7 ".%c7"
#define _SDT_K_9 _SDT_K_8 ".%c8"
#define _SDT_K_10 _SDT_K_9 ".%c9"
#define _SDT_K_11 _SDT_K_10 ".%c10"
#define _SDT_K_12 _SDT_K_11 ".%c11"
#define _SDT_B_1 ",%c0"
#define _SDT_B_2 _SDT_B_1 ",%c1"
#define _SDT_B_3 _SDT_B_2 ",%c2"
#define _SDT_B_4 _SDT_B_3 ",%c3"
#define _SDT_B_5 _SDT_B_4 ",%c4"
#define _SDT_B_6 _SDT_B_5 ",%c5"
#define _SDT_B_7 _SDT_B_6 ",%c6"
#define _SDT_B_8 _SDT_B_7 ",%c7"
#define _SDT_B_9 _SDT_B_8 ",%c8"
#define _SDT_B_10 _SDT_B_9 ",%c9"
#define _SDT_B_11 _SDT_B_10 ",%c10"
#define _SDT_B_12 _SDT_B_11 ",%c11"
#define _SDT_CODES_1(a1) _SDT_EACH_1(_SDT_CODE_OP, a1)
#define _SDT_CODES_2(a1, a2) _SDT_EACH_2(_SDT_CODE_OP, a1, a2)
#define _SDT_CODES_3(a1, a2, a3) _SDT_EACH_3(_SDT_CODE_OP, a1, a2, a3)
#define _SDT_CODES_4(a1, a2, a3, a4) _SDT_EACH_4(_SDT_CODE_OP, a1, a2, a3, a4)
#define _SDT_CODES_5(a1, a2, a3, a4, a5) _SDT_EACH_5(_SDT_CODE_OP, a1, a2, a3, a4, a5)
#define _SDT_CODES_6(a1, a2, a3, a4, a5, a6) _SDT_EACH_6(_SDT_CODE_OP, a1, a2, a3, a4, a5, a6)
#define _SDT_CODES_7(a1, a2, a3, a4, a5, a6, a7) _SDT_EACH_7(_SDT_CODE_OP, a1, a2, a3, a4, a5, a6, a7)
#define _SDT_CODES_8(a1, a2, a3, a4, a5, a6, a7, a8) _SDT_EACH_8(_SDT_CODE_OP, a1, a2, a3, a4, a5, a6, a7, a8)
#define _SDT_CODES_9(a1, a2, a3, a4, a5, a6, a7, a8, a9) _SDT_EACH_9(_SDT_CODE_OP, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define _SDT_CODES_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _SDT_EACH_10(_SDT_CODE_OP, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define _SDT_CODES_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _SDT_EACH_11(_SDT_CODE_OP, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define _SDT_CODES_12(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _SDT_EACH_12(_SDT_CODE_OP, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)
/*
 * _SDT_PACK_n(M, a1..an): the codes M(i, ai) (each under 32) as "n"
 * operands, five bits each, the first in the low bits: arguments 1 to 6 in
 * one, 7 to 9 in a second. Negated, for the text's %n: %c prints only
 * what the machine takes as an address constant (12 bits on RISC-V), %n
 * any integer, as the specs' sizes do. _SDT_CODES_Pn: <sys/sdt.h>'s codes
 * so packed (<usdt.h> has its _USDT_CODES_Pn: a list in parentheses
 * cannot be spread into a call without variadic macros, which C++98
 * lacks).
 */
#define _SDT_PACK_1(m, a1) "n"(-(m(1, a1)))
#define _SDT_PACK_2(m, a1, a2) "n"(-(m(1, a1) | m(2, a2) << 5))
#define _SDT_PACK_3(m, a1, a2, a3) "n"(-(m(1, a1) | m(2, a2) << 5 | m(3, a3) << 10))
#define _SDT_PACK_4(m, a1, a2, a3, a4) "n"(-(m(1, a1) | m(2, a2) << 5 | m(3, a3) << 10 | m(4, a4) << 15))
#define _SDT_PACK_5(m, a1, a2, a3, a4, a5) "n"(-(m(1, a1) | m(2, a2) << 5 | m(3, a3) << 10 | m(4, a4) << 15 | m(5, a5) << 20))
#define _SDT_PACK_6(m, a1, a2, a3, a4, a5, a6) "n"(-(m(1, a1) | m(2, a2) << 5 | m(3, a3) << 10 | m(4, a4) << 15 | m(5, a5) << 20 | m(6, a6) << 25))
#define _SDT_PACK_7(m, a1, a2, a3, a4, a5, a6, a7) _SDT_PACK_6(m, a1, a2, a3, a4, a5, a6), "n"(-(m(7, a7)))
#define _SDT_PACK_8(m, a1, a2, a3, a4, a5, a6, a7, a8) _SDT_PACK_6(m, a1, a2, a3, a4, a5, a6), "n"(-(m(7, a7) | m(8, a8) << 5))
#define _SDT_PACK_9(m, a1, a2, a3, a4, a5, a6, a7, a8, a9) _SDT_PACK_6(m, a1, a2, a3, a4, a5, a6), "n"(-(m(7, a7) | m(8, a8) << 5 | m(9, a9) << 10))
#define _SDT_CODES_P1(a1) _SDT_PACK_1(_SDT_CODE_AT, a1)
#define _SDT_CODES_P2(a1, a2) _SDT_PACK_2(_SDT_CODE_AT, a1, a2)
#define _SDT_CODES_P3(a1, a2, a3) _SDT_PACK_3(_SDT_CODE_AT, a1, a2, a3)
#define _SDT_CODES_P4(a1, a2, a3, a4) _SDT_PACK_4(_SDT_CODE_AT, a1, a2, a3, a4)
#define _SDT_CODES_P5(a1, a2, a3, a4, a5) _SDT_PACK_5(_SDT_CODE_AT, a1, a2, a3, a4, a5)
#define _SDT_CODES_P6(a1, a2, a3, a4, a5, a6) _SDT_PACK_6(_SDT_CODE_AT, a1, a2, a3, a4, a5, a6)
#define _SDT_CODES_P7(a1, a2, a3, a4, a5, a6, a7) _SDT_PACK_7(_SDT_CODE_AT, a1, a2, a3, a4, a5, a6, a7)
#define _SDT_CODES_P8(a1, a2, a3, a4, a5, a6, a7, a8) _SDT_PACK_8(_SDT_CODE_AT, a1, a2, a3, a4, a5, a6, a7, a8)
#define _SDT_CODES_P9(a1, a2, a3, a4, a5, a6, a7, a8, a9) _SDT_PACK_9(_SDT_CODE_AT, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define _SDT_NAMES_1(a1) _SDT_ALL_1(_SDT_NAME_LINE, a1)
#define _SDT_NAMES_2(a1, a2) _SDT_ALL_2(_SDT_NAME_LINE, a1, a2)
#define _SDT_NAMES_3(a1, a2, a3) _SDT_ALL_3(_SDT_NAME_LINE, a1, a2, a3)
#define _SDT_NAMES_4(a1, a2, a3, a4) _SDT_ALL_4(_SDT_NAME_LINE, a1, a2, a3, a4)
#define _SDT_NAMES_5(a1, a2, a3, a4, a5) _SDT_ALL_5(_SDT_NAME_LINE, a1, a2, a3, a4, a5)
#define _SDT_NAMES_6(a1, a2, a3, a4, a5, a6) _SDT_ALL_6(_SDT_NAME_LINE, a1, a2, a3, a4, a5, a6)
#define _SDT_NAMES_7(a1, a2, a3, a4, a5, a6, a7) _SDT_ALL_7(_SDT_NAME_LINE, a1, a2, a3, a4, a5, a6, a7)
#define _SDT_NAMES_8(a1, a2, a3, a4, a5, a6, a7, a8) _SDT_ALL_8(_SDT_NAME_LINE, a1, a2, a3, a4, a5, a6, a7, a8)
#define _SDT_NAMES_9(a1, a2, a3, a4, a5, a6, a7, a8, a9) _SDT_ALL_9(_SDT_NAME_LINE, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define _SDT_NAMES_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _SDT_ALL_10(_SDT_NAME_LINE, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define _SDT_NAMES_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _SDT_ALL_11(_SDT_NAME_LINE, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define _SDT_NAMES_12(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _SDT_ALL_12(_SDT_NAME_LINE, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)

/*
 * Where the codes go. Up to 9 arguments: into the probe's own statement,
 * after its operands (at most 30 in all), which writes no more bytes for
 * them; the record's writer is then the base's statement, which has no
 * operands: no statement more than without records. The codes follow the
 * argument operands, before the site's (named) one: from operand 2n in
 * registers, 2n + 2 in a frame block, packed five bits each into one
 * operand (two from 7 arguments on: _SDT_PACK_n), which the text names
 * three times however many arguments there are: clang looks up the
 * source of every operand a statement's text names, and that lookup, not
 * the bytes, is what a record cost it. _SDT_RK_n is the key (the count,
 * then the packed codes) and _SDT_RB_n sets .L__sdt_c (and .L__sdt_d)
 * to them and writes the codes' bytes from those, each one string token
 * (tokens, more than bytes, are what the compiler's preprocessor spends
 * its time on). More arguments: a statement of their own, with
 * _SDT_K_n and _SDT_B_n, one operand per code.
 */
#if _SDT_ARG_IN_FRAME
#define _SDT_RK_1 ".1.%n4"
#define _SDT_RB_1 "\n.set .L__sdt_c,%n4\n.byte .L__sdt_c&31"
#define _SDT_RK_2 ".2.%n6"
#define _SDT_RB_2 "\n.set .L__sdt_c,%n6\n.byte .L__sdt_c&31,(.L__sdt_c>>5)&31"
#define _SDT_RK_3 ".3.%n8"
#define _SDT_RB_3 "\n.set .L__sdt_c,%n8\n.byte .L__sdt_c&31,(.L__sdt_c>>5)&31,(.L__sdt_c>>10)&31"
#define _SDT_RK_4 ".4.%n10"
#define _SDT_RB_4 "\n.set .L__sdt_c,%n10\n.byte .L__sdt_c&31,(.L__sdt_c>>5)&31,(.L__sdt_c>>10)&31,(.L__sdt_c>>15)&31"
#define _SDT_RK_5 ".5.%n12"
#define _SDT_RB_5 "\n.set .L__sdt_c,%n12\n.byte .L__sdt_c&31,(.L__sdt_c>>5)&31,(.L__sdt_c>>10)&31,(.L__sdt_c>>15)&31,(.L__sdt_c>>20)&31"
#define _SDT_RK_6 ".6.%n14"
#define _SDT_RB_6 "\n.set .L__sdt_c,%n14\n.byte .L__sdt_c&31,(.L__sdt_c>>5)&31,(.L__sdt_c>>10)&31,(.L__sdt_c>>15)&31,(.L__sdt_c>>20)&31,(.L__sdt_c>>25)&31"
#define _SDT_RK_7 ".7.%n16.%n17"
#define _SDT_RB_7 "\n.set .L__sdt_c,%n16\n.set .L__sdt_d,%n17\n.byte .L__sdt_c&31,(.L__sdt_c>>5)&31,(.L__sdt_c>>10)&31,(.L__sdt_c>>15)&31,(.L__sdt_c>>20)&31,(.L__sdt_c>>25)&31,.L__sdt_d&31"
#define _SDT_RK_8 ".8.%n18.%n19"
#define _SDT_RB_8 "\n.set .L__sdt_c,%n18\n.set .L__sdt_d,%n19\n.byte .L__sdt_c&31,(.L__sdt_c>>5)&31,(.L__sdt_c>>10)&31,(.L__sdt_c>>15)&31,(.L__sdt_c>>20)&31,(.L__sdt_c>>25)&31,.L__sdt_d&31,(.L__sdt_d>>5)&31"
#define _SDT_RK_9 ".9.%n20.%n21"
#define _SDT_RB_9 "\n.set .L__sdt_c,%n20\n.set .L__sdt_d,%n21\n.byte .L__sdt_c&31,(.L__sdt_c>>5)&31,(.L__sdt_c>>10)&31,(.L__sdt_c>>15)&31,(.L__sdt_c>>20)&31,(.L__sdt_c>>25)&31,.L__sdt_d&31,(.L__sdt_d>>5)&31,(.L__sdt_d>>10)&31"
#else
#define _SDT_RK_1 ".1.%n2"
#define _SDT_RB_1 "\n.set .L__sdt_c,%n2\n.byte .L__sdt_c&31"
#define _SDT_RK_2 ".2.%n4"
#define _SDT_RB_2 "\n.set .L__sdt_c,%n4\n.byte .L__sdt_c&31,(.L__sdt_c>>5)&31"
#define _SDT_RK_3 ".3.%n6"
#define _SDT_RB_3 "\n.set .L__sdt_c,%n6\n.byte .L__sdt_c&31,(.L__sdt_c>>5)&31,(.L__sdt_c>>10)&31"
#define _SDT_RK_4 ".4.%n8"
#define _SDT_RB_4 "\n.set .L__sdt_c,%n8\n.byte .L__sdt_c&31,(.L__sdt_c>>5)&31,(.L__sdt_c>>10)&31,(.L__sdt_c>>15)&31"
#define _SDT_RK_5 ".5.%n10"
#define _SDT_RB_5 "\n.set .L__sdt_c,%n10\n.byte .L__sdt_c&31,(.L__sdt_c>>5)&31,(.L__sdt_c>>10)&31,(.L__sdt_c>>15)&31,(.L__sdt_c>>20)&31"
#define _SDT_RK_6 ".6.%n12"
#define _SDT_RB_6 "\n.set .L__sdt_c,%n12\n.byte .L__sdt_c&31,(.L__sdt_c>>5)&31,(.L__sdt_c>>10)&31,(.L__sdt_c>>15)&31,(.L__sdt_c>>20)&31,(.L__sdt_c>>25)&31"
#define _SDT_RK_7 ".7.%n14.%n15"
#define _SDT_RB_7 "\n.set .L__sdt_c,%n14\n.set .L__sdt_d,%n15\n.byte .L__sdt_c&31,(.L__sdt_c>>5)&31,(.L__sdt_c>>10)&31,(.L__sdt_c>>15)&31,(.L__sdt_c>>20)&31,(.L__sdt_c>>25)&31,.L__sdt_d&31"
#define _SDT_RK_8 ".8.%n16.%n17"
#define _SDT_RB_8 "\n.set .L__sdt_c,%n16\n.set .L__sdt_d,%n17\n.byte .L__sdt_c&31,(.L__sdt_c>>5)&31,(.L__sdt_c>>10)&31,(.L__sdt_c>>15)&31,(.L__sdt_c>>20)&31,(.L__sdt_c>>25)&31,.L__sdt_d&31,(.L__sdt_d>>5)&31"
#define _SDT_RK_9 ".9.%n18.%n19"
#define _SDT_RB_9 "\n.set .L__sdt_c,%n18\n.set .L__sdt_d,%n19\n.byte .L__sdt_c&31,(.L__sdt_c>>5)&31,(.L__sdt_c>>10)&31,(.L__sdt_c>>15)&31,(.L__sdt_c>>20)&31,(.L__sdt_c>>25)&31,.L__sdt_d&31,(.L__sdt_d>>5)&31,(.L__sdt_d>>10)&31"
#endif
/*
 * The record of probe provider:name with n arguments, in three parts:
 * _SDT_REC_IN, text of the probe's statement; _SDT_REC_OPS(n, ops, args),
 * its operands after the arguments' (OPS##_P##n args: the codes, packed;
 * <usdt.h> passes its own); _SDT_REC_AFTER, the statements after it, the
 * base's included.
 */
/*
 * The record of a probe's .d declaration, for a header dtrace-gen wrote
 * (_SDT_DPROBE_n below): SIG is its count, types and names as the record
 * spells them (octal escapes, each string's NUL as "\\0"), marked
 * "header". Same rules: one per assembler stream, one per link.
 */
#define _SDT_REC_D(provider, name, sig)                                        \
	__asm__ __volatile__(                                                  \
		_SDT_BASE ".ifndef .L__sdtkit." _SDT_STR(provider) "."         \
		_SDT_STR(name) "\n.set .L__sdtkit." _SDT_STR(provider) "."     \
		_SDT_STR(name) ",1\n.pushsection .note.sdtkit,\"G\",\"note\"," \
		".sdtkit." _SDT_STR(provider) "." _SDT_STR(name) ",comdat\n"   \
		".balign 4\n.4byte 7,2f-1f,1\n.asciz \"sdtkit\"\n.balign 4\n"  \
		"1: .asciz \"" _SDT_STR(provider) "\",\"" _SDT_STR(name)       \
		"\"\n.ascii \"" sig "\"\n.asciz \"header\"\n2: .balign 4\n"     \
		".popsection\n.endif\n")
#if defined(__cplusplus) ||                                                    \
	(defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)
#define _SDT_REC_IN(provider, name, n) _SDT_REC_IN_##n(provider, name)
#define _SDT_REC_IN_0(provider, name) ""
#define _SDT_REC_IN_1(provider, name) \
	_SDT_REC_CODES(provider, name, 1, _SDT_RK_1, _SDT_RB_1)
#define _SDT_REC_IN_2(provider, name) \
	_SDT_REC_CODES(provider, name, 2, _SDT_RK_2, _SDT_RB_2)
#define _SDT_REC_IN_3(provider, name) \
	_SDT_REC_CODES(provider, name, 3, _SDT_RK_3, _SDT_RB_3)
#define _SDT_REC_IN_4(provider, name) \
	_SDT_REC_CODES(provider, name, 4, _SDT_RK_4, _SDT_RB_4)
#define _SDT_REC_IN_5(provider, name) \
	_SDT_REC_CODES(provider, name, 5, _SDT_RK_5, _SDT_RB_5)
#define _SDT_REC_IN_6(provider, name) \
	_SDT_REC_CODES(provider, name, 6, _SDT_RK_6, _SDT_RB_6)
#define _SDT_REC_IN_7(provider, name) \
	_SDT_REC_CODES(provider, name, 7, _SDT_RK_7, _SDT_RB_7)
#define _SDT_REC_IN_8(provider, name) \
	_SDT_REC_CODES(provider, name, 8, _SDT_RK_8, _SDT_RB_8)
#define _SDT_REC_IN_9(provider, name) \
	_SDT_REC_CODES(provider, name, 9, _SDT_RK_9, _SDT_RB_9)
#define _SDT_REC_IN_10(provider, name) ""
#define _SDT_REC_IN_11(provider, name) ""
#define _SDT_REC_IN_12(provider, name) ""
#define _SDT_REC_OPS(n, ops, args) _SDT_REC_OPS_##n(ops, args)
#define _SDT_REC_OPS_0(ops, args)
#define _SDT_REC_OPS_1(ops, args) , ops##_P1 args
#define _SDT_REC_OPS_2(ops, args) , ops##_P2 args
#define _SDT_REC_OPS_3(ops, args) , ops##_P3 args
#define _SDT_REC_OPS_4(ops, args) , ops##_P4 args
#define _SDT_REC_OPS_5(ops, args) , ops##_P5 args
#define _SDT_REC_OPS_6(ops, args) , ops##_P6 args
#define _SDT_REC_OPS_7(ops, args) , ops##_P7 args
#define _SDT_REC_OPS_8(ops, args) , ops##_P8 args
#define _SDT_REC_OPS_9(ops, args) , ops##_P9 args
#define _SDT_REC_OPS_10(ops, args)
#define _SDT_REC_OPS_11(ops, args)
#define _SDT_REC_OPS_12(ops, args)
#define _SDT_REC_AFTER(provider, name, n, ops, args)                           \
	_SDT_REC_AFTER_##n(provider, name, n, ops, args)
#define _SDT_REC_AFTER_0(provider, name, n, ops, args)                         \
	__asm__ __volatile__(_SDT_BASE)
/* 1 to 9 arguments: the codes rode in the probe's statement (above). */
#define _SDT_REC_AFTER_W(provider, name, n, ops, args)                         \
	__asm__ __volatile__(_SDT_BASE _SDT_REC_TEXT(provider, name,          \
						      _SDT_NAMES_##n args))
#define _SDT_REC_AFTER_1 _SDT_REC_AFTER_W
#define _SDT_REC_AFTER_2 _SDT_REC_AFTER_W
#define _SDT_REC_AFTER_3 _SDT_REC_AFTER_W
#define _SDT_REC_AFTER_4 _SDT_REC_AFTER_W
#define _SDT_REC_AFTER_5 _SDT_REC_AFTER_W
#define _SDT_REC_AFTER_6 _SDT_REC_AFTER_W
#define _SDT_REC_AFTER_7 _SDT_REC_AFTER_W
#define _SDT_REC_AFTER_8 _SDT_REC_AFTER_W
#define _SDT_REC_AFTER_9 _SDT_REC_AFTER_W
/* 10 to 12: the codes in a statement of their own first. */
#define _SDT_REC_AFTER_X(provider, name, n, ops, args)                         \
	__asm__ __volatile__(_SDT_REC_CODES(provider, name, n, _SDT_K_##n,     \
					    _SDT_B_##n)                        \
			     :                                                 \
			     : ops##_##n args);                                \
	_SDT_REC_AFTER_W(provider, name, n, ops, args)
#define _SDT_REC_AFTER_10 _SDT_REC_AFTER_X
#define _SDT_REC_AFTER_11 _SDT_REC_AFTER_X
#define _SDT_REC_AFTER_12 _SDT_REC_AFTER_X
#else
/*
 * C90 promises string literals of 509 characters: the same text in short
 * statements, the record's pieces appended to one section and group.
 */
#define _SDT_REC_PART(text)                                                    \
	__asm__ __volatile__(".if .L__sdt_w\n__sdt_sec\n" text                \
			     ".popsection\n.endif\n");
#define _SDT_NAME_PART(i, x) _SDT_REC_PART(_SDT_NAME_LINE(i, x))
#define _SDT_NAME_PARTS_1(a1) _SDT_ALL_1(_SDT_NAME_PART, a1)
#define _SDT_NAME_PARTS_2(a1, a2) _SDT_ALL_2(_SDT_NAME_PART, a1, a2)
#define _SDT_NAME_PARTS_3(a1, a2, a3) _SDT_ALL_3(_SDT_NAME_PART, a1, a2, a3)
#define _SDT_NAME_PARTS_4(a1, a2, a3, a4) _SDT_ALL_4(_SDT_NAME_PART, a1, a2, a3, a4)
#define _SDT_NAME_PARTS_5(a1, a2, a3, a4, a5) _SDT_ALL_5(_SDT_NAME_PART, a1, a2, a3, a4, a5)
#define _SDT_NAME_PARTS_6(a1, a2, a3, a4, a5, a6) _SDT_ALL_6(_SDT_NAME_PART, a1, a2, a3, a4, a5, a6)
#define _SDT_NAME_PARTS_7(a1, a2, a3, a4, a5, a6, a7) _SDT_ALL_7(_SDT_NAME_PART, a1, a2, a3, a4, a5, a6, a7)
#define _SDT_NAME_PARTS_8(a1, a2, a3, a4, a5, a6, a7, a8) _SDT_ALL_8(_SDT_NAME_PART, a1, a2, a3, a4, a5, a6, a7, a8)
#define _SDT_NAME_PARTS_9(a1, a2, a3, a4, a5, a6, a7, a8, a9) _SDT_ALL_9(_SDT_NAME_PART, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define _SDT_NAME_PARTS_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _SDT_ALL_10(_SDT_NAME_PART, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define _SDT_NAME_PARTS_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _SDT_ALL_11(_SDT_NAME_PART, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define _SDT_NAME_PARTS_12(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _SDT_ALL_12(_SDT_NAME_PART, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)
#define _SDT_REC_IN(provider, name, n) ""
#define _SDT_REC_OPS(n, ops, args)
#define _SDT_REC_AFTER(provider, name, n, ops, args)                           \
	_SDT_REC_AFTER_##n(provider, name, n, ops, args)
#define _SDT_REC_AFTER_0(provider, name, n, ops, args)                         \
	__asm__ __volatile__(_SDT_BASE)
#define _SDT_REC_AFTER_1 _SDT_REC_PARTS
#define _SDT_REC_AFTER_2 _SDT_REC_PARTS
#define _SDT_REC_AFTER_3 _SDT_REC_PARTS
#define _SDT_REC_AFTER_4 _SDT_REC_PARTS
#define _SDT_REC_AFTER_5 _SDT_REC_PARTS
#define _SDT_REC_AFTER_6 _SDT_REC_PARTS
#define _SDT_REC_AFTER_7 _SDT_REC_PARTS
#define _SDT_REC_AFTER_8 _SDT_REC_PARTS
#define _SDT_REC_AFTER_9 _SDT_REC_PARTS
#define _SDT_REC_AFTER_10 _SDT_REC_PARTS
#define _SDT_REC_AFTER_11 _SDT_REC_PARTS
#define _SDT_REC_AFTER_12 _SDT_REC_PARTS
#define _SDT_REC_PARTS(provider, name, n, ops, args)                           \
	__asm__ __volatile__(_SDT_BASE);                                       \
	__asm__ __volatile__(".macro __sdt_sec\n" _SDT_REC_PUSH(provider, name) \
			     ".endm\n");                                       \
	__asm__ __volatile__(_SDT_REC_KEYED(provider, name, _SDT_K_##n, "")    \
			     :                                                 \
			     : ops##_##n args);                                \
	__asm__ __volatile__(".if .L__sdt_w\n" _SDT_REC_HEAD("__sdt_sec\n",   \
							     provider, name, n, \
							     _SDT_B_##n)       \
			     ".endif\n"                                        \
			     :                                                 \
			     : ops##_##n args);                                \
	_SDT_NAME_PARTS_##n args                                               \
	__asm__ __volatile__(".if .L__sdt_w\n__sdt_sec\n996: .balign 4\n"     \
			     ".popsection\n.endif\n.purgem __sdt_sec\n")
#endif
#else
#define _SDT_REC_IN(provider, name, n) ""
#define _SDT_REC_OPS(n, ops, args)
#define _SDT_REC_AFTER(provider, name, n, ops, args)                           \
	__asm__ __volatile__(_SDT_BASE)
#define _SDT_REC_D(provider, name, sig) __asm__ __volatile__(_SDT_BASE)
#endif

/*
 * A probe's record, by kind: C, the compiler's (codes in the probe's
 * statement, the record after it); D, a .d declaration's (SIG).
 */
#define _SDT_KIND_IN_C(provider, name, n) _SDT_REC_IN(provider, name, n)
#define _SDT_KIND_IN_D(provider, name, n) ""
#define _SDT_KIND_OPS_C(n, args) _SDT_REC_OPS(n, _SDT_CODES, args)
#define _SDT_KIND_OPS_D(n, args)
#define _SDT_KIND_AFTER_C(provider, name, n, args, sig)                        \
	_SDT_REC_AFTER(provider, name, n, _SDT_CODES, args)
#if defined(__cplusplus) ||                                                    \
	(defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)
#define _SDT_KIND_AFTER_D(provider, name, n, args, sig)                        \
	_SDT_REC_D(provider, name, sig)
#else
/* C90's 509 characters hold no .d record: the compiler's, and -G's. */
#undef _SDT_KIND_IN_D
#undef _SDT_KIND_OPS_D
#define _SDT_KIND_IN_D _SDT_KIND_IN_C
#define _SDT_KIND_OPS_D _SDT_KIND_OPS_C
#define _SDT_KIND_AFTER_D _SDT_KIND_AFTER_C
#endif

/*
 * ---- The site of a C or C++ probe -------------------------------------
 * Everywhere: one nop at the note's PC (_SDT_NOP), which tracers replace
 * with a trap (int3 on x86) while attached.
 *
 * x86_64, on request (docs/fast-attach.md): the bytes 90 0f 1f 44 00 00
 * (nop, then the 5-byte nop) at the PC. libbpf 1.7 and later attach there
 * at PC + 1 where the kernel has the uprobe syscall, and the kernel turns
 * the 5-byte nop into a call to its trampoline: no trap per hit. Tracers
 * that plant int3 at the PC (gdb, perf, bpftrace, older libbpf) trap on
 * the 1-byte nop as before. The call pushes below %rsp, into the red zone
 * a leaf function may keep live data in, so the site steps %rsp over the
 * 128 bytes of red zone first and back after (lea, which leaves the flags
 * alone; as the kernel reserves it for signal frames, nothing else is
 * below). That is exact for every argument because an argument here is a
 * register, never %rsp itself: "l" is any general register but %rsp (gcc
 * otherwise hands an `asm("rsp")' register variable over as %rsp), and
 * the value is an expression (_SDT_ARG_VALUE: clang binds a register
 * variable itself).
 * Unwinding from inside the window: where the function's CFA is %rsp
 * plus an offset, the CFA moves by 128 with %rsp, which the site says in
 * its CFI; where it is %rbp + 16 (a frame pointer), nothing moves. An
 * optimizing gcc prints the CFA as a memory operand, "8(%rsp)" or
 * "16(%rbp)", which tells the two apart at no cost. Elsewhere (clang, gcc
 * -O0) the CFA is computed into a register, which the window's CFI names:
 * one lea more. Without CFI in the assembly
 * (-fno-asynchronous-unwind-tables) there is none to keep; gcc's
 * -fno-dwarf2-cfi-asm writes its tables without the site's directives.
 *
 * SDTKIT_FAST_ATTACH, defined empty or non-zero before this header, asks
 * for it; 0 keeps the 1-byte nop. Not for .S files or STAP_PROBE_ASM
 * (their operands may be %rsp-relative), nor with STAP_SDT_ARG_CONSTRAINT.
 * SDTKIT_FAST_ATTACH_NOP10: a 1-byte nop and a 10-byte nop instead, for
 * kernels that rewrite the 10-byte nop to step over the red zone
 * themselves; here every tracer traps at the PC.
 */
#if defined(__x86_64__) && !defined(STAP_SDT_ARG_CONSTRAINT) &&               \
	defined(SDTKIT_FAST_ATTACH_NOP10)
#define _SDT_SITE_OPEN "990: nop\n.byte 0x66,0x2e,0x0f,0x1f,0x84,0,0,0,0,0\n"
#elif defined(__x86_64__) && !defined(STAP_SDT_ARG_CONSTRAINT) &&             \
	defined(SDTKIT_FAST_ATTACH) &&                                         \
	((SDTKIT_FAST_ATTACH + 0) != 0 || (7 - SDTKIT_FAST_ATTACH - 7) == 14)
#undef _SDT_ARG_REG
#define _SDT_ARG_REG "l"
#if !defined(__GCC_HAVE_DWARF2_CFI_ASM)
#define _SDT_SITE_CFA_IN
#define _SDT_SITE_CFA_OUT
#elif defined(__OPTIMIZE__) && !defined(__clang__)
#define _SDT_SITE_CFA(off)                                                     \
	".ifnc %[_SDT_CFA],16(%%rbp)\n.cfi_adjust_cfa_offset " #off          \
	"\n.endif\n"
#define _SDT_SITE_CFA_IN _SDT_SITE_CFA(128)
#define _SDT_SITE_CFA_OUT _SDT_SITE_CFA(-128)
#define _SDT_SITE_OPERAND , [_SDT_CFA] "m"(*(char *)__builtin_dwarf_cfa())
#else
#define _SDT_SITE_CFA_IN                                                       \
	".cfi_remember_state\n.cfi_def_cfa %[_SDT_CFA],0\n"
#define _SDT_SITE_CFA_OUT ".cfi_restore_state\n"
#define _SDT_SITE_OPERAND , [_SDT_CFA] "r"(__builtin_dwarf_cfa())
#endif
#define _SDT_SITE_OPEN                                                         \
	"lea -128(%%rsp),%%rsp\n" _SDT_SITE_CFA_IN                            \
	"990: nop\n.byte 0x0f,0x1f,0x44,0,0\n"
#define _SDT_SITE_CLOSE "lea 128(%%rsp),%%rsp\n" _SDT_SITE_CFA_OUT
#endif
#ifndef _SDT_SITE_OPEN
#define _SDT_SITE_OPEN _SDT_ASM1(990: _SDT_NOP)
#endif
#ifndef _SDT_SITE_CLOSE
#define _SDT_SITE_CLOSE ""
#endif
#ifndef _SDT_SITE_OPERAND
#define _SDT_SITE_OPERAND
#endif

/*
 * A probe hands its arguments' values to a tracer and nothing else: it
 * never dereferences a pointer, and no code depends on what it reads. So
 * gcc's flow warnings about a value (a pointer after free() or realloc(),
 * one into a scope that has ended, a local not yet set) are no bug at the
 * probe, and SystemTap's header, a system header, never shows them. Ours
 * keeps them quiet wherever it lives (-I too), for the probe's own asm
 * statement only: the user's code around it is warned about as before.
 * Where a warning is placed differs between compilers and versions, so
 * both guards stay: a _Pragma inside the expansion, around the asm
 * statement alone, which clang and gcc 12 to 14 obey for every one of
 * these (gcc 14 obeys nothing else for -Wuninitialized); and a #pragma
 * around the macro's definition (_SDT_PROBE below), which gcc up to 12
 * obeys for the uninitialized ones, placed at the macro's own text in
 * this file, and the only guard older gcc gets here. gcc accepts _Pragma
 * in C89 and C++98 modes too, -pedantic included.
 * Neither reaches the user's lines: a local of theirs read while unset
 * after or before the probe is warned about as before.
 */
#define _SDT_PRAGMA(x) _Pragma(#x)
/*
 * g++: an argument cast to its own type (_SDT_REG_VALUE) is no news to
 * the user; _SDT_CASTS_BEGIN/_END say so around <usdt.h>'s statement.
 */
#if defined(__cplusplus) && defined(__GNUC__) && !defined(__clang__)
#define _SDT_QUIET_CXX _SDT_PRAGMA(GCC diagnostic ignored "-Wuseless-cast")
#define _SDT_CASTS_BEGIN _SDT_PRAGMA(GCC diagnostic push) _SDT_QUIET_CXX
#define _SDT_CASTS_END _SDT_PRAGMA(GCC diagnostic pop)
#else
#define _SDT_QUIET_CXX
#define _SDT_CASTS_BEGIN
#define _SDT_CASTS_END
#endif
#if defined(__clang__)
#define _SDT_QUIET_BEGIN                                                       \
	_SDT_PRAGMA(clang diagnostic push)                                     \
	_SDT_PRAGMA(clang diagnostic ignored "-Wuninitialized")
#define _SDT_QUIET_END _SDT_PRAGMA(clang diagnostic pop)
#elif defined(__GNUC__) && __GNUC__ >= 12
#define _SDT_QUIET_BEGIN                                                       \
	_SDT_PRAGMA(GCC diagnostic push)                                       \
	_SDT_PRAGMA(GCC diagnostic ignored "-Wuse-after-free")                 \
	_SDT_PRAGMA(GCC diagnostic ignored "-Wdangling-pointer")               \
	_SDT_PRAGMA(GCC diagnostic ignored "-Wuninitialized")                  \
	_SDT_PRAGMA(GCC diagnostic ignored "-Wmaybe-uninitialized")            \
	_SDT_QUIET_CXX
#define _SDT_QUIET_END _SDT_PRAGMA(GCC diagnostic pop)
#else
#define _SDT_QUIET_BEGIN
#define _SDT_QUIET_END
#endif
#if defined(__GNUC__) && !defined(__clang__) &&                               \
	(__GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ >= 7))
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

/*
 * Where the spec names a whole 64-bit register (_SDT_ARG_EXTEND), the
 * register must hold the value whole: an integer narrower than it, bool
 * and enumerations included, is passed extended from its own type, sign
 * or zero. Otherwise the bits above it are whatever the
 * compiler left there: after a narrowing cast, `(int8_t)v', the rest of
 * v. Tracers that take the spec's low bytes read either right, but gdb
 * 16 narrows the register's value by a cast that is wrong for a negative
 * value out of the narrow type's range (-1@%rdx over 0x8899aabbccddeeff
 * reads 1). The spec is unchanged; the cost is at most one movsx/movzx
 * (sxtb, sext.w...) at the site, none where the value is already so.
 * Anything else (pointers, floats' bits, arrays, functions, C++ member
 * pointers and nullptr) is passed as before. Defined here, under the
 * #pragma above: gcc 12 places an unset local's warning at the cast.
 */
#if !_SDT_ARG_EXTEND
#define _SDT_REG_VALUE(i, x) _SDT_ARG_VALUE(x)
#elif defined(__cplusplus)
#define _SDT_REG_VALUE(i, x)                                                   \
	_SDT_ARG_VALUE(static_cast<__typeof__(__sdt_reg<_SDT_V##i>::value)>(x))
#else
/* The cast's operand is 0 where x is no integer: a struct fails no cast. */
#define _SDT_WIDE_OF(i)                                                        \
	(((_SDT_INTEGERS >> (_SDT_K##i & 31)) & 1) & (sizeof(_SDT_V##i) < 8))
#define _SDT_REG_VALUE(i, x)                                                   \
	__builtin_choose_expr(                                                 \
		_SDT_WIDE_OF(i),                                               \
		(__sdt_wide)__builtin_choose_expr(_SDT_WIDE_OF(i),             \
						  ((void)0, (x)), 0),          \
		_SDT_ARG_VALUE(x))
#endif

#define _SDT_PROBE(provider, name, n, args)                                    \
	_SDT_PROBE_WITH(provider, name, n, args, C, ~)
/* The probe, with its record of kind (C or D, above). */
#define _SDT_PROBE_WITH(provider, name, n, args, kind, sig)                    \
	do {                                                                   \
		_SDT_CHECKS_##n args _SDT_FRAME_##n args                       \
		_SDT_SEMAPHORE_USE(provider, name)                             \
		_SDT_QUIET_BEGIN                                               \
		__asm__ __volatile__(                                          \
			_SDT_SITE_OPEN _SDT_NOTE_DESC_AT(                      \
				provider, name, _SDT_SEMAPHORE(provider, name), \
				".asciz \"" _SDT_TEXT_##n "\"\n") _SDT_SITE_CLOSE \
				_SDT_KIND_IN_##kind(provider, name, n)         \
			:                                                      \
			: _SDT_OPERANDS_##n args                               \
				_SDT_KIND_OPS_##kind(n, args)                  \
					_SDT_SITE_OPERAND);                    \
		_SDT_QUIET_END                                                 \
		_SDT_KIND_AFTER_##kind(provider, name, n, args, sig);          \
	} while (0)
#if defined(__GNUC__) && !defined(__clang__) &&                               \
	(__GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ >= 7))
#pragma GCC diagnostic pop
#endif

/*
 * For headers dtrace-gen writes: _SDT_DPROBE_n(sig, provider, name, args)
 * is STAP_PROBEn with the record of the probe's .d declaration (SIG, see
 * _SDT_REC_D) instead of the compiler's. A header tests that
 * _SDT_DPROBE_1 is defined (ours, from this version on).
 */
#define _SDT_DPROBE_0(sig, provider, name)                                     \
	_SDT_PROBE_WITH(provider, name, 0, (), D, sig)
#define _SDT_DPROBE_1(sig, provider, name, a1) \
	_SDT_PROBE_WITH(provider, name, 1, (a1), D, sig)
#define _SDT_DPROBE_2(sig, provider, name, a1, a2) \
	_SDT_PROBE_WITH(provider, name, 2, (a1, a2), D, sig)
#define _SDT_DPROBE_3(sig, provider, name, a1, a2, a3) \
	_SDT_PROBE_WITH(provider, name, 3, (a1, a2, a3), D, sig)
#define _SDT_DPROBE_4(sig, provider, name, a1, a2, a3, a4) \
	_SDT_PROBE_WITH(provider, name, 4, (a1, a2, a3, a4), D, sig)
#define _SDT_DPROBE_5(sig, provider, name, a1, a2, a3, a4, a5) \
	_SDT_PROBE_WITH(provider, name, 5, (a1, a2, a3, a4, a5), D, sig)
#define _SDT_DPROBE_6(sig, provider, name, a1, a2, a3, a4, a5, a6) \
	_SDT_PROBE_WITH(provider, name, 6, (a1, a2, a3, a4, a5, a6), D, sig)
#define _SDT_DPROBE_7(sig, provider, name, a1, a2, a3, a4, a5, a6, a7) \
	_SDT_PROBE_WITH(provider, name, 7, (a1, a2, a3, a4, a5, a6, a7), D, sig)
#define _SDT_DPROBE_8(sig, provider, name, a1, a2, a3, a4, a5, a6, a7, a8) \
	_SDT_PROBE_WITH(provider, name, 8, (a1, a2, a3, a4, a5, a6, a7, a8), D, sig)
#define _SDT_DPROBE_9(sig, provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
	_SDT_PROBE_WITH(provider, name, 9, (a1, a2, a3, a4, a5, a6, a7, a8, a9), D, sig)
#define _SDT_DPROBE_10(sig, provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
	_SDT_PROBE_WITH(provider, name, 10, (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10), D, sig)
#define _SDT_DPROBE_11(sig, provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
	_SDT_PROBE_WITH(provider, name, 11, (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11), D, sig)
#define _SDT_DPROBE_12(sig, provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
	_SDT_PROBE_WITH(provider, name, 12, (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12), D, sig)

/*
 * Probes inside your own asm statement. STAP_PROBE_ASM(provider, name,
 * spec) puts a probe where it appears in the asm text; spec is either
 * literal ("-4@%eax 8@8(%rsp)", no "%%" needed in basic asm) or
 * STAP_PROBE_ASM_TEMPLATE(n), whose n arguments then come from
 * STAP_PROBE_ASM_OPERANDS(n, arg1, ..., argn) among the asm's inputs.
 * These operands cannot be copied to frame slots first: on 32-bit
 * machines, pass 1-, 2- or 4-byte values only.
 */
#ifdef STAP_SDT_ARG_CONSTRAINT
#define _SDT_ASM_REG _SDT_ARG_REG
#else
#define _SDT_ASM_REG "r"
#endif
#define _SDT_ASM_OPERAND_OF(i, x)                                              \
	_SDT_NAMED_OPERANDS(i, x, _SDT_ASM_REG(_SDT_ARG_VALUE(x)))
#if (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L) ||             \
	(defined(__cplusplus) && __cplusplus >= 201103L)
/* One argument: a literal spec; two: a template (marker, text). */
#define _SDT_ASM_KIND(...) _SDT_NTH3(__VA_ARGS__, 2, 1, ~)
#define _SDT_NTH3(a, b, n, ...) n
#define STAP_PROBE_ASM(provider, name, ...)                                    \
	_SDT_CAT(_SDT_PROBE_ASM_, _SDT_ASM_KIND(__VA_ARGS__))                  \
	(provider, name, __VA_ARGS__)
#define _SDT_PROBE_ASM_1(provider, name, spec)                                 \
	_SDT_NOTE(provider, name, _SDT_ARGS_LINE(_SDT_STR(spec))) _SDT_BASE
#define _SDT_PROBE_ASM_2(provider, name, marker, text)                         \
	_SDT_NOTE(provider, name, _SDT_ARGS_LINE(text)) _SDT_BASE
#define STAP_PROBE_ASM_TEMPLATE(n) _SDT_TEMPLATE, _SDT_NAMED_TEXT_##n
#define STAP_PROBE_ASM_OPERANDS(n, ...)                                        \
	_SDT_CAT(_SDT_ASM_OPERANDS_, n)(__VA_ARGS__)
#else
#define STAP_PROBE_ASM(provider, name, spec)                                   \
	_SDT_NOTE(provider, name, _SDT_ARGS_LINE(_SDT_STR(spec))) _SDT_BASE
#endif

#define _SDT_ASM_OPERANDS_0()
#define _SDT_ASM_OPERANDS_1(a1) _SDT_EACH_1(_SDT_ASM_OPERAND_OF, a1)
#define _SDT_ASM_OPERANDS_2(a1, a2) _SDT_EACH_2(_SDT_ASM_OPERAND_OF, a1, a2)
#define _SDT_ASM_OPERANDS_3(a1, a2, a3) _SDT_EACH_3(_SDT_ASM_OPERAND_OF, a1, a2, a3)
#define _SDT_ASM_OPERANDS_4(a1, a2, a3, a4) _SDT_EACH_4(_SDT_ASM_OPERAND_OF, a1, a2, a3, a4)
#define _SDT_ASM_OPERANDS_5(a1, a2, a3, a4, a5) _SDT_EACH_5(_SDT_ASM_OPERAND_OF, a1, a2, a3, a4, a5)
#define _SDT_ASM_OPERANDS_6(a1, a2, a3, a4, a5, a6) _SDT_EACH_6(_SDT_ASM_OPERAND_OF, a1, a2, a3, a4, a5, a6)
#define _SDT_ASM_OPERANDS_7(a1, a2, a3, a4, a5, a6, a7) _SDT_EACH_7(_SDT_ASM_OPERAND_OF, a1, a2, a3, a4, a5, a6, a7)
#define _SDT_ASM_OPERANDS_8(a1, a2, a3, a4, a5, a6, a7, a8) _SDT_EACH_8(_SDT_ASM_OPERAND_OF, a1, a2, a3, a4, a5, a6, a7, a8)
#define _SDT_ASM_OPERANDS_9(a1, a2, a3, a4, a5, a6, a7, a8, a9) _SDT_EACH_9(_SDT_ASM_OPERAND_OF, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define _SDT_ASM_OPERANDS_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _SDT_EACH_10(_SDT_ASM_OPERAND_OF, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define _SDT_ASM_OPERANDS_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _SDT_EACH_11(_SDT_ASM_OPERAND_OF, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define _SDT_ASM_OPERANDS_12(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _SDT_EACH_12(_SDT_ASM_OPERAND_OF, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)

#endif /* __ASSEMBLER__ */

/* ---- The API --------------------------------------------------------- */
#define STAP_PROBE(provider, name) _SDT_PROBE(provider, name, 0, ())
#define STAP_PROBE1(provider, name, a1) _SDT_PROBE(provider, name, 1, (a1))
#define STAP_PROBE2(provider, name, a1, a2)                                    \
	_SDT_PROBE(provider, name, 2, (a1, a2))
#define STAP_PROBE3(provider, name, a1, a2, a3)                                \
	_SDT_PROBE(provider, name, 3, (a1, a2, a3))
#define STAP_PROBE4(provider, name, a1, a2, a3, a4)                            \
	_SDT_PROBE(provider, name, 4, (a1, a2, a3, a4))
#define STAP_PROBE5(provider, name, a1, a2, a3, a4, a5)                        \
	_SDT_PROBE(provider, name, 5, (a1, a2, a3, a4, a5))
#define STAP_PROBE6(provider, name, a1, a2, a3, a4, a5, a6)                    \
	_SDT_PROBE(provider, name, 6, (a1, a2, a3, a4, a5, a6))
#define STAP_PROBE7(provider, name, a1, a2, a3, a4, a5, a6, a7)                \
	_SDT_PROBE(provider, name, 7, (a1, a2, a3, a4, a5, a6, a7))
#define STAP_PROBE8(provider, name, a1, a2, a3, a4, a5, a6, a7, a8)            \
	_SDT_PROBE(provider, name, 8, (a1, a2, a3, a4, a5, a6, a7, a8))
#define STAP_PROBE9(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9)        \
	_SDT_PROBE(provider, name, 9, (a1, a2, a3, a4, a5, a6, a7, a8, a9))
#define STAP_PROBE10(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)  \
	_SDT_PROBE(provider, name, 10,                                         \
		   (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10))
#define STAP_PROBE11(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10,  \
		     a11)                                                      \
	_SDT_PROBE(provider, name, 11,                                         \
		   (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11))
#define STAP_PROBE12(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10,  \
		     a11, a12)                                                 \
	_SDT_PROBE(provider, name, 12,                                         \
		   (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12))

/*
 * STAP_PROBEV(provider, name, args...): 0 to 12 arguments, counted. Needs
 * variadic macros: C99, C++11, or SDT_USE_VARIADIC as with SystemTap.
 * Provider and name are counted too, so no call leaves "..." empty.
 */
#if defined(SDT_USE_VARIADIC) ||                                               \
	(defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L) ||         \
	(defined(__cplusplus) && __cplusplus >= 201103L)
#define _SDT_NARG(...)                                                         \
	_SDT_NTH(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, ~)
#define _SDT_NTH(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, \
		 n, ...)                                                       \
	n
#define STAP_PROBEV(...)                                                       \
	_SDT_CAT(_SDT_PROBEV_, _SDT_NARG(__VA_ARGS__))(__VA_ARGS__)
#define _SDT_PROBEV_0 STAP_PROBE
#define _SDT_PROBEV_1 STAP_PROBE1
#define _SDT_PROBEV_2 STAP_PROBE2
#define _SDT_PROBEV_3 STAP_PROBE3
#define _SDT_PROBEV_4 STAP_PROBE4
#define _SDT_PROBEV_5 STAP_PROBE5
#define _SDT_PROBEV_6 STAP_PROBE6
#define _SDT_PROBEV_7 STAP_PROBE7
#define _SDT_PROBEV_8 STAP_PROBE8
#define _SDT_PROBEV_9 STAP_PROBE9
#define _SDT_PROBEV_10 STAP_PROBE10
#define _SDT_PROBEV_11 STAP_PROBE11
#define _SDT_PROBEV_12 STAP_PROBE12
#endif

/* DTrace's names for the same probes. */
#define DTRACE_PROBE(provider, name) STAP_PROBE(provider, name)
#define DTRACE_PROBE1(provider, name, a1) STAP_PROBE1(provider, name, a1)
#define DTRACE_PROBE2(provider, name, a1, a2)                                  \
	STAP_PROBE2(provider, name, a1, a2)
#define DTRACE_PROBE3(provider, name, a1, a2, a3)                              \
	STAP_PROBE3(provider, name, a1, a2, a3)
#define DTRACE_PROBE4(provider, name, a1, a2, a3, a4)                          \
	STAP_PROBE4(provider, name, a1, a2, a3, a4)
#define DTRACE_PROBE5(provider, name, a1, a2, a3, a4, a5)                      \
	STAP_PROBE5(provider, name, a1, a2, a3, a4, a5)
#define DTRACE_PROBE6(provider, name, a1, a2, a3, a4, a5, a6)                  \
	STAP_PROBE6(provider, name, a1, a2, a3, a4, a5, a6)
#define DTRACE_PROBE7(provider, name, a1, a2, a3, a4, a5, a6, a7)              \
	STAP_PROBE7(provider, name, a1, a2, a3, a4, a5, a6, a7)
#define DTRACE_PROBE8(provider, name, a1, a2, a3, a4, a5, a6, a7, a8)          \
	STAP_PROBE8(provider, name, a1, a2, a3, a4, a5, a6, a7, a8)
#define DTRACE_PROBE9(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9)      \
	STAP_PROBE9(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define DTRACE_PROBE10(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9,     \
		       a10)                                                    \
	STAP_PROBE10(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define DTRACE_PROBE11(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9,     \
		       a10, a11)                                               \
	STAP_PROBE11(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10,  \
		     a11)
#define DTRACE_PROBE12(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9,     \
		       a10, a11, a12)                                          \
	STAP_PROBE12(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10,  \
		     a11, a12)

#endif /* _SYS_SDT_H */
