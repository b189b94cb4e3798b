/* SPDX-License-Identifier: MIT */
/*
 * -G: the layout of each struct a probe argument points at, written into
 * the object beside the type records, so a stripped binary still tells a
 * tracer where `o->items' is (docs/struct-layouts.md).
 *
 * The layouts come from the DWARF of the objects -G is given: the ones
 * the probes are compiled into, so built with -g they define every struct
 * their probes pass. An object without DWARF, or a type none of them
 * defines, simply gets no layout: the build goes on as before, and
 * sdt-list can still find the layout in the binary's DWARF or its debug
 * file. Without libdw this file writes nothing.
 */
#include "config.h" /* HAVE_LIBDW */

#include <stdlib.h>
#include <string.h>

#include "dtrace-gen.h"
#include "layout.h"
#ifdef HAVE_LIBDW
#include "layoutdw.h"
#endif

#ifdef HAVE_LIBDW
/* Each distinct struct name the probes' arguments point at, once. */
static size_t pointees(const struct dg_model *m, char (*names)[128], size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nprobes; i++) {
		const struct dg_probe *p = &m->probes[i];

		for (unsigned a = 0; a < p->nargs && n < max; a++) {
			size_t k;

			if (sdt_layout_pointee(p->types[a], names[n],
					       sizeof(names[n])))
				continue;
			for (k = 0; k < n && strcmp(names[k], names[n]); k++)
				;
			n += k == n;
		}
	}
	return n;
}

/* NAME's layout from the first object whose DWARF defines it. */
static int find_layout(struct sdt_dwarf **dw, size_t ndw, const char *name,
		       struct sdt_strbuf *b)
{
	for (size_t i = 0; i < ndw; i++) {
		if (dw[i] && !sdt_dwarf_layout(dw[i], name, b))
			return 0;
		sdt_strbuf_free(b);
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

int dg_layout_append(struct dg_object *obj, const struct dg_model *m,
		     const struct dg_object_opts *o, struct dg_diag *diag)
{
	enum { MAX_TYPES = 256 };
	char(*names)[128] = calloc(MAX_TYPES, sizeof(*names));
	struct sdt_dwarf **dw = calloc(o->nobjects + 1, sizeof(*dw));
	size_t n = names ? pointees(m, names, MAX_TYPES) : 0;
	int r = names && dw ? 0 : -1;

	/* sdt_dwarf_open() reads regular files only, and never blocks. */
	for (size_t i = 0; i < o->nobjects && n && !r; i++)
		sdt_dwarf_open(o->objects[i], -1, NULL, &dw[i]);
	for (size_t i = 0; i < n && !r; i++) {
		struct sdt_strbuf b = { 0 };
		struct sdt_layout l;
		const char *why;

		if (find_layout(dw, o->nobjects, names[i], &b))
			continue;
		/* What we write must read back: check it as a reader would. */
		if (b.oom || sdt_layout_parse(b.p, b.len, &l, &why)) {
			dg_warning(diag, NULL,
				   "the layout of `%s' is not written: %s",
				   names[i], b.oom ? "out of memory" : why);
		} else {
			sdt_layout_free(&l);
			r = append(obj, &b);
		}
		sdt_strbuf_free(&b);
	}
	for (size_t i = 0; dw && i < o->nobjects; i++)
		sdt_dwarf_close(dw[i]);
	free(dw);
	free(names);
	if (r)
		dg_error(diag, NULL, "out of memory");
	return r;
}
#else
int dg_layout_append(struct dg_object *obj, const struct dg_model *m,
		     const struct dg_object_opts *o, struct dg_diag *diag)
{
	(void)obj, (void)m, (void)o, (void)diag;
	return 0;
}
#endif
