/* SPDX-License-Identifier: MIT */
/*
 * What a probe argument points at: the layout of a struct or union.
 *
 * A type record (typerec.h) says an argument is `struct order *o'; a
 * tracer that is to print `o->items' also needs to know where `items' is
 * and what it holds. That knowledge lives in the binary's DWARF (gone
 * after `strip'), in its separate debug file (when one is installed), or
 * in a small description of our own that survives `strip':
 *
 *   section SDT_TYPES_SECTION, owner SDT_TYPES_OWNER, type SDT_LAYOUT_NT
 *   desc    the type's name as an argument spells it (`struct order',
 *           `order_t'), then the struct and the structs nested in it,
 *           field by field, all NUL-terminated strings
 *
 * docs/struct-layouts.md is the description for readers. The same
 * strings are also this program's in-memory form: a layout read from
 * DWARF (layoutdw.c) is written as a descriptor first and parsed back by
 * sdt_layout_parse(), so one parser serves every source.
 */
#ifndef SDT_LAYOUT_H
#define SDT_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "elfobj.h"
#include "target.h"

#define SDT_LAYOUT_NT 2

/* Room for the name of a struct an argument points at (`struct order'). */
#define SDT_LAYOUT_NAME_MAX 1024

/* What a field holds, as one letter in the descriptor. */
enum sdt_field_kind {
	SDT_FK_INT = 'i',    /* signed integer or enum (also bit-fields) */
	SDT_FK_UINT = 'u',   /* unsigned integer, bool, enum */
	SDT_FK_FLOAT = 'f',  /* float, double, long double */
	SDT_FK_PTR = 'p',    /* a pointer other than to char */
	SDT_FK_STRPTR = 's', /* char *: a NUL-terminated string */
	SDT_FK_CHARS = 'c',  /* char [N]: a string of at most N bytes */
	SDT_FK_ARRAY = 'a',  /* an array of integers or pointers */
	SDT_FK_NESTED = 't', /* a struct or union, described too */
	SDT_FK_OPAQUE = 'o', /* bytes only: deeper nesting, arrays of structs */
};

struct sdt_field {
	const char *name; /* "" for an anonymous struct or union member */
	const char *type; /* as the source spells it: `uint32_t', `char [16]' */
	uint64_t offset;  /* bytes from the start of its struct */
	uint64_t size;	  /* bytes; a bit-field's: its declared type's */
	char kind;	  /* enum sdt_field_kind */
	unsigned bit_offset, bit_size; /* bit-fields: bits from the start
					  of the struct; bit_size 0 else */
	char elem_kind;		       /* SDT_FK_ARRAY: of what */
	unsigned elem_size;
	uint64_t count;
	unsigned nested; /* SDT_FK_NESTED: index into sdt_layout.structs */
};

struct sdt_struct {
	const char *kind; /* "struct" or "union" */
	const char *tag;  /* a C name to declare it by (never empty) */
	uint64_t size;
	unsigned nfields;
	struct sdt_field *fields; /* in the order of their offsets */
};

struct sdt_layout {
	const char *name; /* as looked up: `struct order', `order_t' */
	unsigned nstructs;
	struct sdt_struct *structs; /* [0] the type, then those nested in it */
	/* private: the descriptor the strings point into */
	char *desc_;
	size_t size_;
};

/* Growing NUL-separated strings: a descriptor being written. */
struct sdt_strbuf {
	char *p;
	size_t len, cap;
	int oom;
};

void sdt_strbuf_add(struct sdt_strbuf *b, const char *s);
void sdt_strbuf_addu(struct sdt_strbuf *b, uint64_t v);
void sdt_strbuf_free(struct sdt_strbuf *b);

/*
 * Parse the SIZE bytes at DESC (copied) into L. Returns 0, or -EINVAL
 * with *WHY saying what is wrong, or -ENOMEM.
 */
int sdt_layout_parse(const char *desc, size_t size, struct sdt_layout *l,
		     const char **why);
void sdt_layout_free(struct sdt_layout *l);

/* The descriptor L was parsed from, to write it again. */
const char *sdt_layout_desc(const struct sdt_layout *l, size_t *size);

/* Bytes the note of a SIZE-byte descriptor takes; encode it into BUF. */
size_t sdt_layout_note_size(size_t size);
size_t sdt_layout_note_encode(const struct sdt_target *t, const char *desc,
			      size_t size, unsigned char *buf);

/*
 * The first layout note in F's SDT_TYPES_SECTION that describes NAME:
 * 0 with *DESC and *SIZE set, -ENOENT when F carries none.
 */
int sdt_layout_find_note(const struct sdt_elf *f, const char *name,
			 const char **desc, size_t *size);

/*
 * The name of the struct an argument of C type TYPE points at (`struct
 * order' from `const struct order *', `order_t' from `order_t *') into
 * OUT; 0, or -1 when TYPE is no pointer to one named type.
 */
int sdt_layout_pointee(const char *type, char *out, size_t size);

#endif
