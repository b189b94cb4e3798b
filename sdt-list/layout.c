/* SPDX-License-Identifier: MIT */
/*
 * What a struct-pointer argument points at, for every output.
 *
 * The type record says `struct order *o'; the fields are found, in this
 * order, in a layout note the binary carries (dtrace-gen -G writes one:
 * it survives strip), in the binary's DWARF, or in its separate debug
 * file (libdwfl looks by build ID under the debug directory, then by
 * .gnu_debuglink). SDT_LIST_DEBUG_DIR names another debug directory than
 * /usr/lib/debug. Each object keeps what it found, so a type is looked up
 * once however many probes take it. -v and --json show the layout here;
 * btstruct.c declares and prints it for --bpftrace.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* HAVE_LIBDW */
#endif

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "sdt-list.h"
#ifdef HAVE_LIBDW
#include "layoutdw.h"
#endif

#ifdef HAVE_LIBDW
#define HINT                                                                   \
	"rebuild with -g, install the binary's -dbgsym (or -debuginfo) "       \
	"package, or give dtrace-gen -G the objects built with -g (it warns "  \
	"when it writes no layout)"
#else
/* This build reads no DWARF: only a layout note can help. */
#define HINT                                                                   \
	"this sdt-list was built without libdw and reads no DWARF, only "      \
	"layout notes: rebuild sdtkit with libdw-dev installed, and give "     \
	"its dtrace-gen -G the objects built with -g"
#endif

struct layout_entry {
	char name[SDT_LAYOUT_NAME_MAX];
	int found;
	int no_dwarf; /* neither the file nor a debug file has DWARF */
	struct sdt_layout l;
	char source[300];
	char hint[1000]; /* why none was found, with HINT, when there is why */
};

struct layout_cache {
	struct layout_entry **e; /* each on its own: callers keep pointers */
	size_t n;
#ifdef HAVE_LIBDW
	int dwarf_tried;
	struct sdt_dwarf *dw;
	char why[320]; /* a debug file refused, and why */
#endif
};

void layout_forget(struct object *obj)
{
	struct layout_cache *c = obj->layouts_;

	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		sdt_layout_free(&c->e[i]->l);
		free(c->e[i]);
	}
	free(c->e);
#ifdef HAVE_LIBDW
	sdt_dwarf_close(c->dw);
#endif
	free(c);
	obj->layouts_ = NULL;
}

static void warn_bad(const struct object *obj, const char *name,
		     const char *from, const char *why)
{
	fputs("sdt-list: warning: ", stderr);
	put_text(stderr, obj->name);
	fprintf(stderr, ": the layout of %s in %s is ignored (%s)\n", name,
		from, why);
}

/* Why no layout was found, then what to do. */
static void set_hint(struct layout_entry *e, const char *what, const char *why)
{
	if (!e->hint[0])
		snprintf(e->hint, sizeof(e->hint), "%s %s; %s", what, why,
			 HINT);
}

static void from_note(const struct object *obj, struct layout_entry *e)
{
	const char *desc, *why;
	size_t size;

	if (sdt_layout_find_note(obj->f, e->name, &desc, &size))
		return;
	if (sdt_layout_parse(desc, size, &e->l, &why)) {
		warn_bad(obj, e->name, SDT_TYPES_SECTION, why);
		set_hint(e, "its layout note is refused:", why);
		return;
	}
	e->found = 1;
	snprintf(e->source, sizeof(e->source), "its %s layout note",
		 SDT_TYPES_SECTION);
}

#ifdef HAVE_LIBDW
static void from_dwarf(const struct object *obj, struct layout_cache *c,
		       struct layout_entry *e)
{
	struct sdt_strbuf b = { 0 };
	const char *why;

	if (!c->dwarf_tried) {
		const char *path = obj->pobj ? obj->pobj->path : obj->name;

		c->dwarf_tried = 1;
		sdt_dwarf_open(path, obj->pobj ? obj->pobj->fd : -1,
			       getenv("SDT_LIST_DEBUG_DIR"), &c->dw, c->why,
			       sizeof(c->why));
	}
	e->no_dwarf = !c->dw;
	if (!c->dw && c->why[0])
		set_hint(e, "no DWARF:", c->why);
	if (!c->dw || sdt_dwarf_layout(c->dw, e->name, &b)) {
		sdt_strbuf_free(&b);
		return;
	}
	if (sdt_layout_parse(b.p, b.len, &e->l, &why)) {
		warn_bad(obj, e->name, "its DWARF", why);
		set_hint(e, "its DWARF's layout is refused:", why);
	} else
		e->found = 1;
	snprintf(e->source, sizeof(e->source), "DWARF in %s",
		 sdt_dwarf_file(c->dw));
	sdt_strbuf_free(&b);
}
#endif

/*
 * The entry for NAME, looked up on first use; NULL: out of memory. The
 * outputs hold the object const: the cache is a memo, not a change.
 */
static struct layout_entry *lookup(const struct object *cobj, const char *name)
{
	struct object *obj = (struct object *)cobj;
	struct layout_cache *c = obj->layouts_;
	struct layout_entry *e, **grown;

	if (!c && !(c = obj->layouts_ = calloc(1, sizeof(*c))))
		return NULL;
	for (size_t i = 0; i < c->n; i++) {
		if (!strcmp(c->e[i]->name, name))
			return c->e[i];
	}
	grown = realloc(c->e, (c->n + 1) * sizeof(*c->e));
	if (!grown)
		return NULL;
	c->e = grown;
	if (!(e = calloc(1, sizeof(*e))))
		return NULL;
	c->e[c->n++] = e;
	e->no_dwarf = 1;
	snprintf(e->name, sizeof(e->name), "%s", name);
	from_note(obj, e);
#ifdef HAVE_LIBDW
	if (!e->found)
		from_dwarf(obj, c, e);
#endif
	return e;
}

/* Typedef names of C's libraries that are never structs. */
static int plain_typedef(const char *name)
{
	static const char *const plain[] = {
		"int8_t",   "int16_t",	"int32_t",   "int64_t",	 "uint8_t",
		"uint16_t", "uint32_t", "uint64_t",  "intptr_t", "uintptr_t",
		"size_t",   "ssize_t",	"off_t",     "pid_t",	 "uid_t",
		"gid_t",    "time_t",	"ptrdiff_t", "wchar_t",	 "u8",
		"u16",	    "u32",	"u64",	     "s8",	 "s16",
		"s32",	    "s64",	"Datum",     "Oid",	 "bool",
	};

	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		if (!strcmp(name, plain[i]))
			return 1;
	}
	return 0;
}

const struct sdt_layout *arg_layout(const struct object *obj,
				    const struct sig_arg *a,
				    const char **source, const char **missing)
{
	char name[SDT_LAYOUT_NAME_MAX];
	struct layout_entry *e;

	*missing = NULL;
	*source = NULL;
	if (!a->is_pointer || a->is_string ||
	    sdt_layout_pointee(a->type, name, sizeof(name)))
		return NULL;
	if (!(e = lookup(obj, name)))
		return NULL;
	if (e->found) {
		*source = e->source;
		return &e->l;
	}
	/*
	 * A typedef may name an int: hint only where no DWARF could tell,
	 * and never for the usual integer typedefs.
	 */
	if (strncmp(name, "struct ", 7) && strncmp(name, "union ", 6) &&
	    (plain_typedef(name) || !e->no_dwarf))
		return NULL;
	*missing = e->hint[0] ? e->hint : HINT;
	return NULL;
}

/* ------------------------------------------------------------------ */
/* -v                                                                  */

static const char *kind_word(char k)
{
	switch (k) {
	case SDT_FK_INT:
		return "int";
	case SDT_FK_UINT:
		return "uint";
	case SDT_FK_FLOAT:
		return "float";
	case SDT_FK_PTR:
		return "pointer";
	case SDT_FK_STRPTR:
		return "string pointer";
	case SDT_FK_CHARS:
		return "char array";
	case SDT_FK_ARRAY:
		return "array";
	case SDT_FK_NESTED:
		return "struct";
	default:
		return "bytes";
	}
}

/* `char customer[16]', `const char *note', `struct item first'. */
static void put_member(FILE *out, const char *type, const char *name)
{
	const char *bracket = strstr(type, " [");
	size_t n = bracket ? (size_t)(bracket - type) : strlen(type);
	char *head = strndup(type, n);

	put_text(out, head ? head : type);
	if (!n || type[n - 1] != '*')
		fputc(' ', out);
	put_text(out, name);
	if (bracket && head)
		put_text(out, bracket + 1);
	free(head);
}

/*
 * Offsets and bits count from the start of the struct the field is
 * declared in, as in --json and the note: a nested struct's fields are
 * indented under it, from its own start.
 */
static void text_fields(FILE *out, const struct sdt_layout *l,
			const struct sdt_struct *s, int depth)
{
	for (unsigned i = 0; i < s->nfields; i++) {
		const struct sdt_field *f = &s->fields[i];

		fprintf(out, "%*s+%-4llu %4llu  ", 6 + 2 * depth, "",
			(unsigned long long)f->offset,
			(unsigned long long)f->size);
		put_member(out, f->type, f->name[0] ? f->name : "(anonymous)");
		if (f->bit_size)
			fprintf(out, " : %u (bits %u-%u)", f->bit_size,
				f->bit_offset, f->bit_offset + f->bit_size - 1);
		if (f->kind == SDT_FK_OPAQUE || f->kind == SDT_FK_FLOAT)
			fputs(" (not printed)", out);
		fputc('\n', out);
		if (f->kind == SDT_FK_NESTED)
			text_fields(out, l, &l->structs[f->nested], depth + 1);
	}
}

void layout_verbose(FILE *out, const struct object *obj,
		    const struct sdt_probe *p)
{
	struct signature sig;

	probe_signature(&obj->types, p, &sig);
	for (unsigned i = 0; i < sig.nargs; i++) {
		const char *source, *missing;
		const struct sdt_layout *l =
			arg_layout(obj, &sig.args[i], &source, &missing);

		if (!l && !missing)
			continue;
		fprintf(out, "  arg%u ", i);
		put_sig_arg(out, &sig.args[i]);
		if (!l) {
			fputs(": no layout found: ", out);
			fputs(missing, out);
			fputc('\n', out);
			continue;
		}
		fprintf(out, ": %s %s, %llu bytes, from ", l->structs[0].kind,
			l->structs[0].tag,
			(unsigned long long)l->structs[0].size);
		put_text(out, source);
		fputc('\n', out);
		text_fields(out, l, &l->structs[0], 0);
	}
}

/* ------------------------------------------------------------------ */
/* --json                                                              */

static void json_fields(FILE *out, const struct sdt_layout *l,
			const struct sdt_struct *s)
{
	fputs("[", out);
	for (unsigned i = 0; i < s->nfields; i++) {
		const struct sdt_field *f = &s->fields[i];

		fputs(i ? ",{\"name\":" : "{\"name\":", out);
		put_json_str(out, f->name);
		fputs(",\"type\":", out);
		put_json_str(out, f->type);
		fprintf(out, ",\"offset\":%llu,\"size\":%llu,\"kind\":\"%s\"",
			(unsigned long long)f->offset,
			(unsigned long long)f->size, kind_word(f->kind));
		if (f->bit_size)
			fprintf(out, ",\"bit_offset\":%u,\"bit_size\":%u",
				f->bit_offset, f->bit_size);
		if (f->kind == SDT_FK_ARRAY)
			fprintf(out,
				",\"element\":\"%s\",\"element_size\":%u,"
				"\"count\":%llu",
				kind_word(f->elem_kind), f->elem_size,
				(unsigned long long)f->count);
		if (f->kind == SDT_FK_NESTED) {
			fputs(",\"fields\":", out);
			json_fields(out, l, &l->structs[f->nested]);
		}
		fputc('}', out);
	}
	fputc(']', out);
}

void layout_json(FILE *out, const struct object *obj, const struct sig_arg *a)
{
	const char *source, *missing;
	const struct sdt_layout *l = arg_layout(obj, a, &source, &missing);

	if (!l && !missing)
		return;
	fputs(",\"layout\":", out);
	if (!l) {
		fputs("{\"found\":false,\"hint\":", out);
		put_json_str(out, missing);
		fputc('}', out);
		return;
	}
	fputs("{\"found\":true,\"type\":", out);
	put_json_str(out, l->name);
	fprintf(out, ",\"kind\":\"%s\",\"tag\":", l->structs[0].kind);
	put_json_str(out, l->structs[0].tag);
	fprintf(out, ",\"size\":%llu,\"source\":",
		(unsigned long long)l->structs[0].size);
	put_json_str(out, source);
	fputs(",\"fields\":", out);
	json_fields(out, l, &l->structs[0]);
	fputc('}', out);
}
