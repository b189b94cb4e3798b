/* SPDX-License-Identifier: MIT */
/*
 * What each probe argument is, for people and for generated programs.
 *
 * A stapsdt note says only where each argument is and its size and sign
 * (`-4@%edi'); the C type and name live in the .d file. dtrace-gen -G
 * records them in SDT_TYPES_SECTION (elfcore/note.h), one note per probe:
 * provider, probe, argument count, then type and name per argument. With
 * a record, `shop:order__start(const char *customer, int items)' and a
 * bpftrace program can read the string; without one, the size and sign
 * give `int32', `uint64'.
 *
 * Records are keyed by provider:name. Linking several objects repeats
 * them: the first is used, and a later one that disagrees is remembered
 * for --check to report. A record a generated header wrote (marked so
 * after its arguments) is only a fallback: any record -G made from the
 * .d file wins over it, and a disagreement between the two is resolved
 * that way, not reported. A record <usdt.h> wrote (marked "usdt" after
 * that; <sys/sdt.h>'s too; or, from newer headers, a compact record of
 * note type SDT_TYPES_NT_CODES, a byte per type) ranks last, and its
 * records of one probe are each site's types and argument texts: they
 * may differ (one site passes an int, another a long), so they are
 * merged, an argument whose types differ becoming unknown, never
 * reported; an argument's text that is no identifier (`req->len + 1')
 * leaves it unnamed, without a warning.
 * An empty type is one the writer could not tell: that argument keeps the
 * spec's size and sign. A malformed record is skipped with a warning; it
 * never costs the listing. A record whose count differs from the spec's
 * describes some other build of the probe and is not used.
 */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sdt-list.h"
#include "typerec.h" /* SDT_TYPES_FROM_HEADER */

/* How records rank, best first (type_record.order_ / number of notes). */
enum { RANK_D_FILE, RANK_HEADER, RANK_USDT };

static int parse_count(const char *text, unsigned *n)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)text[0]))
		return -1;
	v = strtol(text, &end, 10);
	if (*end || v < 0 || v > SDT_MAX_ARGS)
		return -1;
	*n = (unsigned)v;
	return 0;
}

/*
 * A type as the records spell types (typetext.c): nothing else is C.
 * 1 when TYPE is, 0 when not, -ENOMEM when that could not be told.
 */
static int is_type_text(const char *type)
{
	size_t size = 2 * strlen(type) + 2;
	char *out = malloc(size);
	const char *why;
	int ok;

	if (!out)
		return -ENOMEM;
	ok = sdt_type_normalize(type, out, size, &why) >= 0;
	free(out);
	return ok;
}

/*
 * The C type of each code of a compact record (SDT_TYPES_NT_CODES), as the
 * headers spelled it in a text record; a code not listed (15, 19 and up:
 * a later header's) is unknown, as 0 is.
 */
static const char *const type_of_code[] = {
	[0] = "",
	[1] = "char",
	[2] = "signed char",
	[3] = "unsigned char",
	[4] = "short",
	[5] = "unsigned short",
	[6] = "int",
	[7] = "unsigned int",
	[8] = "long",
	[9] = "unsigned long",
	[10] = "long long",
	[11] = "unsigned long long",
	[12] = "bool",
	[13] = "char *",
	[14] = "const char *",
	[16] = "void *",
	[17] = "float",
	[18] = "double",
};

/*
 * Decode a compact record (SDT_TYPES_NT_CODES): provider, probe, a count
 * byte, a code byte per argument, then each argument's text as its site
 * wrote it, named where that is an identifier. It ranks as the text
 * record <usdt.h> writes, marked "header" and "usdt", and reads as that
 * record would with the same types. 0, or -1 with *WHY.
 */
static int parse_codes(const struct sdt_type_note *n, struct type_record *r,
		       const char **why)
{
	const unsigned char *p = (const unsigned char *)n->desc;
	const unsigned char *end = p + n->size;
	const unsigned char *codes;

	r->provider = sdt_note_take_str(&p, end);
	r->name = r->provider ? sdt_note_take_str(&p, end) : NULL;
	if (!r->name || p == end) {
		*why = "no provider, probe and argument count";
		return -1;
	}
	if (!*r->provider || !*r->name) {
		*why = "an empty provider or probe name";
		return -1;
	}
	r->nargs = *p++;
	if (r->nargs > SDT_MAX_ARGS) {
		*why = "an argument count over 12";
		return -1;
	}
	if ((size_t)(end - p) < r->nargs) {
		*why = "fewer type codes than its count";
		return -1;
	}
	codes = p;
	p += r->nargs;
	for (unsigned i = 0; i < r->nargs; i++) {
		const char *type = NULL;

		if (codes[i] < sizeof(type_of_code) / sizeof(type_of_code[0]))
			type = type_of_code[codes[i]];
		r->type[i] = type ? type : "";
		r->argname[i] = sdt_note_take_str(&p, end);
		if (!r->argname[i]) {
			*why = "fewer argument names than its count";
			return -1;
		}
		if (!arg_name_is_identifier(r->argname[i]))
			r->argname[i] = "";
	}
	/* Later fields may follow: ignored. */
	r->order_ = RANK_USDT;
	r->of_sites = 1;
	return 0;
}

/*
 * Decode one record; on error *WHY says what is wrong with it. Strings
 * after the last argument are fields of a later version: ignored, as
 * docs/typed-probes.md tells every reader to. The types and names go
 * into programs we print (a bpftrace printf, a perf command's comment),
 * so they are checked here, once, for every output: a type must be C
 * type text, else the record is not used; a name must be a C identifier,
 * else the argument is unnamed (argN) and *BAD says which one was dropped
 * (the first: its index, and *BAD_NAME the name). Returns 0, -1 for a
 * malformed record, -ENOMEM when it could not be checked.
 */
static int parse_record(const struct sdt_type_note *n, struct type_record *r,
			const char **why, int *bad, const char **bad_name)
{
	const unsigned char *p = (const unsigned char *)n->desc;
	const unsigned char *end = p + n->size;
	const char *count;

	memset(r, 0, sizeof(*r));
	*bad = -1;
	if (n->type == SDT_TYPES_NT_CODES)
		return parse_codes(n, r, why);
	r->provider = sdt_note_take_str(&p, end);
	r->name = r->provider ? sdt_note_take_str(&p, end) : NULL;
	count = r->name ? sdt_note_take_str(&p, end) : NULL;
	if (!count) {
		*why = "fewer than three strings (provider, probe, count)";
		return -1;
	}
	if (!*r->provider || !*r->name) {
		*why = "an empty provider or probe name";
		return -1;
	}
	if (parse_count(count, &r->nargs) < 0) {
		*why = "the argument count is not a number from 0 to 12";
		return -1;
	}
	for (unsigned i = 0; i < r->nargs; i++) {
		int is_type;

		r->type[i] = sdt_note_take_str(&p, end);
		r->argname[i] = r->type[i] ? sdt_note_take_str(&p, end) : NULL;
		if (!r->argname[i]) {
			*why = "fewer types and names than its count";
			return -1;
		}
		is_type = *r->type[i] ? is_type_text(r->type[i]) : 1;
		if (is_type < 0)
			return is_type;
		if (!is_type) {
			*why = "a type that is not C type text";
			return -1;
		}
		if (*r->argname[i] && !arg_name_is_identifier(r->argname[i])) {
			if (*bad < 0) {
				*bad = (int)i;
				*bad_name = r->argname[i];
			}
			r->argname[i] = "";
		}
	}
	/* Later fields may follow; the first says who wrote the record. */
	r->order_ = RANK_D_FILE;
	if (p < end) {
		const char *from = sdt_note_take_str(&p, end);
		const char *kind = p < end ? sdt_note_take_str(&p, end) : NULL;

		if (from && !strcmp(from, SDT_TYPES_FROM_HEADER))
			r->order_ = kind && !strcmp(kind, SDT_TYPES_FROM_USDT)
					    ? RANK_USDT
					    : RANK_HEADER;
	}
	r->of_sites = r->order_ == RANK_USDT;
	return 0;
}

static int same_record(const struct type_record *a, const struct type_record *b)
{
	if (a->nargs != b->nargs)
		return 0;
	for (unsigned i = 0; i < a->nargs; i++) {
		if (strcmp(a->type[i], b->type[i]) ||
		    strcmp(a->argname[i], b->argname[i]))
			return 0;
	}
	return 1;
}

static int cmp_keys(const struct type_record *a, const struct type_record *b)
{
	int r = strcmp(a->provider, b->provider);

	return r ? r : strcmp(a->name, b->name);
}

/* Sort by key (qsort is not stable: the record's order breaks ties). */
static int cmp_records(const void *a, const void *b)
{
	const struct type_record *ra = a, *rb = b;
	int r = cmp_keys(ra, rb);

	if (r)
		return r;
	return ra->order_ < rb->order_ ? -1 : ra->order_ > rb->order_;
}

/*
 * The compiler's records of one probe (<usdt.h>, <sys/sdt.h>), one per
 * list of types its sites pass: an argument they type differently becomes
 * unknown (""), one they name differently unnamed. Records with
 * another count describe sites with other arguments: the first stands.
 */
static void merge_usdt(struct type_record *first, const struct type_record *r)
{
	if (first->nargs != r->nargs)
		return;
	for (unsigned i = 0; i < first->nargs; i++) {
		if (strcmp(first->type[i], r->type[i]))
			first->type[i] = "";
		if (strcmp(first->argname[i], r->argname[i]))
			first->argname[i] = "";
	}
}

/*
 * Keep the best record per probe: the first of the best rank (ORDER_
 * ranks them so, NOTES being the count of all). Flag it when another of
 * its own rank differs; a header's record that differs from a -G one is
 * stale and simply loses; <usdt.h>'s merge.
 */
static void dedupe(struct type_table *tt, size_t notes)
{
	size_t kept = 0;

	for (size_t i = 0; i < tt->n; i++) {
		struct type_record *first = kept ? &tt->recs[kept - 1] : NULL;
		const struct type_record *r = &tt->recs[i];

		if (first && !cmp_keys(first, r)) {
			size_t rank = first->order_ / notes;

			if (rank != r->order_ / notes)
				continue;
			if (rank == RANK_USDT)
				merge_usdt(first, r);
			else
				first->disagrees |= !same_record(first, r);
			continue;
		}
		tt->recs[kept++] = *r;
	}
	tt->n = kept;
}

/* "sdt-list: warning: OBJ: type record N in SECTION", no newline. */
static void warn_record(const char *objname, size_t i)
{
	fputs("sdt-list: warning: ", stderr);
	put_text(stderr, objname);
	fprintf(stderr, ": type record %zu in %s", i + 1, SDT_TYPES_SECTION);
}

/*
 * The headers write a site's spec and its record from the same
 * expressions, so the compiler's record of a site has each integer,
 * pointer and float as wide as the spec, and each integer and pointer of
 * its sign (pointers unsigned). The link keeps one unit's record group per
 * probe: a site of another unit that passes a `long' where that one passed
 * an `int' would be read through the other's type, cut to 4 bytes. Such a
 * record is not this site's: 0. A spec without a size, and a type the
 * record leaves unknown (a struct, a `long double'), say nothing.
 */
static int record_fits(const struct type_table *tt,
		       const struct type_record *rec,
		       const struct signature *sig)
{
	if (!rec->of_sites)
		return 1;
	for (unsigned i = 0; i < sig->nargs; i++) {
		const struct sig_arg *a = &sig->args[i];
		const char *type = rec->type[i];
		int size, is_signed;

		if (!type[0] || !a->size)
			continue;
		if (strchr(type, '*')) {
			size = tt->long_size;
			is_signed = 0;
		} else if (!strcmp(type, "float") || !strcmp(type, "double")) {
			if (a->size != (type[0] == 'f' ? 4 : 8))
				return 0;
			continue; /* its bits, whatever sign the spec says */
		} else if (!types_int_decl(tt, type, &size, &is_signed)) {
			continue;
		}
		if (a->size != size ||
		    (!a->is_float && a->is_signed != is_signed))
			return 0;
	}
	return 1;
}

/*
 * Flag each record of the compiler's that some site of F does not fit:
 * it is used at none of the probe's sites, in every output alike.
 */
static void mark_misfits(struct type_table *tt, const struct sdt_elf *f)
{
	for (size_t i = 0; i < f->nprobes; i++) {
		struct signature sig;

		probe_signature(tt, &f->probes[i], &sig);
		if (sig.rec && !record_fits(tt, sig.rec, &sig))
			tt->recs[sig.rec - tt->recs].misfit = 1;
	}
}

int types_load(struct type_table *tt, const struct sdt_elf *f,
	       const char *objname)
{
	tt->recs = NULL;
	tt->n = 0;
	tt->long_size = (int)sdt_target_addr_size(&f->target);
	tt->char_signed =
		f->target.machine == EM_X86_64 || f->target.machine == EM_386;
	if (f->types_damaged) {
		fputs("sdt-list: warning: ", stderr);
		put_text(stderr, objname);
		fprintf(stderr,
			": %s is damaged: the type records after record %zu "
			"are ignored\n",
			SDT_TYPES_SECTION, f->ntype_notes);
	}
	if (!f->ntype_notes)
		return 0;
	tt->recs = calloc(f->ntype_notes, sizeof(*tt->recs));
	if (!tt->recs)
		return -ENOMEM;
	for (size_t i = 0; i < f->ntype_notes; i++) {
		struct type_record *r = &tt->recs[tt->n];
		const char *why, *bad_name = NULL;
		int bad, rc;

		rc = parse_record(&f->type_notes[i], r, &why, &bad, &bad_name);
		if (rc == -ENOMEM) {
			types_free(tt);
			return rc;
		}
		if (rc < 0) {
			warn_record(objname, i);
			fprintf(stderr, " ignored (malformed: %s)\n", why);
			continue;
		}
		/* A compiler's record names what each site passed: an
		 * expression (`req->len + 1') is simply unnamed. */
		if (bad >= 0 && r->order_ != RANK_USDT) {
			warn_record(objname, i);
			fputs(": argument name `", stderr);
			put_text(stderr, bad_name);
			fprintf(stderr,
				"' is not a C identifier: shown as arg%d\n",
				bad);
		}
		/* A header's record sorts after -G's, <usdt.h>'s last. */
		r->order_ = r->order_ * f->ntype_notes + i;
		tt->n++;
	}
	qsort(tt->recs, tt->n, sizeof(*tt->recs), cmp_records);
	dedupe(tt, f->ntype_notes);
	mark_misfits(tt, f);
	return 0;
}

void types_free(struct type_table *tt)
{
	free(tt->recs);
	tt->recs = NULL;
	tt->n = 0;
}

const struct type_record *types_find(const struct type_table *tt,
				     const char *provider, const char *name)
{
	struct type_record key = { .provider = provider, .name = name };
	size_t lo = 0, hi = tt->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = cmp_keys(&tt->recs[mid], &key);

		if (!r)
			return &tt->recs[mid];
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Signatures                                                          */

/* `char *', `const char *', `char const *const': a C string. */
static int is_char_pointer(const char *type)
{
	int stars = 0, chars = 0, others = 0;

	for (const char *p = type; *p;) {
		size_t n = 0;

		if (*p == '*') {
			stars++;
			p++;
			continue;
		}
		while (isalnum((unsigned char)p[n]) || p[n] == '_')
			n++;
		if (!n) {
			others += !isspace((unsigned char)*p);
			p++;
			continue;
		}
		if (n == 4 && !strncmp(p, "char", 4))
			chars++;
		else if (!(n == 5 && !strncmp(p, "const", 5)) &&
			 !(n == 8 && !strncmp(p, "volatile", 8)) &&
			 !(n == 8 && !strncmp(p, "restrict", 8)))
			others++;
		p += n;
	}
	return stars == 1 && chars == 1 && !others;
}

/* Integer typedefs a .d file may use, by size (0: the target's long). */
static const struct int_name {
	const char *name;
	int size, is_signed;
} int_names[] = {
	{ "int8_t", 1, 1 },   { "uint8_t", 1, 0 },   { "int16_t", 2, 1 },
	{ "uint16_t", 2, 0 }, { "int32_t", 4, 1 },   { "uint32_t", 4, 0 },
	{ "int64_t", 8, 1 },  { "uint64_t", 8, 0 },  { "_Bool", 1, 0 },
	{ "bool", 1, 0 },     { "pid_t", 4, 1 },     { "uid_t", 4, 0 },
	{ "gid_t", 4, 0 },    { "size_t", 0, 0 },    { "ssize_t", 0, 1 },
	{ "intptr_t", 0, 1 }, { "uintptr_t", 0, 0 }, { "ptrdiff_t", 0, 1 },
};

static const struct int_name *int_name_of(const char *p, size_t n)
{
	for (size_t i = 0; i < sizeof(int_names) / sizeof(int_names[0]); i++) {
		if (strlen(int_names[i].name) == n &&
		    !strncmp(p, int_names[i].name, n))
			return &int_names[i];
	}
	return NULL;
}

int types_int_decl(const struct type_table *tt, const char *type, int *size,
		   int *is_signed)
{
	const struct int_name *named = NULL;
	int sgn = 0, uns = 0, chr = 0, shrt = 0, lng = 0, in = 0, other = 0;

	for (const char *p = type; *p;) {
		size_t n = 0;

		while (isalnum((unsigned char)p[n]) || p[n] == '_')
			n++;
		if (!n) {
			if (!isspace((unsigned char)*p))
				return 0; /* `*', `[', `(' */
			p++;
			continue;
		}
#define IS(w) (n == sizeof(w) - 1 && !strncmp(p, w, n))
		if (IS("const") || IS("volatile")) {
			/* a qualifier: no part of the size */
		} else if (IS("signed"))
			sgn++;
		else if (IS("unsigned"))
			uns++;
		else if (IS("char"))
			chr++;
		else if (IS("short"))
			shrt++;
		else if (IS("long"))
			lng++;
		else if (IS("int"))
			in++;
		else if (other++, !(named = int_name_of(p, n)))
			return 0;
#undef IS
		p += n;
	}
	if (other) {
		if (other > 1 || sgn || uns || chr || shrt || lng || in)
			return 0;
		*size = named->size ? named->size : tt->long_size;
		*is_signed = named->is_signed;
		return *size > 0;
	}
	if ((sgn && uns) || sgn > 1 || uns > 1 || chr + shrt + (lng > 0) > 1 ||
	    lng > 2 || in > 1 || (chr && in) ||
	    !(sgn + uns + chr + shrt + lng + in))
		return 0;
	*size = chr ? 1 : shrt ? 2 : lng == 2 ? 8 : lng ? tt->long_size : 4;
	*is_signed = uns ? 0 : sgn ? 1 : chr ? tt->char_signed : 1;
	return *size > 0;
}

int arg_widened(const struct sig_arg *a)
{
	return a->decl_size && a->size && !a->is_float && !a->is_pointer &&
	       (a->size > a->decl_size ||
		(a->size == a->decl_size && a->is_signed != a->decl_signed));
}

int arg_misread(const struct sig_arg *a)
{
	if (!arg_widened(a) || a->is_signed == a->decl_signed)
		return 0;
	/* An unsigned value zero-extended reads right as signed. */
	return a->decl_signed || a->size == a->decl_size;
}

const char *arg_decl_word(const struct sig_arg *a)
{
	static const char *const sint[] = { "int8", "int16", "int32", "int64" };
	static const char *const uint[] = { "uint8", "uint16", "uint32",
					    "uint64" };
	int n = a->decl_size;
	int i = n == 1 ? 0 : n == 2 ? 1 : n == 4 ? 2 : n == 8 ? 3 : -1;

	if (i < 0)
		return "?";
	return a->decl_signed ? sint[i] : uint[i];
}

/* `int32', `uint64', `float64' from the spec's size and sign. */
static const char *size_word(const struct arg_desc *d)
{
	static const char *const sint[] = { "int8", "int16", "int32", "int64" };
	static const char *const uint[] = { "uint8", "uint16", "uint32",
					    "uint64" };
	int n = abs(d->size);
	int i = n == 1 ? 0 : n == 2 ? 1 : n == 4 ? 2 : n == 8 ? 3 : -1;

	if (!d->has_size || i < 0)
		return "?";
	if (d->is_float)
		return n == 4 ? "float32" : n == 8 ? "float64" : "?";
	return d->size < 0 ? sint[i] : uint[i];
}

void probe_signature(const struct type_table *tt, const struct sdt_probe *p,
		     struct signature *sig)
{
	const char *spec = p->note.args;
	size_t pos = 0, start, len;
	const struct type_record *rec;
	struct arg_desc d;

	memset(sig, 0, sizeof(*sig));
	while (sdt_arg_split(spec, &pos, &start, &len)) {
		struct sig_arg *a = &sig->args[sig->nargs];

		if (sig->spec_nargs++ >= SDT_MAX_ARGS)
			continue;
		describe_size(spec + start, len, &d);
		a->type = size_word(&d);
		a->name = "";
		a->size = d.has_size ? abs(d.size) : 0;
		a->is_signed = d.has_size && d.size < 0;
		a->is_float = d.is_float;
		sig->nargs++;
	}
	rec = types_find(tt, p->note.provider, p->note.name);
	if (rec && rec->nargs != sig->spec_nargs)
		sig->unused = rec;
	if (!rec || rec->nargs != sig->spec_nargs)
		return;
	if (rec->misfit) {
		sig->misfit = rec;
		return;
	}
	sig->rec = rec;
	for (unsigned i = 0; i < sig->nargs; i++) {
		sig->args[i].name = rec->argname[i];
		if (!rec->type[i][0])
			continue; /* not known: the spec's word stays */
		sig->args[i].type = rec->type[i];
		sig->args[i].is_pointer = strchr(rec->type[i], '*') != NULL;
		sig->args[i].is_string = is_char_pointer(rec->type[i]);
		if (!types_int_decl(tt, rec->type[i], &sig->args[i].decl_size,
				    &sig->args[i].decl_signed))
			sig->args[i].decl_size = 0;
	}
}

void put_sig_arg(FILE *out, const struct sig_arg *a)
{
	size_t n = strlen(a->type);

	put_text(out, a->type);
	if (!a->name[0])
		return;
	if (!n || a->type[n - 1] != '*')
		fputc(' ', out);
	put_text(out, a->name);
}
