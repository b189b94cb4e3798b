/* SPDX-License-Identifier: MIT */
/*
 * -G: the layout of each struct a probe argument points at, written into
 * the object beside the type records, so a stripped binary still tells a
 * tracer where `o->items' is (docs/struct-layouts.md).
 *
 * The layouts come from the DWARF of the objects -G is given: the ones
 * the probes are compiled into, so built with -g they define every struct
 * their probes pass. Where a probe argument points at a struct and no
 * object describes it (none given, none built with -g, or this dtrace-gen
 * built without libdw), -G warns once per such argument and says what to
 * do: the build goes on, but after strip the fields are gone unless a
 * debug file is installed.
 */
#include "config.h" /* HAVE_LIBDW */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dtrace-gen.h"
#include "layout.h"
#ifdef HAVE_LIBDW
#include "layoutdw.h"
#endif

/* Each distinct struct name the probes' arguments point at. */
struct pointee {
	char name[SDT_LAYOUT_NAME_MAX];
	int written;
	const char
		*refused; /* why its layout is not written, if it was found */
};

static struct pointee *pointees(const struct dg_model *m, size_t *n)
{
	struct pointee *all = NULL;
	size_t count = 0;

	for (size_t i = 0; i < m->nprobes; i++) {
		const struct dg_probe *p = &m->probes[i];

		for (unsigned a = 0; a < p->nargs; a++) {
			char name[SDT_LAYOUT_NAME_MAX];
			struct pointee *grown;
			size_t k;

			if (sdt_layout_pointee(p->types[a], name, sizeof(name)))
				continue;
			for (k = 0; k < count && strcmp(all[k].name, name); k++)
				;
			if (k < count)
				continue;
			if (!(grown = realloc(all,
					      (count + 1) * sizeof(*all)))) {
				free(all);
				*n = 0;
				return NULL;
			}
			all = grown;
			memset(&all[count], 0, sizeof(*all));
			strcpy(all[count++].name, name);
		}
	}
	*n = count;
	return all;
}

/*
 * A struct or union by its keyword. A bare typedef (`ticket_t', but also
 * `uint32_t') is one only where DWARF said so, which sdt_dwarf_layout()
 * then found or refused.
 */
static int is_struct_name(const char *name)
{
	return !strncmp(name, "struct ", 7) || !strncmp(name, "union ", 6);
}

/* Warn for each argument pointing at a struct with no layout written. */
static void warn_missing(const struct dg_model *m, const struct pointee *pt,
			 size_t n, const char *why, struct dg_diag *diag)
{
	for (size_t i = 0; i < m->nprobes; i++) {
		const struct dg_probe *p = &m->probes[i];

		for (unsigned a = 0; a < p->nargs; a++) {
			char name[SDT_LAYOUT_NAME_MAX];
			size_t k;

			if (sdt_layout_pointee(p->types[a], name, sizeof(name)))
				continue;
			for (k = 0; k < n && strcmp(pt[k].name, name); k++)
				;
			if (k == n || pt[k].written ||
			    (!pt[k].refused && !is_struct_name(name)))
				continue;
			dg_warning_at(diag, &p->loc,
				      "probe `%s' argument %u points at `%s', "
				      "but no layout of it is written: %s; "
				      "after strip its fields are unknown to "
				      "tracers",
				      p->name, a + 1, name,
				      pt[k].refused ? pt[k].refused : why);
		}
	}
}

#ifdef HAVE_LIBDW
/* NAME's layout from the first object whose DWARF defines it. */
static int find_layout(struct sdt_dwarf **dw, size_t ndw, const char *name,
		       struct sdt_strbuf *b, int *refused)
{
	for (size_t i = 0; i < ndw; i++) {
		int r = dw[i] ? sdt_dwarf_layout(dw[i], name, b) : -ENOENT;

		if (!r)
			return 0;
		sdt_strbuf_free(b);
		if (r != -ENOENT) {
			*refused = r;
			return -1;
		}
	}
	return -1;
}

static int append(struct dg_object *obj, const struct sdt_strbuf *b)
{
	struct sdt_sema_object *s = &obj->sema;
	size_t add = sdt_layout_note_size(b->len);
	unsigned char *t = realloc(obj->types, s->extra_notes_size + add);

	if (!t)
		return -1;
	sdt_layout_note_encode(&s->target, b->p, b->len,
			       t + s->extra_notes_size);
	obj->types = t;
	s->extra_notes = t;
	s->extra_notes_size += add;
	return 0;
}

/* One struct's layout, checked as a reader would check it, appended. */
static int write_one(struct dg_object *obj, struct sdt_dwarf **dw, size_t ndw,
		     struct pointee *pt)
{
	struct sdt_strbuf b = { 0 };
	struct sdt_layout l;
	const char *why;
	int refused = 0, r = 0;

	if (find_layout(dw, ndw, pt->name, &b, &refused)) {
		if (refused == -E2BIG)
			pt->refused = "it has more than 4096 members, the most "
				      "a layout note holds";
		pt->written = refused == -EINVAL; /* no struct: nothing due */
		return 0;
	}
	if (b.oom || sdt_layout_parse(b.p, b.len, &l, &why)) {
		pt->refused = b.oom ? "out of memory" : why;
	} else {
		sdt_layout_free(&l);
		r = append(obj, &b);
		pt->written = !r;
	}
	sdt_strbuf_free(&b);
	return r;
}

int dg_layout_append(struct dg_object *obj, const struct dg_model *m,
		     const struct dg_object_opts *o, struct dg_diag *diag)
{
	size_t n;
	struct pointee *pt = pointees(m, &n);
	struct sdt_dwarf **dw = calloc(o->nobjects + 1, sizeof(*dw));
	size_t with_dwarf = 0;
	int r = (pt || !n) && dw ? 0 : -1;

	/* sdt_dwarf_open() reads regular files only, and never blocks. */
	for (size_t i = 0; i < o->nobjects && n && !r; i++)
		with_dwarf += !sdt_dwarf_open(o->objects[i], -1, NULL, &dw[i],
					      NULL, 0);
	for (size_t i = 0; i < n && !r; i++)
		r = write_one(obj, dw, o->nobjects, &pt[i]);
	if (!r)
		warn_missing(m, pt, n,
			     !o->nobjects  ? "no object was given to -G: pass "
					     "the objects the probes are "
					     "compiled into, built with -g"
			     : !with_dwarf ? "no object given to -G has DWARF: "
					     "build them with -g"
					   : "no object given to -G defines "
					     "it: pass the one that uses it, "
					     "built with -g",
			     diag);
	for (size_t i = 0; dw && i < o->nobjects; i++)
		sdt_dwarf_close(dw[i]);
	free(dw);
	free(pt);
	if (r)
		dg_error(diag, NULL, "out of memory");
	return r;
}
#else
int dg_layout_append(struct dg_object *obj, const struct dg_model *m,
		     const struct dg_object_opts *o, struct dg_diag *diag)
{
	size_t n;
	struct pointee *pt = pointees(m, &n);

	(void)obj, (void)o;
	warn_missing(m, pt, pt ? n : 0,
		     "this dtrace-gen was built without libdw, so it reads "
		     "no DWARF: rebuild sdtkit with libdw-dev installed",
		     diag);
	free(pt);
	return 0;
}
#endif
