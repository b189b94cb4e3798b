/* SPDX-License-Identifier: MIT */
/*
 * <usdt.h>: static probes (USDT) with any number of arguments and with
 * semaphores that need no provider file, in the API of libbpf's
 * single-header USDT library, on sdtkit's <sys/sdt.h>.
 *
 * A probe is a nop in the code and an ELF note (.note.stapsdt) that names
 * it group:name and says where each argument is when the nop is reached.
 * bpftrace, bcc, libbpf, perf, gdb and SystemTap read those notes. The
 * notes written here are <sys/sdt.h>'s, with its operand choice: every
 * argument is a register on 64-bit machines and a frame slot (register +
 * offset) on 32-bit ones, never a constant or a symbol, so every one of
 * those tracers reads every argument (perf, for one, records no constant).
 *
 * Three ways to write a probe; pick by what the arguments cost:
 *
 *   USDT(group, name, args...)
 *	A probe with 0 to 12 arguments and no semaphore. For values the code
 *	has at hand anyway: a not-traced probe costs the nop, plus at most a
 *	move per argument.
 *
 *   USDT_WITH_SEMA(group, name, args...)
 *   USDT_IS_ACTIVE(group, name)
 *	A probe with a semaphore of its own, made and named here: no .d file,
 *	no dtrace -G step. A tracer attached to the probe counts the
 *	semaphore up (libbpf, bpftrace and bcc through the kernel's uprobe
 *	reference counter), so USDT_IS_ACTIVE is true exactly while one is.
 *	For arguments worth computing only then:
 *
 *		if (USDT_IS_ACTIVE(app, request))
 *			USDT_WITH_SEMA(app, request, describe(req));
 *
 *	The semaphore is one per group:name per executable or shared object:
 *	every translation unit of the object shares it, and another object
 *	using the same group:name has its own (a tracer attached to the probe
 *	in one object raises that object's only). Name probes of a library
 *	apart from the program's if that matters.
 *
 *   USDT_DEFINE_SEMA(sema)			once, at file scope
 *   USDT_DECLARE_SEMA(sema)			in other units that use it
 *   USDT_WITH_EXPLICIT_SEMA(sema, group, name, args...)
 *   USDT_SEMA_IS_ACTIVE(sema)
 *	A semaphore you define and share among several probes: it is up
 *	while any of them is traced. Its symbol is USDT_SEMA(sema), hidden,
 *	in .probes, so it too belongs to one executable or shared object.
 *	In C++ declare it in the namespace (or an enclosing one) of the code
 *	that uses it; the symbol itself has no namespace.
 *
 * Testing a semaphore is racy by nature: a tracer can come or go between
 * the test and the probe, and misses or gets at most that one hit.
 *
 * Arguments are integers, enums, bool, pointers, arrays and functions (as
 * their address), float and double (as their bits, unsigned). Struct and
 * union values, and any other value that is not 1, 2, 4 or 8 bytes long
 * (__int128, long double, _Complex), pass their first bytes, up to 8, as
 * an unsigned integer (so a 3-byte struct is 4 bytes, zero-padded), as the
 * bytes lie in memory: a tracer reads the first field of a small struct
 * the way it would through a pointer. Pass a pointer for the rest. A C23
 * _BitInt of up to 64 bits passes as a long long or unsigned long long.
 *
 * The note gives each argument's place and size only; the type the
 * compiler sees (integers, bool, char *, const char *, other pointers,
 * float, double) is also recorded beside it, as a .d file's would be, so
 * sdt-list shows `app:open(const char *, int)' and its bpftrace program
 * prints the string. The record is data in a section never loaded: the
 * probe's code and note stay exactly as without it (see "Argument types"
 * below).
 *
 * Knobs, defined before the first #include of this header or of
 * <sys/sdt.h>:
 *   USDT_NOP	the probe's instruction(s), used as written: e.g. a 5-byte
 *		nop. Commas are fine. Default: <sys/sdt.h>'s one-byte nop (on
 *		x86 the kernel may turn a 5-byte nop into a call, which writes
 *		below the stack pointer: a leaf function's red zone).
 *   SDTKIT_FAST_ATTACH	(x86_64) <sys/sdt.h>'s site that newer libbpf
 *		enters with a call instead of a trap, red zone kept safe
 *		(docs/fast-attach.md). USDT_NOP, when defined, wins.
 *   SDTKIT_NO_TYPES	leaves the argument-type records out.
 *   USDT_ARG_CONSTRAINT	accepted and ignored. It lets libbpf's header
 *		hand the compiler a freer operand choice (its default "nor"
 *		allows constants and memory operands, which some tracers cannot
 *		read) when registers run out. Here a 64-bit machine has the
 *		registers for 12 arguments and a 32-bit one passes them in one
 *		frame block, so the override has nothing to fix; <sys/sdt.h>'s
 *		STAP_SDT_ARG_CONSTRAINT is the way to get another constraint.
 *
 * Needs variadic macros (C99, C++11) and GNU C (__typeof__, statement
 * expressions): gcc and clang. Works in every standard from there on,
 * pedantic included: group and name are counted with the arguments, so no
 * call leaves "..." empty, and neither __VA_OPT__ (C23, C++20) nor GNU's
 * ", ##__VA_ARGS__" is needed. <sys/sdt.h> may be included before or after
 * this header; SystemTap's <sys/sdt.h> may not be included before it.
 *
 * The symbols are libbpf's header's: implicit semaphores are
 * __usdt_sema_GROUP__NAME, explicit ones USDT_SEMA(sema) =
 * __usdt_sema_SEMA, so units built with either header share them.
 */

/* clang-format off */
#ifndef SDTKIT_USDT_H
/* sdtkit's version, as SDTKIT_SDT_H. */
#define SDTKIT_USDT_H 100

#if defined(__USDT_H)
#error "usdt.h: libbpf's usdt.h is already included; use one of the two"
#endif
/* libbpf's header skips itself if included after this one. */
#define __USDT_H 1

/* The version of libbpf's API this header implements. */
#define USDT_MAJOR_VERSION 0
#define USDT_MINOR_VERSION 1
#define USDT_PATCH_VERSION 0

#include "sys/sdt.h"

/*
 * Where this header cannot work, one #error says why, and the rest of it
 * is left out: its macros over another <sys/sdt.h> would bury that line
 * under dozens of errors. Stand-ins for the API keep the unit's own uses
 * of it from adding more.
 */
#if !defined(SDTKIT_SDT_H)
#error "usdt.h: SystemTap's <sys/sdt.h> was included first; include <usdt.h> (or sdtkit's <sys/sdt.h>) before it"
#define _USDT_STOP 1
#elif !defined(_SDT_NARG)
#error "usdt.h: needs variadic macros: C99 or C++11 (or define SDT_USE_VARIADIC)"
#define _USDT_STOP 1
#elif defined(__ASSEMBLER__)
#error "usdt.h: for C and C++; in .S files use <sys/sdt.h>'s STAP_PROBEV"
#define _USDT_STOP 1
#endif

#ifdef _USDT_STOP
#ifndef __ASSEMBLER__
struct usdt_sema {
	volatile unsigned short active;
};
#define USDT_SEMA(sema) __usdt_sema_##sema
#define USDT_DEFINE_SEMA(sema) struct usdt_sema USDT_SEMA(sema) = { 0 }
#define USDT_DECLARE_SEMA(sema) extern struct usdt_sema USDT_SEMA(sema)
#define USDT_SEMA_IS_ACTIVE(sema) (USDT_SEMA(sema).active != 0)
#define USDT_IS_ACTIVE(group, name) 0
#if (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L) ||             \
	(defined(__cplusplus) && __cplusplus >= 201103L)
#define USDT(...) do { } while (0)
#define USDT_WITH_SEMA(...) do { } while (0)
#define USDT_WITH_EXPLICIT_SEMA(...) do { } while (0)
#endif
#endif
#else /* _USDT_STOP: the header */

/* A semaphore: tracers count .active up while attached. */
struct usdt_sema {
	volatile unsigned short active;
};

/* ---- The API --------------------------------------------------------- */
#define USDT(...)                                                              \
	_USDT_N(_USDT_NONE, ~, _SDT_NARG(__VA_ARGS__), __VA_ARGS__)
#define USDT_WITH_SEMA(...)                                                    \
	_USDT_N(_USDT_IMPLICIT, ~, _SDT_NARG(__VA_ARGS__), __VA_ARGS__)
#define USDT_WITH_EXPLICIT_SEMA(sema, ...)                                     \
	_USDT_N(_USDT_EXPLICIT, sema, _SDT_NARG(__VA_ARGS__), __VA_ARGS__)

#define USDT_IS_ACTIVE(group, name)                                            \
	(__extension__({                                                       \
		_USDT_IMPLICIT_DECLARE(group, name);                           \
		_USDT_IMPLICIT_DEFINE(group, name)                             \
		_USDT_IMPLICIT_SYM(group, name, ~).active != 0;                \
	}))

#define USDT_SEMA(sema) __usdt_sema_##sema
#define USDT_DEFINE_SEMA(sema)                                                 \
	struct usdt_sema USDT_SEMA(sema) __asm__(_SDT_STR(USDT_SEMA(sema)))    \
		__attribute__((section(".probes"), visibility("hidden"),       \
			       used)) = { 0 }
#define USDT_DECLARE_SEMA(sema)                                                \
	extern struct usdt_sema USDT_SEMA(sema)                                \
		__asm__(_SDT_STR(USDT_SEMA(sema)))                             \
		__attribute__((visibility("hidden")))
#define USDT_SEMA_IS_ACTIVE(sema) (USDT_SEMA(sema).active != 0)

/* ---- Semaphores: what a probe's note points at ------------------------
 * Each kind K gives K_USE(group, name, sema), a statement before the
 * probe's asm, and K_SYM(group, name, sema), the symbol for the note.
 */
#define _USDT_NONE_USE(group, name, sema)
#define _USDT_NONE_SYM(group, name, sema) 0

/*
 * The implicit semaphore: two bytes in .probes, hidden (one object's own),
 * weak and in a comdat group keyed by its name, so that the definition
 * every unit that uses it carries leaves one copy per linked object. The
 * assembler's .ifndef keeps one definition per unit however many probes
 * and tests name it. A C reference (USDT_IS_ACTIVE) reads it directly.
 */
#define _USDT_IMPLICIT_SYM(group, name, sema) __usdt_sema_##group##__##name
#define _USDT_IMPLICIT_USE(group, name, sema) _USDT_IMPLICIT_DEFINE(group, name)
#define _USDT_IMPLICIT_DECLARE(group, name)                                    \
	extern struct usdt_sema _USDT_IMPLICIT_SYM(group, name, ~) __asm__(    \
		_SDT_STR(_USDT_IMPLICIT_SYM(group, name, ~)))                  \
		__attribute__((visibility("hidden")))
#define _USDT_IMPLICIT_DEFINE(group, name)                                     \
	_USDT_SEMA_ASM(_USDT_IMPLICIT_SYM(group, name, ~))
#define _USDT_SEMA_ASM(sym) _USDT_SEMA_ASM_(sym)
#define _USDT_SEMA_ASM_(sym)                                                   \
	__asm__ __volatile__(                                                  \
		_SDT_ASM1(.ifndef sym)                                         \
		_SDT_ASM5(.pushsection .probes, "awG", "progbits", sym, comdat) \
		_SDT_ASM1(.weak sym)                                           \
		_SDT_ASM1(.hidden sym)                                         \
		_SDT_ASM2(.type sym, STT_OBJECT)                               \
		_SDT_ASM1(.balign 2)                                           \
		_SDT_ASM1(sym: .2byte 0)                                       \
		_SDT_ASM2(.size sym, 2)                                        \
		_SDT_ASM1(.popsection)                                         \
		_SDT_ASM1(.endif));

/* An explicit semaphore is a C object: referring to it keeps it. */
#define _USDT_EXPLICIT_SYM(group, name, sema) USDT_SEMA(sema)
#define _USDT_EXPLICIT_USE(group, name, sema)                                  \
	__asm__ __volatile__("" : : "m"(USDT_SEMA(sema)));

/* ---- Arguments --------------------------------------------------------
 * _USDT_LET(i, x) evaluates x once into a local __usdt_a<i>: x itself
 * where <sys/sdt.h> takes it (a scalar of 1, 2, 4 or 8 bytes), else its
 * first bytes as an unsigned integer (see above). <sys/sdt.h>'s macros get
 * the local's name: they repeat each argument a dozen times (size, sign,
 * checks), and the argument's text, conversion included, repeated with it
 * made a 300-probe unit preprocess to 80 MB and compile 30 times slower.
 */
#ifdef __cplusplus
#define _USDT_CODE(i, x) __usdt_A##i::code
#define _USDT_FIT(n) ((n) <= 1 ? 1 : (n) <= 2 ? 2 : (n) <= 4 ? 4 : 8)
template <int __usdt_n> struct __usdt_bytes_type {
	typedef unsigned long long type;
};
template <> struct __usdt_bytes_type<1> {
	typedef unsigned char type;
};
template <> struct __usdt_bytes_type<2> {
	typedef unsigned short type;
};
template <> struct __usdt_bytes_type<4> {
	typedef unsigned int type;
};
template <typename __usdt_T,
	  bool __usdt_scalar = !__sdt_type<__usdt_T>::is_record &&
			       (sizeof(__usdt_T) == 1 || sizeof(__usdt_T) == 2 ||
				sizeof(__usdt_T) == 4 || sizeof(__usdt_T) == 8)>
struct __usdt_arg {
#ifdef _SDT_CODE_OF_TYPE
	enum { code = _SDT_CODE_OF_TYPE(__usdt_T) };
#endif
	static inline __attribute__((always_inline)) __usdt_T
	pass(__usdt_T __usdt_v)
	{
		return __usdt_v;
	}
};
template <typename __usdt_T> struct __usdt_arg<__usdt_T, false> {
#ifdef _SDT_CODE_OF_TYPE
	enum { code = _SDT_CODE_OF_TYPE(__usdt_T) };
#endif
	typedef typename __usdt_bytes_type<_USDT_FIT(sizeof(__usdt_T))>::type
		bytes;
	static inline __attribute__((always_inline)) bytes
	pass(const __usdt_T &__usdt_v)
	{
		bytes __usdt_b = 0;
		__builtin_memcpy(&__usdt_b, __builtin_addressof(__usdt_v),
				 sizeof(bytes) < sizeof(__usdt_T) ?
					 sizeof(bytes) :
					 sizeof(__usdt_T));
		return __usdt_b;
	}
};
#define _USDT_LET(i, x)                                                        \
	typedef __usdt_arg<_SDT_TYPE(x)> __usdt_A##i;                          \
	auto __usdt_a##i = __usdt_A##i::pass(x);
#else
/* _BitInt's classes: 18, and -1 (no class: clang up to 15) as bit 31. */
#define _USDT_BITINTS 0x80040000U
#define _USDT_CODE(i, x) _SDT_CODE_AT(i, __usdt_v##i)
#if _SDT_ARG_IN_FRAME || defined(STAP_SDT_ARG_CONSTRAINT)
#define _USDT_BYTES_TYPE(n)                                                    \
	__typeof__(__builtin_choose_expr(                                      \
		(n) <= 1, (unsigned char)0,                                    \
		__builtin_choose_expr(                                         \
			(n) <= 2, (unsigned short)0,                           \
			__builtin_choose_expr((n) <= 4, 0U, 0ULL))))
#define _USDT_BYTES(v)                                                         \
	(__extension__({                                                       \
		__typeof__(v) __usdt_v = (v);                                  \
		_USDT_BYTES_TYPE(sizeof(__usdt_v)) __usdt_b = 0;               \
		__builtin_memcpy(&__usdt_b, &__usdt_v,                         \
				 sizeof(__usdt_b) < sizeof(__usdt_v) ?         \
					 sizeof(__usdt_b) :                    \
					 sizeof(__usdt_v));                    \
		__usdt_b;                                                      \
	}))
/*
 * Argument i's local __usdt_v<i> (class __usdt_c<i>) as passed: itself
 * when it is no struct, union, _Complex or _BitInt, and of 1, 2, 4 or 8
 * bytes (_USDT_SCALAR). A _BitInt of up to 64 bits (class 18; -1, no
 * class, in clang up to 15) as long long or unsigned long long, as its
 * sign says: clang takes no _BitInt as an asm operand. Anything else, a
 * wider _BitInt too, as its first bytes, as a struct is. The classes are
 * bits of masks, and the value is written once (__auto_type): a probe
 * expands this per argument, and the compiler's time goes into macro
 * calls, operators and repeated text.
 */
#define _USDT_SCALAR(i)                                                        \
	((_SDT_SIZES >> (sizeof(__usdt_v##i) & 31)) &                          \
	 ~((_SDT_RECORDS | _USDT_BITINTS) >> (__usdt_c##i & 31)) & 1)
#define _USDT_SMALL_BITINT(i)                                                  \
	((_USDT_BITINTS >> (__usdt_c##i & 31)) & (sizeof(__usdt_v##i) < 9))
#define _USDT_BITINT_OF(i)                                                     \
	__builtin_choose_expr(_USDT_SMALL_BITINT(i), __usdt_v##i, 0)
#define _USDT_LET(i, x)                                                        \
	__typeof__(((void)0, (x))) __usdt_v##i = (x);                          \
	enum { __usdt_c##i = __builtin_classify_type(__usdt_v##i) };           \
	__extension__ __auto_type __usdt_a##i = __builtin_choose_expr(         \
		_USDT_SCALAR(i), __usdt_v##i,                                  \
		__builtin_choose_expr(                                         \
			_USDT_SMALL_BITINT(i),                                 \
			__builtin_choose_expr(                                 \
				(__typeof__(_USDT_BITINT_OF(i)))-1 < 0,        \
				(long long)_USDT_BITINT_OF(i),                 \
				(unsigned long long)_USDT_BITINT_OF(i)),       \
			_USDT_BYTES(__usdt_v##i)));
#else
/*
 * Machines that pass arguments in registers, C: each argument's local
 * __usdt_v<i> is what the caller wrote, and one enumeration per argument
 * holds what its operands need: _SDT_K<i>, its class; __usdt_s<i>, its
 * signed size, negated, as the spec prints it; __usdt_w<i>, whether the
 * register gets it extended (an integer narrower than the register, or a
 * _BitInt of up to 64 bits, which clang takes as no operand), and
 * __usdt_k<i>, whether it goes as it is. Anything else goes as its first
 * bytes (__usdt_bytes: an unsigned integer of 1, 2, 4 or 8 bytes, the
 * size the spec then says). The same operands as the path above, and
 * the same code, in a third of the text: a probe's text is what the
 * compiler spends its time on.
 */
static __inline__ __attribute__((__always_inline__, __unused__)) unsigned long long
__usdt_bytes(const void *__usdt_p, unsigned long __usdt_n)
{
	unsigned long long __usdt_b = 0;

	__builtin_memcpy(&__usdt_b, __usdt_p, __usdt_n < 8 ? __usdt_n : 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	/* The bytes as an integer of their size, not the top of 8 bytes. */
	if (__usdt_n < 8)
		__usdt_b >>= 8 * (__usdt_n > 2 ? 4 : __usdt_n > 1 ? 6 : 7);
#endif
	return __usdt_b;
}
#if _SDT_ARG_EXTEND
#define _USDT_WIDE_TYPE __sdt_wide
#define _USDT_NARROW(K, z) ((_SDT_INTEGERS >> ((K) & 31)) & ((z) < 8))
#else
#define _USDT_WIDE_TYPE long long
#define _USDT_NARROW(K, z) 0
#endif
/*
 * The enumeration, in order: _SDT_K<i>, the class; __usdt_z<i>, the
 * size; __usdt_b<i>, a _BitInt of up to 8 bytes; then __usdt_s<i>,
 * __usdt_w<i> and __usdt_k<i> from those (names cost the compiler less
 * than the expressions they stand for). Each name is pasted once, by
 * _USDT_LET and _USDT_OPERAND, and _USDT_LET_ and _USDT_OPERAND_ get
 * them whole: a paste is dearer to the preprocessor than an argument.
 */
#define _USDT_LET(i, x)                                                        \
	_USDT_LET_(x, __usdt_v##i, _SDT_K##i, __usdt_z##i, __usdt_b##i,       \
		   __usdt_s##i, __usdt_w##i, __usdt_k##i)
#define _USDT_LET_(x, v, K, z, b, s, w, k)                                     \
	__typeof__(((void)0, (x))) v = (x);                                    \
	enum {                                                                 \
		K = __builtin_classify_type(v),                                \
		z = sizeof(v),                                                 \
		b = (_USDT_BITINTS >> (K & 31)) & (z < 9),                     \
		s = ((__typeof__(__builtin_choose_expr(                        \
			     ((_SDT_INTEGERS >> (K & 31)) & (z < 9)) | b, v,   \
			     0U)))-1 < 1 ? 1 : -1) *                           \
		    ((b | (z > 4)) ? 8 : z > 2 ? 4 : z),                       \
		w = _USDT_NARROW(K, z) | b,                                    \
		k = (_SDT_SIZES >> (z & 31)) &                                 \
		    ~((_SDT_RECORDS | _USDT_BITINTS) >> (K & 31)) & 1          \
	};
#define _USDT_OPERAND(i, x)                                                    \
	_USDT_OPERAND_(__usdt_v##i, __usdt_s##i, __usdt_w##i, __usdt_k##i,    \
		       __usdt_z##i)
#define _USDT_OPERAND_(v, s, w, k, z)                                          \
	"n"(s), _SDT_ARG_REG(__builtin_choose_expr(                            \
			w, (_USDT_WIDE_TYPE)__builtin_choose_expr(w, v, 0),    \
			__builtin_choose_expr(k, v, __usdt_bytes(&v, z))))
#define _USDT_LEAN 1
#endif
#endif

/* ---- Argument types and names -----------------------------------------
 * The note says where an argument is and its size, not what it is; a .d
 * file would (`const char *path'), and sdtkit keeps that in a typed-probe
 * record (docs/typed-probes.md), which sdt-list and the bpftrace programs
 * it prints use to read a string as a string. <sys/sdt.h> writes it for
 * its own probes from the types the compiler sees and the arguments' text
 * (see "Argument types and names" there); here the same record, with
 * each argument's code taken from its local (its own type, before any
 * conversion) and its name from the text the caller wrote. No
 * instruction and no byte of the note changes. SDTKIT_NO_TYPES leaves the
 * records out.
 */
#define _USDT_CODE_OP(i, x) "n"(_USDT_CODE(i, x))
#define _USDT_CODES_P1(a1) _SDT_PACK_1(_USDT_CODE, a1)
#define _USDT_CODES_P2(a1, a2) _SDT_PACK_2(_USDT_CODE, a1, a2)
#define _USDT_CODES_P3(a1, a2, a3) _SDT_PACK_3(_USDT_CODE, a1, a2, a3)
#define _USDT_CODES_P4(a1, a2, a3, a4) _SDT_PACK_4(_USDT_CODE, a1, a2, a3, a4)
#define _USDT_CODES_P5(a1, a2, a3, a4, a5) _SDT_PACK_5(_USDT_CODE, a1, a2, a3, a4, a5)
#define _USDT_CODES_P6(a1, a2, a3, a4, a5, a6) _SDT_PACK_6(_USDT_CODE, a1, a2, a3, a4, a5, a6)
#define _USDT_CODES_P7(a1, a2, a3, a4, a5, a6, a7) _SDT_PACK_7(_USDT_CODE, a1, a2, a3, a4, a5, a6, a7)
#define _USDT_CODES_P8(a1, a2, a3, a4, a5, a6, a7, a8) _SDT_PACK_8(_USDT_CODE, a1, a2, a3, a4, a5, a6, a7, a8)
#define _USDT_CODES_P9(a1, a2, a3, a4, a5, a6, a7, a8, a9) _SDT_PACK_9(_USDT_CODE, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define _USDT_CODES_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _SDT_EACH_10(_USDT_CODE_OP, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define _USDT_CODES_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _SDT_EACH_11(_USDT_CODE_OP, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define _USDT_CODES_12(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _SDT_EACH_12(_USDT_CODE_OP, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)

/* ---- The probe --------------------------------------------------------
 * _USDT_N(kind, sema, n, group, name, args...): n is the argument count.
 * _USDT_n(kind, sema, group, name, a1..an): the probe with n arguments.
 */
#define _USDT_N(kind, sema, n, ...) _SDT_CAT(_USDT_, n)(kind, sema, __VA_ARGS__)
#define _USDT_0(k, s, g, n) _USDT_PROBE(k, s, g, n, 0, (), , ())
#define _USDT_1(k, s, g, n, a1) \
	_USDT_PROBE(k, s, g, n, 1, (a1), _USDT_LET(1, a1), \
		(__usdt_a1))
#define _USDT_2(k, s, g, n, a1, a2) \
	_USDT_PROBE(k, s, g, n, 2, (a1, a2), _USDT_LET(1, a1) _USDT_LET(2, a2), \
		(__usdt_a1, __usdt_a2))
#define _USDT_3(k, s, g, n, a1, a2, a3) \
	_USDT_PROBE(k, s, g, n, 3, (a1, a2, a3), _USDT_LET(1, a1) _USDT_LET(2, a2) _USDT_LET(3, a3), \
		(__usdt_a1, __usdt_a2, __usdt_a3))
#define _USDT_4(k, s, g, n, a1, a2, a3, a4) \
	_USDT_PROBE(k, s, g, n, 4, (a1, a2, a3, a4), _USDT_LET(1, a1) _USDT_LET(2, a2) _USDT_LET(3, a3) _USDT_LET(4, a4), \
		(__usdt_a1, __usdt_a2, __usdt_a3, __usdt_a4))
#define _USDT_5(k, s, g, n, a1, a2, a3, a4, a5) \
	_USDT_PROBE(k, s, g, n, 5, (a1, a2, a3, a4, a5), _USDT_LET(1, a1) _USDT_LET(2, a2) _USDT_LET(3, a3) _USDT_LET(4, a4) _USDT_LET(5, a5), \
		(__usdt_a1, __usdt_a2, __usdt_a3, __usdt_a4, __usdt_a5))
#define _USDT_6(k, s, g, n, a1, a2, a3, a4, a5, a6) \
	_USDT_PROBE(k, s, g, n, 6, (a1, a2, a3, a4, a5, a6), _USDT_LET(1, a1) _USDT_LET(2, a2) _USDT_LET(3, a3) _USDT_LET(4, a4) _USDT_LET(5, a5) _USDT_LET(6, a6), \
		(__usdt_a1, __usdt_a2, __usdt_a3, __usdt_a4, __usdt_a5, __usdt_a6))
#define _USDT_7(k, s, g, n, a1, a2, a3, a4, a5, a6, a7) \
	_USDT_PROBE(k, s, g, n, 7, (a1, a2, a3, a4, a5, a6, a7), _USDT_LET(1, a1) _USDT_LET(2, a2) _USDT_LET(3, a3) _USDT_LET(4, a4) _USDT_LET(5, a5) _USDT_LET(6, a6) _USDT_LET(7, a7), \
		(__usdt_a1, __usdt_a2, __usdt_a3, __usdt_a4, __usdt_a5, __usdt_a6, __usdt_a7))
#define _USDT_8(k, s, g, n, a1, a2, a3, a4, a5, a6, a7, a8) \
	_USDT_PROBE(k, s, g, n, 8, (a1, a2, a3, a4, a5, a6, a7, a8), _USDT_LET(1, a1) _USDT_LET(2, a2) _USDT_LET(3, a3) _USDT_LET(4, a4) _USDT_LET(5, a5) _USDT_LET(6, a6) _USDT_LET(7, a7) _USDT_LET(8, a8), \
		(__usdt_a1, __usdt_a2, __usdt_a3, __usdt_a4, __usdt_a5, __usdt_a6, __usdt_a7, __usdt_a8))
#define _USDT_9(k, s, g, n, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
	_USDT_PROBE(k, s, g, n, 9, (a1, a2, a3, a4, a5, a6, a7, a8, a9), _USDT_LET(1, a1) _USDT_LET(2, a2) _USDT_LET(3, a3) _USDT_LET(4, a4) _USDT_LET(5, a5) _USDT_LET(6, a6) _USDT_LET(7, a7) _USDT_LET(8, a8) _USDT_LET(9, a9), \
		(__usdt_a1, __usdt_a2, __usdt_a3, __usdt_a4, __usdt_a5, __usdt_a6, __usdt_a7, __usdt_a8, __usdt_a9))
#define _USDT_10(k, s, g, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
	_USDT_PROBE(k, s, g, n, 10, (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10), _USDT_LET(1, a1) _USDT_LET(2, a2) _USDT_LET(3, a3) _USDT_LET(4, a4) _USDT_LET(5, a5) _USDT_LET(6, a6) _USDT_LET(7, a7) _USDT_LET(8, a8) _USDT_LET(9, a9) _USDT_LET(10, a10), \
		(__usdt_a1, __usdt_a2, __usdt_a3, __usdt_a4, __usdt_a5, __usdt_a6, __usdt_a7, __usdt_a8, __usdt_a9, __usdt_a10))
#define _USDT_11(k, s, g, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
	_USDT_PROBE(k, s, g, n, 11, (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11), _USDT_LET(1, a1) _USDT_LET(2, a2) _USDT_LET(3, a3) _USDT_LET(4, a4) _USDT_LET(5, a5) _USDT_LET(6, a6) _USDT_LET(7, a7) _USDT_LET(8, a8) _USDT_LET(9, a9) _USDT_LET(10, a10) _USDT_LET(11, a11), \
		(__usdt_a1, __usdt_a2, __usdt_a3, __usdt_a4, __usdt_a5, __usdt_a6, __usdt_a7, __usdt_a8, __usdt_a9, __usdt_a10, __usdt_a11))
#define _USDT_12(k, s, g, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
	_USDT_PROBE(k, s, g, n, 12, (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12), _USDT_LET(1, a1) _USDT_LET(2, a2) _USDT_LET(3, a3) _USDT_LET(4, a4) _USDT_LET(5, a5) _USDT_LET(6, a6) _USDT_LET(7, a7) _USDT_LET(8, a8) _USDT_LET(9, a9) _USDT_LET(10, a10) _USDT_LET(11, a11) _USDT_LET(12, a12), \
		(__usdt_a1, __usdt_a2, __usdt_a3, __usdt_a4, __usdt_a5, __usdt_a6, __usdt_a7, __usdt_a8, __usdt_a9, __usdt_a10, __usdt_a11, __usdt_a12))

/*
 * The site: USDT_NOP as written, or <sys/sdt.h>'s (a nop, or the
 * fast-attach site); then the note, with the semaphore's symbol.
 */
#ifdef USDT_NOP
#define _USDT_STR(...) _USDT_STR_(__VA_ARGS__)
#define _USDT_STR_(...) #__VA_ARGS__
#define _USDT_SITE_OPEN "990: " _USDT_STR(USDT_NOP) "\n"
#define _USDT_SITE_CLOSE ""
#else
#define _USDT_SITE_OPEN _SDT_SITE_OPEN
#define _USDT_SITE_CLOSE _SDT_SITE_CLOSE
#endif

/*
 * _USDT_TYPES(n, args): the names of the arguments' types that
 * <sys/sdt.h>'s operands use (and its frame block, where it has one);
 * _USDT_OPERANDS(n, args): the operands. The lean path needs no names.
 */
#ifdef _USDT_LEAN
#define _USDT_TYPES(n, args)
#define _USDT_OPERANDS(n, args) _USDT_OPERANDS_##n args
#define _USDT_OPERANDS_0() "n"(0)
#define _USDT_OPERANDS_1(a1) _SDT_EACH_1(_USDT_OPERAND, a1)
#define _USDT_OPERANDS_2(a1, a2) _SDT_EACH_2(_USDT_OPERAND, a1, a2)
#define _USDT_OPERANDS_3(a1, a2, a3) _SDT_EACH_3(_USDT_OPERAND, a1, a2, a3)
#define _USDT_OPERANDS_4(a1, a2, a3, a4) _SDT_EACH_4(_USDT_OPERAND, a1, a2, a3, a4)
#define _USDT_OPERANDS_5(a1, a2, a3, a4, a5) _SDT_EACH_5(_USDT_OPERAND, a1, a2, a3, a4, a5)
#define _USDT_OPERANDS_6(a1, a2, a3, a4, a5, a6) _SDT_EACH_6(_USDT_OPERAND, a1, a2, a3, a4, a5, a6)
#define _USDT_OPERANDS_7(a1, a2, a3, a4, a5, a6, a7) _SDT_EACH_7(_USDT_OPERAND, a1, a2, a3, a4, a5, a6, a7)
#define _USDT_OPERANDS_8(a1, a2, a3, a4, a5, a6, a7, a8) _SDT_EACH_8(_USDT_OPERAND, a1, a2, a3, a4, a5, a6, a7, a8)
#define _USDT_OPERANDS_9(a1, a2, a3, a4, a5, a6, a7, a8, a9) _SDT_EACH_9(_USDT_OPERAND, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define _USDT_OPERANDS_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _SDT_EACH_10(_USDT_OPERAND, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define _USDT_OPERANDS_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _SDT_EACH_11(_USDT_OPERAND, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define _USDT_OPERANDS_12(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _SDT_EACH_12(_USDT_OPERAND, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)
#else
#define _USDT_TYPES(n, args) _SDT_DECLS_##n args _SDT_FRAME_##n args
#define _USDT_OPERANDS(n, args) _SDT_OPERANDS_##n args
#endif

/*
 * <sys/sdt.h>'s _SDT_PROBE, with a semaphore of the kind's; lets declares
 * the arguments' locals, args names them. Without its checks (every
 * local is a scalar it takes), but with the names of each local's type
 * and class that its operands use.
 */
#define _USDT_PROBE(kind, sema, group, name, n, raw, lets, args)               \
	do {                                                                   \
		lets _USDT_TYPES(n, args)                                      \
		kind##_USE(group, name, sema)                                  \
		_SDT_CASTS_BEGIN                                               \
		__asm__ __volatile__(                                          \
			_USDT_SITE_OPEN _SDT_NOTE_DESC_AT(                     \
				group, name, kind##_SYM(group, name, sema),    \
				_SDT_ARGS_LINE(_SDT_TEXT_##n)) _USDT_SITE_CLOSE \
				_SDT_REC_IN(group, name, n)                    \
			:                                                      \
			: _USDT_OPERANDS(n, args)                              \
				_SDT_REC_OPS(n, _USDT_CODES, raw)              \
					_SDT_SITE_OPERAND);                    \
		_SDT_CASTS_END                                                 \
		_SDT_REC_AFTER(group, name, n, _USDT_CODES, raw);              \
	} while (0)

#endif /* _USDT_STOP */
#endif /* SDTKIT_USDT_H */
