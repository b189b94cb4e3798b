/* SPDX-License-Identifier: MIT */
/*
 * One object being listed: its probes, the facts about each site, and the
 * --check verdicts.
 *
 * A person thinks in probes (provider:name), a file stores sites (one note
 * per place the macro was expanded: an inlined function gives many), so
 * the sites are grouped once here and every output walks the groups.
 *
 * The verdicts are judged once per distinct argument spec: a binary with
 * ten thousand sites has a handful of different specs, and running four
 * consumer models (regexes and all) per site made --check thirty times
 * slower than the listing. perf's one whole-file verdict (a bad size
 * anywhere empties its SDT cache for the binary) is found in the same pass.
 */
#include <elf.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sdt-list.h"

const char stale_why[] =
	"a stale note: its site is in no executable code (the linker dropped "
	"the "
	"code it marked, or the note is damaged): no tracer can attach there";

/* ------------------------------------------------------------------ */
/* Grouping                                                            */

struct sort_key {
	const char *provider, *name;
	size_t index;
};

static int cmp_keys(const void *a, const void *b)
{
	const struct sort_key *ka = a, *kb = b;
	int r = strcmp(ka->provider, kb->provider);

	if (!r)
		r = strcmp(ka->name, kb->name);
	if (!r)
		r = ka->index < kb->index ? -1 : 1;
	return r;
}

static int cmp_groups(const void *a, const void *b)
{
	size_t ia = ((const struct group *)a)->order;
	size_t ib = ((const struct group *)b)->order;

	return ia < ib ? -1 : ia > ib;
}

/* Sites sorted by provider:name; groups in first-appearance order. */
static int group_sites(struct object *obj)
{
	const struct sdt_elf *f = obj->f;
	struct sort_key *keys = malloc((f->nprobes + 1) * sizeof(*keys));
	size_t ng = 0;

	obj->sites = malloc((f->nprobes + 1) * sizeof(*obj->sites));
	obj->groups = malloc((f->nprobes + 1) * sizeof(*obj->groups));
	if (!keys || !obj->sites || !obj->groups) {
		free(keys);
		return -ENOMEM;
	}
	for (size_t i = 0; i < f->nprobes; i++)
		keys[i] = (struct sort_key){ f->probes[i].note.provider,
					     f->probes[i].note.name, i };
	qsort(keys, f->nprobes, sizeof(*keys), cmp_keys);
	for (size_t i = 0; i < f->nprobes; i++) {
		obj->sites[i] = keys[i].index;
		if (i && !strcmp(keys[i].provider, keys[i - 1].provider) &&
		    !strcmp(keys[i].name, keys[i - 1].name)) {
			obj->groups[ng - 1].count++;
			continue;
		}
		obj->groups[ng++] = (struct group){ i, 1, keys[i].index };
	}
	free(keys);
	qsort(obj->groups, ng, sizeof(*obj->groups), cmp_groups);
	obj->ngroups = ng;
	return 0;
}

const struct sdt_probe *group_probe(const struct object *obj,
				    const struct group *g)
{
	return &obj->f->probes[obj->sites[g->first]];
}

int object_wanted_by(const char *pattern, const struct sdt_note *n)
{
	char buf[512], *full = buf;
	size_t lp = strlen(n->provider), ln = strlen(n->name);
	int r;

	/* Names are as long as the note makes them: never cut one short. */
	if (lp + ln + 2 > sizeof(buf) && !(full = malloc(lp + ln + 2)))
		return 0;
	memcpy(full, n->provider, lp);
	full[lp] = ':';
	memcpy(full + lp + 1, n->name, ln + 1);
	r = !fnmatch(pattern, full, 0);
	if (full != buf)
		free(full);
	return r;
}

int object_wanted(const struct opts *o, const struct sdt_note *n)
{
	if (!o->npatterns)
		return 1;
	for (size_t i = 0; i < o->npatterns; i++) {
		if (object_wanted_by(o->patterns[i], n))
			return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Verdicts, once per distinct spec                                    */

struct check_entry {
	const char *spec;
	const struct verdict_set *vs; /* all_ok, or own */
	struct verdict_set *own;      /* some consumer refuses: the reasons */
	int perf_poison; /* this spec empties perf's cache for the file */
};

/*
 * Open addressing on the spec's text. A verdict set is a kilobyte of
 * reasons, mostly empty: a spec every consumer reads shares one, so a
 * binary of ten thousand different specs costs no ten megabytes.
 */
struct check_cache {
	struct check_entry **slots; /* NULL: free */
	size_t mask;		    /* capacity - 1, a power of two */
};

static size_t hash_spec(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (size_t)h;
}

static int cache_init(struct object *obj)
{
	size_t cap = 16;

	while (cap < 2 * obj->f->nprobes)
		cap *= 2;
	obj->cache_ = malloc(sizeof(*obj->cache_));
	if (!obj->cache_)
		return -ENOMEM;
	obj->cache_->slots = calloc(cap, sizeof(*obj->cache_->slots));
	obj->cache_->mask = cap - 1;
	return obj->cache_->slots ? 0 : -ENOMEM;
}

/* One entry per consumer (enum consumer). */
static const struct verdict_set all_ok = { .v = { { 1, -1, "" },
						  { 1, -1, "" },
						  { 1, -1, "" },
						  { 1, -1, "" },
						  { 1, -1, "" } },
					   .bad = 0 };

static const struct verdict_set no_memory = { .v = { { 0, -1, "out of memory" },
						     { 0, -1, "out of memory" },
						     { 0, -1, "out of memory" },
						     { 0, -1, "out of memory" },
						     { 0, -1,
						       "out of memory" } },
					      .bad = 1 };

_Static_assert(CONSUMER_COUNT == 5, "all_ok and no_memory: one per consumer");

/* A private copy of E's verdicts, to keep reasons in; NULL: no memory. */
static struct verdict_set *own_verdicts(struct check_entry *e,
					const struct verdict_set *from)
{
	if (!e->own && (e->own = malloc(sizeof(*e->own))))
		*e->own = *from;
	if (e->own)
		e->vs = e->own;
	return e->own;
}

static void judge(const struct sdt_target *t, struct check_entry *e)
{
	struct verdict_set vs = { .bad = 0 };

	for (int c = 0; c < CONSUMER_COUNT; c++) {
		if (consumer_check((enum consumer)c, t, e->spec, &vs.v[c]) &&
		    c == CONSUMER_PERF)
			e->perf_poison = 1;
		vs.bad |= !vs.v[c].ok;
	}
	e->vs = &all_ok;
	if (vs.bad && !own_verdicts(e, &vs))
		e->vs = &no_memory;
}

/* The cache's entry for SPEC, judged when first seen; NULL: no memory. */
static struct check_entry *lookup(struct object *obj, const char *spec)
{
	struct check_cache *c = obj->cache_;
	size_t i = hash_spec(spec) & c->mask;

	/* At most half full: the probe always ends at a match or a hole. */
	while (c->slots[i] && strcmp(c->slots[i]->spec, spec))
		i = (i + 1) & c->mask;
	if (!c->slots[i]) {
		struct check_entry *e = malloc(sizeof(*e));

		if (!e)
			return NULL;
		e->spec = spec;
		e->own = NULL;
		e->perf_poison = 0;
		judge(&obj->f->target, e);
		c->slots[i] = e;
	}
	return c->slots[i];
}

/* perf gives up on a whole binary over one bad size: find that probe. */
static void find_perf_poison(struct object *obj)
{
	const struct sdt_elf *f = obj->f;

	for (size_t i = 0; i < f->nprobes && !obj->perf_dead; i++) {
		const struct check_entry *e =
			lookup(obj, f->probes[i].note.args);

		if (!e || !e->perf_poison)
			continue;
		obj->perf_dead = 1;
		obj->perf_why.ok = 0;
		obj->perf_why.arg = -1;
		snprintf(obj->perf_why.why, sizeof(obj->perf_why.why),
			 "perf lists no probe of this binary: %.30s:%.30s "
			 "%.120s",
			 f->probes[i].note.provider, f->probes[i].note.name,
			 e->vs->v[CONSUMER_PERF].why);
	}
}

const struct verdict_set *object_check(struct object *obj,
				       const struct sdt_probe *p)
{
	struct check_entry *e = lookup(obj, p->note.args);
	struct verdict_set *vs;

	/* Said as a verdict, and by the caller as an error: see sdt-list.h. */
	if (!e || e->vs == &no_memory) {
		obj->out_of_memory = 1;
		return &no_memory;
	}
	if (obj->perf_dead && e->vs->v[CONSUMER_PERF].ok) {
		if (!(vs = own_verdicts(e, e->vs))) {
			obj->out_of_memory = 1;
			return &no_memory;
		}
		vs->v[CONSUMER_PERF] = obj->perf_why;
		vs->bad = 1;
	}
	return e->vs;
}

int group_worst(struct object *obj, const struct group *g,
		const struct verdict *worst[CONSUMER_COUNT])
{
	int bad = 0;

	for (int c = 0; c < CONSUMER_COUNT; c++)
		worst[c] = NULL;
	for (size_t i = 0; i < g->count; i++) {
		const struct verdict_set *vs = object_check(
			obj, &obj->f->probes[obj->sites[g->first + i]]);

		for (int c = 0; c < CONSUMER_COUNT; c++) {
			if (!vs->v[c].ok && !worst[c])
				worst[c] = &vs->v[c];
		}
		bad |= vs->bad;
	}
	return bad;
}

/* ------------------------------------------------------------------ */
/* The object                                                          */

int object_init(struct object *obj, int check)
{
	int r;

	if ((r = group_sites(obj)) < 0 ||
	    (r = types_load(&obj->types, obj->f, obj->name)) < 0)
		return r;
	if (obj->proc && obj->f->nprobes)
		obj->has_bias = proc_runtime_addr(obj->pobj, obj->f, 0,
						  &obj->bias) == 0;
	if (!check)
		return 0;
	if ((r = cache_init(obj)) < 0)
		return r;
	find_perf_poison(obj);
	return 0;
}

void object_said_oom(struct out *o, const struct object *obj)
{
	if (!obj->out_of_memory)
		return;
	fputs("sdt-list: ", stderr);
	put_text(stderr, obj->name);
	fputs(": out of memory: some verdicts are not whole\n", stderr);
	o->status = EXIT_INPUT;
}

void object_fini(struct object *obj)
{
	free(obj->sites);
	free(obj->groups);
	for (size_t i = 0;
	     obj->cache_ && obj->cache_->slots && i <= obj->cache_->mask; i++) {
		if (obj->cache_->slots[i])
			free(obj->cache_->slots[i]->own);
		free(obj->cache_->slots[i]);
	}
	if (obj->cache_)
		free(obj->cache_->slots);
	free(obj->cache_);
	types_free(&obj->types);
	layout_forget(obj);
	obj->sites = NULL;
	obj->groups = NULL;
	obj->cache_ = NULL;
}

void object_of_mapped(struct object *obj, const struct proc_object *po)
{
	snprintf(obj->attach, sizeof(obj->attach), "%s", po->attach_path);
	obj->has_ident = 1;
	obj->dev = po->st_dev;
	obj->ino = po->st_ino;
	obj->no_attach = po->no_attach[0] ? po->no_attach : NULL;
}

void site_facts(const struct object *obj, const struct sdt_probe *p,
		struct site *s)
{
	const struct sdt_elf *f = obj->f;

	memset(s, 0, sizeof(*s));
	s->p = p;
	s->addr = sdt_probe_addr(f, p);
	s->has_off = sdt_elf_addr_to_offset(f, s->addr, &s->off) == 0;
	s->outside = !s->has_off && f->type != ET_REL;
	if (p->note.semaphore)
		s->has_sema_off = sdt_elf_addr_to_offset(f, p->note.semaphore,
							 &s->sema_off) == 0;
	s->section = sdt_probe_section(f, p);
	s->in_code = sdt_probe_in_code(f, p);
	if (!obj->proc)
		return;
	if (!obj->has_bias) {
		s->sema_read = -ENOENT;
		return;
	}
	s->has_runtime = 1;
	s->runtime = s->addr + obj->bias;
	if (p->note.semaphore) {
		s->sema_runtime = p->note.semaphore + obj->bias;
		s->sema_read = proc_read_u16(obj->proc, &f->target,
					     s->sema_runtime, &s->sema_value);
	}
}

void addr_string(char *buf, size_t len, const struct sdt_sym_ref *ref,
		 uint64_t addr)
{
	uint64_t off = ref->offset < 0 ? -(uint64_t)ref->offset
				       : (uint64_t)ref->offset;

	if (!ref->symbol)
		snprintf(buf, len, "0x%" PRIx64, addr);
	else if (ref->offset || ref->is_section)
		snprintf(buf, len, "%s%s0x%" PRIx64, ref->symbol,
			 ref->offset < 0 ? "-" : "+", off);
	else
		snprintf(buf, len, "%s", ref->symbol);
}

void put_addr(FILE *out, const struct sdt_sym_ref *ref, uint64_t addr)
{
	char buf[512];

	addr_string(buf, sizeof(buf), ref, addr);
	put_text(out, buf);
}

static const char *object_type_name(int type)
{
	switch (type) {
	case ET_REL:
		return "relocatable object";
	case ET_EXEC:
		return "executable";
	case ET_DYN:
		return "shared object or PIE executable";
	default:
		return "ELF file";
	}
}

void put_object_heading(FILE *out, const struct object *obj)
{
	const struct sdt_elf *f = obj->f;

	put_text(out, obj->name);
	fprintf(out, ": %s %s", sdt_target_name(&f->target),
		object_type_name(f->type));
	if (obj->pobj && obj->pobj->is_memfd)
		fputs(" in a memfd", out);
	if (obj->no_attach) {
		fputs(", no path for tracers: ", out);
		put_text(out, obj->no_attach);
	} else if (obj->pobj && strcmp(obj->attach, obj->name)) {
		fputs(", attach as ", out);
		put_text(out, obj->attach);
	}
}
