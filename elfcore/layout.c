/* SPDX-License-Identifier: MIT */
/*
 * Struct layouts (layout.h): the descriptor's one parser, its note, and
 * finding it in a file. The descriptor is strings only, so it reads the
 * same in either byte order; only the note header has one.
 *
 * A descriptor comes from a file we did not write, so the parser trusts
 * nothing: every number is checked against the struct it belongs to, a
 * nested struct may only be named by the outermost one (one level, no
 * cycles), and anything off is refused with a reason.
 */
#include <ctype.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"

#define MAX_STRUCTS 256
#define MAX_FIELDS 4096

void sdt_strbuf_add(struct sdt_strbuf *b, const char *s)
{
	size_t n = strlen(s) + 1;

	if (b->oom)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *p;

		while (cap < b->len + n)
			cap *= 2;
		if (!(p = realloc(b->p, cap))) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

void sdt_strbuf_addu(struct sdt_strbuf *b, uint64_t v)
{
	char num[24];

	snprintf(num, sizeof(num), "%" PRIu64, v);
	sdt_strbuf_add(b, num);
}

void sdt_strbuf_free(struct sdt_strbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* ------------------------------------------------------------------ */
/* Parsing                                                             */

struct reader {
	const unsigned char *p, *end;
	const char *why;
};

static const char *take(struct reader *r)
{
	const char *s = sdt_note_take_str(&r->p, r->end);

	if (!s && !r->why)
		r->why = "it ends in the middle of a struct";
	return s;
}

/* A decimal number no greater than MAX; sets r->why otherwise. */
static int take_num(struct reader *r, uint64_t max, uint64_t *v)
{
	const char *s = take(r);
	char *end;

	if (!s)
		return -1;
	if (!isdigit((unsigned char)*s) || (*s == '0' && s[1])) {
		r->why = "a number is not written in decimal";
		return -1;
	}
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (*end || errno || *v > max) {
		r->why = "a number is out of range";
		return -1;
	}
	return 0;
}

static int c_name(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return 0;
	for (; *s; s++) {
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	}
	return 1;
}

/*
 * C's keywords: no field or struct can be named one. (C++'s own, like
 * `class' or `new', are fine names in C, and the kernel uses them.)
 */
static int c_keyword(const char *s)
{
	static const char *const kw[] = {
		"auto",	      "break",	   "case",	     "char",
		"const",      "continue",  "default",	     "do",
		"double",     "else",	   "enum",	     "extern",
		"float",      "for",	   "goto",	     "if",
		"inline",     "int",	   "long",	     "register",
		"restrict",   "return",	   "short",	     "signed",
		"sizeof",     "static",	   "struct",	     "switch",
		"typedef",    "union",	   "unsigned",	     "void",
		"volatile",   "while",	   "_Bool",	     "_Alignas",
		"_Alignof",   "_Atomic",   "_Complex",	     "_Generic",
		"_Imaginary", "_Noreturn", "_Static_assert", "_Thread_local",
	};

	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++) {
		if (!strcmp(s, kw[i]))
			return 1;
	}
	return 0;
}

/* A size a scalar of kind K can have. */
static int scalar_size_ok(char k, uint64_t size)
{
	switch (k) {
	case SDT_FK_INT:
	case SDT_FK_UINT:
		return size == 1 || size == 2 || size == 4 || size == 8;
	case SDT_FK_PTR:
	case SDT_FK_STRPTR:
		return size == 4 || size == 8;
	case SDT_FK_FLOAT:
		return size == 4 || size == 8 || size == 10 || size == 12 ||
		       size == 16;
	default:
		return 1;
	}
}

static int scalar_kind(char k)
{
	return k == SDT_FK_INT || k == SDT_FK_UINT || k == SDT_FK_FLOAT ||
	       k == SDT_FK_PTR || k == SDT_FK_STRPTR;
}

/* The field's kind letter and what the extra string says for it. */
static int field_extra(struct reader *r, struct sdt_field *fl, const char *kind,
		       const char *extra, unsigned self, unsigned nstructs)
{
	unsigned a, b;
	uint64_t n;
	char k, end;

	if (!kind[0] || kind[1] || !strchr("iufpscato", kind[0])) {
		r->why = "a field's kind is not one of i u f p s c a t o";
		return -1;
	}
	fl->kind = kind[0];
	if (fl->kind == SDT_FK_NESTED) {
		if (self != 0 || sscanf(extra, "%u%c", &a, &end) != 1 ||
		    a == 0 || a >= nstructs) {
			r->why = "a nested struct is named wrongly";
			return -1;
		}
		fl->nested = a;
	} else if (fl->kind == SDT_FK_ARRAY) {
		if (sscanf(extra, "%c:%u:%" SCNu64 "%c", &k, &a, &n, &end) !=
			    3 ||
		    !scalar_kind(k) || !scalar_size_ok(k, a) || !n ||
		    fl->size % a || n != fl->size / a) {
			r->why = "an array field's element is wrong";
			return -1;
		}
		fl->elem_kind = k;
		fl->elem_size = a;
		fl->count = n;
	} else if (*extra) {
		if ((fl->kind != SDT_FK_INT && fl->kind != SDT_FK_UINT) ||
		    sscanf(extra, "%u:%u%c", &a, &b, &end) != 2 || !b ||
		    b > 64 || b > fl->size * 8 || a / 8 < fl->offset ||
		    a / 8 >= fl->offset + fl->size) {
			r->why = "a bit-field is described wrongly";
			return -1;
		}
		fl->bit_offset = a;
		fl->bit_size = b;
	}
	if (!scalar_size_ok(fl->kind, fl->size)) {
		r->why = "a field's size does not fit its kind";
		return -1;
	}
	return 0;
}

static int parse_field(struct reader *r, struct sdt_struct *s,
		       struct sdt_field *fl, unsigned self, unsigned nstructs)
{
	const char *kind, *extra;

	memset(fl, 0, sizeof(*fl));
	if (!(fl->name = take(r)) || !(fl->type = take(r)) ||
	    take_num(r, s->size, &fl->offset) ||
	    take_num(r, s->size, &fl->size) || !(kind = take(r)) ||
	    !(extra = take(r)))
		return -1;
	if (*fl->name && (!c_name(fl->name) || c_keyword(fl->name))) {
		r->why = "a field's name is not a C identifier";
		return -1;
	}
	if (!*fl->type) {
		r->why = "a field has no type";
		return -1;
	}
	if (field_extra(r, fl, kind, extra, self, nstructs))
		return -1;
	if (fl->bit_size ? (uint64_t)fl->bit_offset + fl->bit_size > s->size * 8
			 : fl->offset + fl->size > s->size) {
		r->why = "a field lies past the end of its struct";
		return -1;
	}
	return 0;
}

/* Where field F starts and ends, in bits from the start of its struct. */
static void field_bits(const struct sdt_field *f, uint64_t *from, uint64_t *to)
{
	*from = f->bit_size ? f->bit_offset : f->offset * 8;
	*to = *from + (f->bit_size ? f->bit_size : f->size * 8);
}

/*
 * A struct's fields follow one another in the order of their offsets and
 * never share a bit (a union's all start at 0); no two share a name.
 */
static int check_fields(struct reader *r, const struct sdt_struct *s)
{
	int is_union = !strcmp(s->kind, "union");
	uint64_t end = 0;

	for (unsigned i = 0; i < s->nfields; i++) {
		const struct sdt_field *f = &s->fields[i];
		uint64_t from, to;

		field_bits(f, &from, &to);
		if (is_union ? from != 0 && !f->bit_size
			     : from < end && to > from) {
			r->why = is_union
					 ? "a union's field is not at its start"
					 : "two fields overlap";
			return -1;
		}
		if (!is_union && to > end)
			end = to;
		for (unsigned k = 0; *f->name && k < i; k++) {
			if (!strcmp(s->fields[k].name, f->name)) {
				r->why = "two fields have one name";
				return -1;
			}
		}
	}
	return 0;
}

static int parse_struct(struct reader *r, struct sdt_struct *s, unsigned self,
			unsigned nstructs)
{
	uint64_t n;

	if (!(s->kind = take(r)) || !(s->tag = take(r)) ||
	    take_num(r, UINT32_MAX, &s->size) || take_num(r, MAX_FIELDS, &n))
		return -1;
	if (strcmp(s->kind, "struct") && strcmp(s->kind, "union")) {
		r->why = "a kind other than struct or union";
		return -1;
	}
	if (!c_name(s->tag) || c_keyword(s->tag)) {
		r->why = "a struct's tag is not a C identifier";
		return -1;
	}
	s->nfields = (unsigned)n;
	s->fields = calloc(n + 1, sizeof(*s->fields));
	if (!s->fields) {
		r->why = "out of memory";
		return -1;
	}
	for (unsigned i = 0; i < s->nfields; i++) {
		if (parse_field(r, s, &s->fields[i], self, nstructs))
			return -1;
	}
	return check_fields(r, s);
}

/* A nested field is as big as the struct it holds. */
static int check_nested(struct reader *r, const struct sdt_layout *l)
{
	const struct sdt_struct *s = &l->structs[0];

	for (unsigned i = 0; i < s->nfields; i++) {
		const struct sdt_field *f = &s->fields[i];

		if (f->kind == SDT_FK_NESTED &&
		    f->size != l->structs[f->nested].size) {
			r->why = "a nested struct's size is not its field's";
			return -1;
		}
	}
	return 0;
}

int sdt_layout_parse(const char *desc, size_t size, struct sdt_layout *l,
		     const char **why)
{
	struct reader r;
	uint64_t n;

	memset(l, 0, sizeof(*l));
	if (!(l->desc_ = malloc(size + 1)))
		return -ENOMEM;
	memcpy(l->desc_, desc, size);
	l->size_ = size;
	r = (struct reader){ (const unsigned char *)l->desc_,
			     (const unsigned char *)l->desc_ + size, NULL };
	if (!(l->name = take(&r)) || take_num(&r, MAX_STRUCTS, &n))
		goto bad;
	if (!n || !*l->name) {
		r.why = "it names no type or describes no struct";
		goto bad;
	}
	l->structs = calloc(n, sizeof(*l->structs));
	if (!l->structs) {
		r.why = "out of memory";
		goto bad;
	}
	l->nstructs = (unsigned)n;
	for (unsigned i = 0; i < l->nstructs; i++) {
		if (parse_struct(&r, &l->structs[i], i, l->nstructs))
			goto bad;
	}
	if (check_nested(&r, l))
		goto bad;
	for (; r.p < r.end; r.p++) {
		if (*r.p) {
			r.why = "bytes after its last struct";
			goto bad;
		}
	}
	return 0;
bad:
	*why = r.why;
	sdt_layout_free(l);
	return strcmp(*why, "out of memory") ? -EINVAL : -ENOMEM;
}

void sdt_layout_free(struct sdt_layout *l)
{
	for (unsigned i = 0; l->structs && i < l->nstructs; i++)
		free(l->structs[i].fields);
	free(l->structs);
	free(l->desc_);
	memset(l, 0, sizeof(*l));
}

const char *sdt_layout_desc(const struct sdt_layout *l, size_t *size)
{
	*size = l->size_;
	return l->desc_;
}

/* ------------------------------------------------------------------ */
/* The note                                                            */

size_t sdt_layout_note_size(size_t size)
{
	return sdt_note_head_size(SDT_TYPES_OWNER) + sdt_note_align4(size);
}

size_t sdt_layout_note_encode(const struct sdt_target *t, const char *desc,
			      size_t size, unsigned char *buf)
{
	size_t total = sdt_layout_note_size(size);
	size_t head = sdt_note_head_encode(t, SDT_TYPES_OWNER, size,
					   SDT_LAYOUT_NT, buf);

	memcpy(buf + head, desc, size);
	memset(buf + head + size, 0, total - head - size);
	return total;
}

/* NAME's note in one note section's data D, or -ENOENT. */
static int find_in(Elf_Data *d, const char *name, const char **desc,
		   size_t *size)
{
	size_t off = 0, next, name_at, desc_at, n = strlen(name) + 1;
	GElf_Nhdr nh;

	for (; off < d->d_size; off = next) {
		const char *base = d->d_buf;

		next = gelf_getnote(d, off, &nh, &name_at, &desc_at);
		if (!next)
			break;
		if (nh.n_type != SDT_LAYOUT_NT ||
		    nh.n_namesz != sizeof(SDT_TYPES_OWNER) ||
		    memcmp(base + name_at, SDT_TYPES_OWNER,
			   sizeof(SDT_TYPES_OWNER)) ||
		    nh.n_descsz < n || memcmp(base + desc_at, name, n))
			continue;
		*desc = base + desc_at;
		*size = nh.n_descsz;
		return 0;
	}
	return -ENOENT;
}

int sdt_layout_find_note(const struct sdt_elf *f, const char *name,
			 const char **desc, size_t *size)
{
	Elf *elf = f->elf_;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return -ENOENT;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *sname;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		sname = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!sname || strcmp(sname, SDT_TYPES_SECTION))
			continue;
		d = elf_getdata(scn, NULL);
		if (d && d->d_buf && !find_in(d, name, desc, size))
			return 0;
	}
	return -ENOENT;
}

/* ------------------------------------------------------------------ */
/* Which type an argument points at                                    */

static int is_qualifier(const char *w, size_t n)
{
	return (n == 5 && !strncmp(w, "const", 5)) ||
	       (n == 8 && !strncmp(w, "volatile", 8)) ||
	       (n == 8 && !strncmp(w, "restrict", 8));
}

/* A word of C's own types: `int *' points at no struct. */
static int base_word(const char *w, size_t n)
{
	static const char *const base[] = { "void",   "char",	"short",
					    "int",    "long",	"float",
					    "double", "signed", "unsigned",
					    "_Bool",  "bool",	"string" };

	for (size_t i = 0; i < sizeof(base) / sizeof(base[0]); i++) {
		if (strlen(base[i]) == n && !strncmp(w, base[i], n))
			return 1;
	}
	return 0;
}

int sdt_layout_pointee(const char *type, char *out, size_t size)
{
	const char *words[2];
	size_t lens[2], nwords = 0, stars = 0;

	for (const char *p = type; *p;) {
		size_t n = 0;

		while (isalnum((unsigned char)p[n]) || p[n] == '_')
			n++;
		if (n) {
			if (!is_qualifier(p, n)) {
				if (nwords == 2 || stars)
					return -1;
				words[nwords] = p;
				lens[nwords++] = n;
			}
			p += n;
		} else if (*p == '*') {
			stars++;
			p++;
		} else if (*p == ' ') {
			p++;
		} else {
			return -1;
		}
	}
	if (stars != 1 || !nwords)
		return -1;
	if (nwords == 2 &&
	    !((lens[0] == 6 && !strncmp(words[0], "struct", 6)) ||
	      (lens[0] == 5 && !strncmp(words[0], "union", 5))))
		return -1;
	if (nwords == 1 && base_word(words[0], lens[0]))
		return -1;
	if (nwords == 2 && lens[0] + lens[1] + 2 <= size)
		snprintf(out, size, "%.*s %.*s", (int)lens[0], words[0],
			 (int)lens[1], words[1]);
	else if (nwords == 1 && lens[0] + 1 <= size)
		snprintf(out, size, "%.*s", (int)lens[0], words[0]);
	else
		return -1;
	return 0;
}
