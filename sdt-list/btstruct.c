/* SPDX-License-Identifier: MIT */
/*
 * sdt-list --bpftrace: the fields of the structs probe arguments point at.
 *
 * Each struct is declared in the printed program packed (`#pragma
 * pack(1)' is the one packing bpftrace's C parser takes; it refuses
 * attributes and typedefs) with explicit padding, so every field sits at
 * the offset the compiler gave it whatever the declaring parser would have
 * done. bpftrace wants all C definitions before the first probe, and a
 * probe of a later object may need one, so the program's probes are held
 * in memory and the definitions written ahead of them at the end
 * (layout_bt_end()). The layouts come from layout.c; docs/struct-layouts.md
 * says what bpftrace 0.17 was seen to take.
 */
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "sdt-list.h"

/* ------------------------------------------------------------------ */
/* --bpftrace: declarations                                            */

/* One struct declared in the printed program. */
struct bt_decl {
	char *name; /* `struct tag', or `struct tag_2' where another layout
		       has the tag */
	char *body; /* `{ ... }': the same body is declared once */
};

/* The printed program: one per run of sdt-list. */
static struct {
	FILE *real, *body;
	char *body_buf;
	size_t body_len;
	struct bt_decl **decls; /* each on its own: names are handed out */
	size_t ndecls;
	struct sdt_strbuf text; /* the declarations, in order */
	int active;
	int oom; /* a declaration left out for want of memory */
} bt;

void layout_bt_begin(struct out *o)
{
	if (o->o->format != FMT_BPFTRACE)
		return;
	bt.body = membuf_open(&bt.body_buf, &bt.body_len);
	if (!bt.body)
		return; /* no memory: the program goes out as before */
	bt.real = o->f;
	o->f = bt.body;
	bt.active = 1;
}

/* The header comment's end: the first line that is no comment. */
static size_t header_end(const char *s, size_t len)
{
	size_t at = 0;

	while (at < len && (s[at] == '#' || s[at] == '/')) {
		const char *nl = memchr(s + at, '\n', len - at);

		if (!nl)
			return len;
		at = (size_t)(nl - s) + 1;
	}
	return at;
}

void layout_bt_end(struct out *o)
{
	size_t head;

	if (!bt.active)
		return;
	if ((ferror(bt.body) | fclose(bt.body)) || !bt.body_buf || bt.oom ||
	    bt.text.oom) {
		o->f = bt.real;
		fputs("sdt-list: out of memory: no program written\n", stderr);
		o->status = EXIT_INPUT;
		bt.body_len = 0;
		goto out;
	}
	o->f = bt.real;
	head = header_end(bt.body_buf, bt.body_len);
	fwrite(bt.body_buf, 1, head, o->f);
	if (bt.ndecls) {
		fputs("\n// The structs the probes' arguments point at, as "
		      "laid out in the binary.\n#pragma pack(push, 1)\n",
		      o->f);
		for (size_t i = 0; i < bt.text.len;) {
			fputs(bt.text.p + i, o->f);
			i += strlen(bt.text.p + i) + 1;
		}
		fputs("#pragma pack(pop)\n", o->f);
	}
	fwrite(bt.body_buf + head, 1, bt.body_len - head, o->f);
out:
	free(bt.body_buf);
	for (size_t i = 0; i < bt.ndecls; i++) {
		free(bt.decls[i]->name);
		free(bt.decls[i]->body);
		free(bt.decls[i]);
	}
	free(bt.decls);
	sdt_strbuf_free(&bt.text);
	memset(&bt, 0, sizeof(bt));
}

/* C's name for an integer of SIZE bytes. */
static const char *int_type(int is_signed, uint64_t size)
{
	switch (size) {
	case 1:
		return is_signed ? "signed char" : "unsigned char";
	case 2:
		return is_signed ? "short" : "unsigned short";
	case 4:
		return is_signed ? "int" : "unsigned int";
	default:
		return is_signed ? "long long" : "unsigned long long";
	}
}

/*
 * Names the script cannot use for a field, in any bpftrace from 0.17 on
 * (tests/sdt-list/bt-keywords.sh lists which version refuses which):
 * words its lexer makes keywords, which `->' does not take (`unroll' in
 * 0.17; 0.18 to 0.25 also the integer and sized types, `bool', `int8'
 * .. `uint64', `string', `inet', `buffer'), and words the C parser it
 * hands the struct definitions to takes for keywords although C11
 * compilers let a struct use them (GNU C's `typeof' and `asm', C23's
 * `bool', `true', `static_assert' ...).
 */
static int bt_keyword(const char *s)
{
	static const char kw[] =
		" if else unroll while for return continue break sizeof"
		" offsetof config let import macro true false bool int8 int16"
		" int32 int64 uint8 uint16 uint32 uint64 string inet buffer"
		" typeof asm alignas alignof constexpr nullptr static_assert"
		" thread_local typeof_unqual ";
	size_t n = strlen(s);

	for (const char *p = strstr(kw, s); n && p; p = strstr(p + 1, s)) {
		if (p[-1] == ' ' && p[n] == ' ')
			return 1;
	}
	return 0;
}

static int field_named(const struct sdt_struct *s, const char *name)
{
	for (unsigned i = 0; i < s->nfields; i++) {
		if (!strcmp(s->fields[i].name, name))
			return 1;
	}
	return 0;
}

/* A made-up name (`__anon2', `__pad0') no field of S has. */
static void fresh_name(const struct sdt_struct *s, char *buf, size_t size)
{
	size_t n = strlen(buf);

	while (field_named(s, buf) && n + 1 < size) {
		buf[n++] = '_';
		buf[n] = '\0';
	}
}

/*
 * Field I's name in the declaration: its own, or for an anonymous member
 * or one named like a bpftrace keyword, one made up that no field has.
 * The printed label keeps the field's own name.
 */
static void member_name(const struct sdt_struct *s, unsigned i, char *buf,
			size_t size)
{
	const struct sdt_field *f = &s->fields[i];

	if (!f->name[0])
		snprintf(buf, size, "__anon%u", i);
	else if (bt_keyword(f->name))
		snprintf(buf, size, "%s_%u", f->name, i);
	else {
		snprintf(buf, size, "%s", f->name);
		return;
	}
	fresh_name(s, buf, size);
}

static void pad(const struct sdt_struct *s, struct sdt_strbuf *b, uint64_t *pos,
		uint64_t to, int bits, unsigned *npad)
{
	char line[300], name[200];

	if (!bits) {
		*pos = (*pos + 7) / 8 * 8;
		if (to > *pos) {
			snprintf(name, sizeof(name), "__pad%u", (*npad)++);
			fresh_name(s, name, sizeof(name));
			snprintf(line, sizeof(line),
				 "\tunsigned char %s[%llu];\n", name,
				 (unsigned long long)((to - *pos) / 8));
			sdt_strbuf_add(b, line);
		}
		*pos = to > *pos ? to : *pos;
		return;
	}
	while (to > *pos) {
		uint64_t n = to - *pos > 64 ? 64 : to - *pos;

		snprintf(line, sizeof(line), "\tunsigned long long : %llu;\n",
			 (unsigned long long)n);
		sdt_strbuf_add(b, line);
		*pos += n;
	}
}

/* One member's declaration line into LINE. */
static void member_decl(const struct sdt_field *f, const char *name,
			const char *const *names, char *line, size_t size)
{
	if (f->bit_size) {
		snprintf(line, size, "\t%s %s : %u;\n",
			 int_type(f->kind == SDT_FK_INT, f->size > 4 ? 8 : 4),
			 name, f->bit_size);
		return;
	}
	switch (f->kind) {
	case SDT_FK_INT:
	case SDT_FK_UINT:
		snprintf(line, size, "\t%s %s;\n",
			 int_type(f->kind == SDT_FK_INT, f->size), name);
		return;
	case SDT_FK_PTR:
		snprintf(line, size, "\t%s %s;\n", int_type(0, f->size), name);
		return;
	case SDT_FK_STRPTR:
		if (f->size == sizeof(char *))
			snprintf(line, size, "\tchar *%s;\n", name);
		else
			snprintf(line, size, "\t%s %s;\n", int_type(0, f->size),
				 name);
		return;
	case SDT_FK_CHARS:
		snprintf(line, size, "\tchar %s[%llu];\n", name,
			 (unsigned long long)f->size);
		return;
	case SDT_FK_ARRAY:
		snprintf(line, size, "\t%s %s[%llu];\n",
			 int_type(f->elem_kind == SDT_FK_INT, f->elem_size),
			 name, (unsigned long long)f->count);
		return;
	case SDT_FK_NESTED:
		snprintf(line, size, "\t%s %s;\n", names[f->nested], name);
		return;
	default:
		snprintf(line, size, "\tunsigned char %s[%llu];\n", name,
			 (unsigned long long)f->size);
		return;
	}
}

/* The body `{ ... };' of struct S, its nested ones named by NAMES. */
static char *struct_body(const struct sdt_struct *s, const char *const *names)
{
	struct sdt_strbuf b = { 0 };
	int is_union = !strcmp(s->kind, "union");
	uint64_t pos = 0;
	unsigned npad = 0;
	char *out;

	sdt_strbuf_add(&b, " {\n");
	for (unsigned i = 0; i < s->nfields; i++) {
		const struct sdt_field *f = &s->fields[i];
		uint64_t at = f->bit_size ? f->bit_offset : f->offset * 8;
		char name[200], line[600];

		if (f->size == 0 && !f->bit_size)
			continue; /* a flexible array: nothing in the struct */
		if (!is_union) {
			if (at < pos)
				continue; /* overlaps the one before it */
			pad(s, &b, &pos, at, f->bit_size != 0, &npad);
			pos = at + (f->bit_size ? f->bit_size : f->size * 8);
		}
		member_name(s, i, name, sizeof(name));
		member_decl(f, name, names, line, sizeof(line));
		sdt_strbuf_add(&b, line);
	}
	if (is_union) {
		char line[300], name[200] = "__size";

		fresh_name(s, name, sizeof(name));
		snprintf(line, sizeof(line), "\tunsigned char %s[%llu];\n",
			 name, (unsigned long long)s->size);
		sdt_strbuf_add(&b, line);
	} else {
		pad(s, &b, &pos, s->size * 8, 0, &npad);
	}
	sdt_strbuf_add(&b, "};\n");
	if (b.oom) {
		sdt_strbuf_free(&b);
		return NULL;
	}
	/* One string: the pieces were NUL-separated. */
	out = malloc(b.len + 1);
	if (out) {
		size_t n = 0;

		for (size_t i = 0; i < b.len; i += strlen(b.p + i) + 1) {
			size_t k = strlen(b.p + i);

			memcpy(out + n, b.p + i, k);
			n += k;
		}
		out[n] = '\0';
	}
	sdt_strbuf_free(&b);
	return out;
}

static int name_taken(const char *name)
{
	for (size_t i = 0; i < bt.ndecls; i++) {
		if (!strcmp(bt.decls[i]->name, name))
			return 1;
	}
	return 0;
}

/*
 * `struct order', or where another layout took that name `struct
 * order_2', `struct order_3'...: the first free one (malloc'd).
 */
static char *free_name(const struct sdt_struct *s)
{
	size_t size = strlen(s->kind) + strlen(s->tag) + 16;
	char *name = malloc(size);

	if (!name)
		return NULL;
	snprintf(name, size, "%s %s", s->kind, s->tag);
	for (unsigned n = 2; name_taken(name); n++)
		snprintf(name, size, "%s %s_%u", s->kind, s->tag, n);
	return name;
}

/* Is D struct S's declaration (its name, or one free_name() made)? */
static int declares(const struct bt_decl *d, const struct sdt_struct *s,
		    const char *body)
{
	size_t k = strlen(s->kind), t = strlen(s->tag);
	const char *rest = d->name + k + 1 + t;

	if (strcmp(d->body, body) || strncmp(d->name, s->kind, k) ||
	    d->name[k] != ' ' || strncmp(d->name + k + 1, s->tag, t))
		return 0;
	if (!*rest)
		return 1;
	if (*rest++ != '_' || !*rest)
		return 0;
	return strspn(rest, "0123456789") == strlen(rest);
}

/* `struct order' (or `struct order_2'): the declared name of S. */
static const char *declare(const struct sdt_struct *s, const char *const *names)
{
	char *body = struct_body(s, names), *name, *text;
	struct bt_decl **grown, *d;

	if (!body) {
		bt.oom = 1;
		return NULL;
	}
	for (size_t i = 0; i < bt.ndecls; i++) {
		if (declares(bt.decls[i], s, body)) {
			free(body);
			return bt.decls[i]->name;
		}
	}
	name = free_name(s);
	grown = realloc(bt.decls, (bt.ndecls + 1) * sizeof(*grown));
	if (grown)
		bt.decls = grown;
	text = name ? malloc(strlen(name) + strlen(body) + 1) : NULL;
	d = malloc(sizeof(*d));
	if (!grown || !text || !d) {
		bt.oom = 1;
		free(d);
		free(text);
		free(name);
		free(body);
		return NULL;
	}
	bt.decls[bt.ndecls++] = d;
	d->name = name;
	d->body = body;
	sprintf(text, "%s%s", name, body);
	sdt_strbuf_add(&bt.text, text);
	free(text);
	return d->name;
}

/* ------------------------------------------------------------------ */
/* --bpftrace: the printf                                              */

/* One printf being built: its format and its arguments. */
struct bt_line {
	struct sdt_strbuf fmt, args;
	size_t bytes; /* what bpftrace copies for it: kept under its stack */
};

/*
 * Bytes of BPF stack one printf may take: 512 less what bpftrace keeps
 * beside it (the reads of the fields, the pointer); 320 was seen to
 * overrun it with 36 integer fields and two strings.
 */
#define BT_LINE_BYTES 256
/* A string's bytes, as bpftrace's str() reads them by default. */
#define BT_STR_BYTES 64

static void line_flush(FILE *out, struct bt_line *ln, const char *lead)
{
	if (ln->fmt.len) {
		fputs("\tprintf(\"", out);
		fputs(lead, out);
		for (size_t i = 0; i < ln->fmt.len;
		     i += strlen(ln->fmt.p + i) + 1)
			fputs(ln->fmt.p + i, out);
		fputs("\\n\"", out);
		for (size_t i = 0; i < ln->args.len;
		     i += strlen(ln->args.p + i) + 1)
			fprintf(out, ", %s", ln->args.p + i);
		fputs(");\n", out);
	}
	sdt_strbuf_free(&ln->fmt);
	sdt_strbuf_free(&ln->args);
	ln->bytes = 0;
}

static void line_add(FILE *out, struct bt_line *ln, const char *lead,
		     const char *fmt, const char *arg, size_t bytes)
{
	if (ln->bytes && ln->bytes + bytes > BT_LINE_BYTES)
		line_flush(out, ln, lead);
	sdt_strbuf_add(&ln->fmt, fmt);
	sdt_strbuf_add(&ln->args, arg);
	ln->bytes += bytes;
}

static const char *int_format(int is_signed, uint64_t size)
{
	if (size == 8)
		return is_signed ? "%ld" : "%lu";
	return is_signed ? "%d" : "%u";
}

/* Elements of an array printed at most: the rest is left to a comment. */
#define BT_MAX_ELEMS 16

static void print_field(FILE *out, struct bt_line *ln, const char *lead,
			const struct sdt_field *f, const char *path,
			const char *access)
{
	char fmt[512], arg[600];
	int sig = f->kind == SDT_FK_INT;

	switch (f->kind) {
	case SDT_FK_INT:
	case SDT_FK_UINT:
		snprintf(fmt, sizeof(fmt), " %s=%s", path,
			 int_format(sig,
				    f->bit_size && f->size <= 4 ? 4 : f->size));
		/* bpftrace reads a signed bit-field without its sign. */
		if (sig && f->bit_size && f->bit_size < 64)
			snprintf(arg, sizeof(arg), "((%s ^ %llu) - %llu)",
				 access, 1ULL << (f->bit_size - 1),
				 1ULL << (f->bit_size - 1));
		else
			snprintf(arg, sizeof(arg), "%s", access);
		line_add(out, ln, lead, fmt, arg, 8);
		return;
	case SDT_FK_PTR:
		snprintf(fmt, sizeof(fmt), " %s=0x%%lx", path);
		line_add(out, ln, lead, fmt, access, 8);
		return;
	case SDT_FK_STRPTR:
		snprintf(fmt, sizeof(fmt), " %s=%%s", path);
		snprintf(arg, sizeof(arg), "str(%s)", access);
		line_add(out, ln, lead, fmt, arg, 64);
		return;
	case SDT_FK_CHARS:
		snprintf(fmt, sizeof(fmt), " %s=%%s", path);
		line_add(out, ln, lead, fmt, access,
			 f->size < 64 ? (size_t)f->size : 64);
		return;
	case SDT_FK_ARRAY: {
		uint64_t n = f->count < BT_MAX_ELEMS ? f->count : BT_MAX_ELEMS;

		for (uint64_t i = 0; i < n; i++) {
			const char *e =
				f->elem_kind == SDT_FK_PTR
					? "0x%lx"
					: int_format(f->elem_kind == SDT_FK_INT,
						     f->elem_size);

			snprintf(fmt, sizeof(fmt), "%s%s%s%s%s", i ? "," : " ",
				 i ? "" : path, i ? "" : "=[", e,
				 i + 1 < n	? ""
				 : f->count > n ? ",...]"
						: "]");
			snprintf(arg, sizeof(arg), "%s[%llu]", access,
				 (unsigned long long)i);
			line_add(out, ln, lead, fmt, arg, 8);
		}
		return;
	}
	default:
		return;
	}
}

static void comment_unprinted(FILE *out, const struct sdt_field *f,
			      const char *argname, const char *path)
{
	if (f->kind == SDT_FK_FLOAT) {
		fprintf(out,
			"\t// %s->%s is floating-point: bpftrace cannot "
			"print it\n",
			argname, path);
	} else if (f->kind == SDT_FK_OPAQUE && f->size) {
		/* The type is the file's text: escaped, it stays a comment. */
		fprintf(out, "\t// %s->%s (", argname, path);
		put_text(out, f->type);
		fputs(") is not printed\n", out);
	} else if (f->kind == SDT_FK_ARRAY && f->count > BT_MAX_ELEMS) {
		fprintf(out,
			"\t// %s->%s: only its first %d elements are "
			"printed\n",
			argname, path, BT_MAX_ELEMS);
	}
}

static int safe_name(const char *s)
{
	for (; *s; s++) {
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV"
			    "WXYZ0123456789_",
			    *s))
			return 0;
	}
	return 1;
}

/* Where the fields of one argument are printed from. */
struct bt_arg {
	FILE *out;
	struct bt_line *ln;
	const char *lead;    /* `PROVIDER:PROBE ARG:' */
	const char *argname; /* in comments */
	unsigned index;	     /* argN */
	const struct sdt_layout *l;
};

/*
 * A char array longer than a printf can copy is read from its address
 * (argN + its offset), its first BT_STR_BYTES bytes at most.
 */
static void print_long_chars(const struct bt_arg *a, const struct sdt_field *f,
			     const char *path, uint64_t at)
{
	char fmt[300], arg[64];

	fprintf(a->out,
		"\t// %s->%s: char [%llu], only its first %d bytes are "
		"printed\n",
		a->argname, path, (unsigned long long)f->size,
		BT_STR_BYTES - 1);
	snprintf(fmt, sizeof(fmt), " %s=%%s", path);
	snprintf(arg, sizeof(arg), "str(arg%u + %llu, %d)", a->index,
		 (unsigned long long)at, BT_STR_BYTES);
	line_add(a->out, a->ln, a->lead, fmt, arg, 2 * BT_STR_BYTES);
}

static void bt_fields(const struct bt_arg *a, const struct sdt_struct *s,
		      const char *prefix, const char *access, uint64_t base)
{
	for (unsigned i = 0; i < s->nfields; i++) {
		const struct sdt_field *f = &s->fields[i];
		char name[200], path[256], acc[512];
		const char *shown;

		member_name(s, i, name, sizeof(name));
		if (f->name[0])
			snprintf(path, sizeof(path), "%s%s", prefix, f->name);
		else
			snprintf(path, sizeof(path), "%s", prefix);
		snprintf(acc, sizeof(acc), "%s%s", access, name);
		if (f->kind == SDT_FK_NESTED) {
			char sub[260];

			snprintf(sub, sizeof(sub), "%s%s", path,
				 f->name[0] ? "." : "");
			snprintf(acc, sizeof(acc), "%s%s.", access, name);
			bt_fields(a, &a->l->structs[f->nested], sub, acc,
				  base + f->offset);
			continue;
		}
		if (f->size == 0 && !f->bit_size)
			continue;
		shown = path[0] ? path : name;
		if (f->kind == SDT_FK_CHARS && f->size > BT_STR_BYTES) {
			print_long_chars(a, f, shown, base + f->offset);
			continue;
		}
		comment_unprinted(a->out, f, a->argname, shown);
		print_field(a->out, a->ln, a->lead, f, shown, acc);
	}
}

void layout_bt_probe(FILE *out, const struct object *obj,
		     const struct sdt_probe *p, const struct signature *sig,
		     unsigned shown)
{
	for (unsigned i = 0; i < shown; i++) {
		const struct sig_arg *a = &sig->args[i];
		const char *source, *missing;
		const struct sdt_layout *l =
			arg_layout(obj, a, &source, &missing);
		const char *names[256] = { 0 };
		char var[16], acc[32], lead[300], argname[64];
		struct bt_line ln = { 0 };

		if (!l && !missing)
			continue;
		if (a->name[0] && safe_name(a->name))
			snprintf(argname, sizeof(argname), "%s", a->name);
		else
			snprintf(argname, sizeof(argname), "arg%u", i);
		if (!l) {
			fprintf(out, "\t// %s points at ", argname);
			put_text(out, a->type);
			fprintf(out,
				": no layout found to print its fields: "
				"%s\n",
				missing);
			continue;
		}
		if (!bt.active)
			continue;
		/* Nested structs first: the outer one names them. */
		for (unsigned k = l->nstructs; k-- > 0;) {
			if (!(names[k] = declare(&l->structs[k], names)))
				break;
		}
		if (!names[0])
			continue;
		snprintf(var, sizeof(var), "$s%u", i);
		fprintf(out, "\t%s = (%s *)arg%u;\n", var, names[0], i);
		snprintf(lead, sizeof(lead), "%s:%s %s:", p->note.provider,
			 p->note.name, argname);
		snprintf(acc, sizeof(acc), "%s->", var);
		bt_fields(&(struct bt_arg){ out, &ln, lead, argname, i, l },
			  &l->structs[0], "", acc, 0);
		line_flush(out, &ln, lead);
	}
}
