/* SPDX-License-Identifier: MIT */
/*
 * sdt-list --diff OLD NEW: what changed in a program's probes between two
 * builds, and whether the change breaks someone's tracing script.
 *
 * Probes are an interface: a bpftrace script names provider:name and
 * reads argN as a size and a sign. A probe that goes away (an #ifdef, LTO,
 * --gc-sections) makes the script fail to attach; an argument that shrinks,
 * changes sign or type, or disappears makes it print garbage; a lost
 * semaphore makes an agent that counts on it see nothing. Those changes are
 * breaking (exit 1). A new probe, a new trailing argument, a gained
 * semaphore, a renamed argument, a different number of sites or a
 * constant encoded otherwise (`-4@$1' -> `1@$1': it reads 1 either way)
 * is reported and exits 0: scripts that worked still work.
 *
 * Each side is a file or a process (-p PID). The objects of the two sides
 * are paired by side.c's key (the SONAME first), so a library and its next
 * release pair up whatever their files are called; two files given alone
 * always pair with each other, and are always named. A pair of a
 * process's objects is named only when something changed in it: two
 * processes map the same C library and loader, and glibc 2.43's have
 * probes of their own. Each probe's signature is the one signature.c
 * gives for all of its sites, so a probe whose sites differ compares as a
 * tracer sees it.
 */
#include <stdlib.h>
#include <string.h>

#include "contract.h"

enum change_kind {
	CH_REMOVED,
	CH_ADDED,
	CH_NARGS,
	CH_SIZE,
	CH_SIGN,
	CH_FLOAT,
	CH_TYPE,
	CH_NAME,
	CH_SEMA_LOST,
	CH_SEMA_GAINED,
	CH_SITES,
	CH_ENCODING,
};

/* Each kind as JSON names it, and as a text line does after "argN ". */
static const char *const kind_names[] = {
	[CH_REMOVED] = "removed",
	[CH_ADDED] = "added",
	[CH_NARGS] = "argument-count",
	[CH_SIZE] = "argument-size",
	[CH_SIGN] = "argument-sign",
	[CH_FLOAT] = "argument-float",
	[CH_TYPE] = "argument-type",
	[CH_NAME] = "argument-name",
	[CH_SEMA_LOST] = "semaphore-lost",
	[CH_SEMA_GAINED] = "semaphore-gained",
	[CH_SITES] = "site-count",
	[CH_ENCODING] = "constant-encoding",
};
static const char *const arg_words_of[] = {
	[CH_SIZE] = "size", [CH_SIGN] = "sign", [CH_FLOAT] = "float",
	[CH_TYPE] = "type", [CH_NAME] = "name", [CH_ENCODING] = "encoding",
};

struct diff_run {
	int json;
	char **patterns;
	size_t npatterns;
	FILE *out;
	const struct side_object *old_obj, *new_obj; /* the current pair */
	int pair_named;	 /* its name printed: its changes may follow */
	int no_pair_yet; /* no pair printed yet (JSON: no comma) */
	int json_first;	 /* no change printed yet in this pair */
	unsigned added, removed, changed, breaking;
	int changed_this; /* the current probe already counted as changed */
	int failed;	  /* out of memory: the comparison is incomplete */
};

/* Both sides of one probe, or one side when it was added or removed. */
struct probe_pair {
	const char *key; /* the pair's object key */
	const struct sdt_note *note;
	const struct object *old, *new;
	const struct group *og, *ng;
	struct group_sig os, ns;
};

static int wanted(const struct diff_run *d, const struct sdt_note *n)
{
	struct opts o = { .patterns = d->patterns, .npatterns = d->npatterns };

	return object_wanted(&o, n);
}

/* ------------------------------------------------------------------ */
/* Printing one change                                                 */

static void put_probe_name(FILE *out, const struct sdt_note *n)
{
	put_text(out, n->provider);
	fputc(':', out);
	put_text(out, n->name);
}

static void json_value(FILE *out, const char *key, const char *v)
{
	fprintf(out, ",\"%s\":", key);
	put_json_str(out, v);
}

static void change_json(struct diff_run *d, const struct probe_pair *pp,
			enum change_kind k, int arg, const char *was,
			const char *now, int breaking)
{
	char full[1024];

	fputs(d->json_first ? "\n    " : ",\n    ", d->out);
	d->json_first = 0;
	snprintf(full, sizeof(full), "%s:%s", pp->note->provider,
		 pp->note->name);
	fputs("{\"probe\":", d->out);
	put_json_str(d->out, full);
	fprintf(d->out, ",\"change\":\"%s\"", kind_names[k]);
	if (arg >= 0)
		fprintf(d->out, ",\"arg\":%d", arg);
	if (was)
		json_value(d->out, "old", was);
	if (now)
		json_value(d->out, "new", now);
	fprintf(d->out, ",\"breaking\":%s}", breaking ? "true" : "false");
}

static void pair_begin(struct diff_run *d);

/*
 * One change of probe PP: K, about argument ARG (-1: the probe), from WAS
 * to NOW (NULL: not applicable). A line of text, or a JSON object.
 */
static void change(struct diff_run *d, const struct probe_pair *pp,
		   enum change_kind k, int arg, const char *was,
		   const char *now, int breaking)
{
	if (!d->pair_named)
		pair_begin(d);
	d->breaking += breaking;
	if (k != CH_ADDED && k != CH_REMOVED && !d->changed_this) {
		d->changed++;
		d->changed_this = 1;
	}
	if (d->json) {
		change_json(d, pp, k, arg, was, now, breaking);
		return;
	}
	fputs(k == CH_ADDED ? "+ " : k == CH_REMOVED ? "- " : "~ ", d->out);
	put_probe_name(d->out, pp->note);
	if (k == CH_ADDED || k == CH_REMOVED)
		fprintf(d->out, ": %s", kind_names[k]);
	else if (arg >= 0)
		fprintf(d->out, ": arg%d %s", arg, arg_words_of[k]);
	else
		fprintf(d->out, ": %s", kind_names[k]);
	if (was && now) {
		fputs(" ", d->out);
		put_text(d->out, was);
		fputs(" -> ", d->out);
		put_text(d->out, now);
	}
	fputs(breaking ? "  BREAKING\n" : "\n", d->out);
}

/* ------------------------------------------------------------------ */
/* Comparing one probe                                                 */

static const char *arg_words(const struct sig_arg *a, char *buf, size_t len)
{
	if (a->is_float)
		snprintf(buf, len, "float %d bytes", a->size);
	else
		snprintf(buf, len, "%s %d bytes",
			 a->is_signed ? "signed" : "unsigned", a->size);
	return buf;
}

/*
 * A recorded type, or NULL where the build recorded none: also where its
 * record leaves the type unknown (a compiler's records of sites that pass
 * different types), whose word is then the spec's (`uint64').
 */
static const char *recorded_type(const struct group_sig *gs, unsigned i)
{
	return gs->sig.rec && gs->sig.rec->type[i][0] ? gs->sig.args[i].type
						      : NULL;
}

/* Every site of both builds passes argument I as a constant. */
static int const_only(const struct probe_pair *pp, unsigned i)
{
	const struct arg_enc *ea = &pp->os.enc[i], *eb = &pp->ns.enc[i];

	return ea->cst.seen && !ea->var.seen && eb->cst.seen && !eb->var.seen;
}

/*
 * A type change that breaks readers. An argument every site of both
 * builds passes as a constant reads as its value: where both types are
 * integers, the comparison of the constants (their size and sign, or an
 * encoding that reads the same) is the verdict, and the compiler's type
 * of the constant (`1', `(_Bool)1') is reported beside it, not counted
 * again.
 */
static int type_breaks(const struct probe_pair *pp, unsigned i)
{
	return !const_only(pp, i) || !pp->os.sig.args[i].decl_size ||
	       !pp->ns.sig.args[i].decl_size;
}

static const char *const_words(const struct arg_enc *e, char *buf, size_t len)
{
	snprintf(buf, len, "constant %s %d bytes%s",
		 e->cst.is_signed ? "signed" : "unsigned", e->cst.size,
		 e->cst.size_differs || e->cst.sign_differs ? " (sites differ)"
							    : "");
	return buf;
}

/*
 * Argument I's constant sites encode it otherwise than before (gcc 12
 * wrote a bool true as `-4@$1', gcc 15 as `1@$1'; JDK 17 a 0 as `-8@$0'
 * where JDK 21 writes `8@$0'). No reader sees it where each side's
 * constants read the same as the other side's argument does: named, not
 * breaking. Returns 1 when that replaces the size and sign comparison:
 * every site of both sides is a constant.
 */
static int const_encoding(struct diff_run *d, const struct probe_pair *pp,
			  unsigned i)
{
	const struct sig_arg *a = &pp->os.sig.args[i], *b = &pp->ns.sig.args[i];
	const struct arg_enc *ea = &pp->os.enc[i], *eb = &pp->ns.enc[i];
	int same = a->size == b->size && a->is_signed == b->is_signed &&
		   a->is_float == b->is_float;
	char wa[64], wb[64];

	if (!ea->cst.seen || !eb->cst.seen)
		return 0;
	if (ea->cst.size == eb->cst.size &&
	    ea->cst.is_signed == eb->cst.is_signed &&
	    ea->cst.size_differs == eb->cst.size_differs &&
	    ea->cst.sign_differs == eb->cst.sign_differs)
		return 0;
	if (!same &&
	    (ea->var.seen || eb->var.seen || a->is_float || b->is_float ||
	     !enc_consts_fit(ea, b->size, b->is_signed) ||
	     !enc_consts_fit(eb, a->size, a->is_signed)))
		return 0;
	change(d, pp, CH_ENCODING, (int)i, const_words(ea, wa, sizeof(wa)),
	       const_words(eb, wb, sizeof(wb)), 0);
	return !same;
}

/* Size, then float-ness, then sign: the first that differs is the news. */
static void compare_reading(struct diff_run *d, const struct probe_pair *pp,
			    unsigned i)
{
	const struct sig_arg *a = &pp->os.sig.args[i], *b = &pp->ns.sig.args[i];
	enum change_kind k = a->size != b->size		    ? CH_SIZE
			     : a->is_float != b->is_float   ? CH_FLOAT
			     : a->is_signed != b->is_signed ? CH_SIGN
							    : CH_REMOVED;
	char wa[64], wb[64];

	if (k != CH_REMOVED)
		change(d, pp, k, (int)i, arg_words(a, wa, sizeof(wa)),
		       arg_words(b, wb, sizeof(wb)), 1);
}

static void compare_arg(struct diff_run *d, const struct probe_pair *pp,
			unsigned i)
{
	const struct sig_arg *a = &pp->os.sig.args[i], *b = &pp->ns.sig.args[i];
	const char *ta = recorded_type(&pp->os, i);
	const char *tb = recorded_type(&pp->ns, i);

	/* Constants that read the same either way change neither. */
	if (!const_encoding(d, pp, i))
		compare_reading(d, pp, i);
	/* A type only one build recorded is news, not a change. */
	if (ta && tb && strcmp(ta, tb))
		change(d, pp, CH_TYPE, (int)i, ta, tb, type_breaks(pp, i));
	if (ta && tb && *a->name && *b->name && strcmp(a->name, b->name))
		change(d, pp, CH_NAME, (int)i, a->name, b->name, 0);
}

static void compare_probe(struct diff_run *d, struct probe_pair *pp)
{
	unsigned on = pp->os.min_nargs, nn = pp->ns.min_nargs;
	unsigned common = pp->os.sig.nargs < pp->ns.sig.nargs
				  ? pp->os.sig.nargs
				  : pp->ns.sig.nargs;
	int os = group_has_semaphore(pp->old, pp->og);
	int ns = group_has_semaphore(pp->new, pp->ng);
	char wa[32], wb[32];

	d->changed_this = 0;
	if (on != nn) {
		snprintf(wa, sizeof(wa), "%u", on);
		snprintf(wb, sizeof(wb), "%u", nn);
		change(d, pp, CH_NARGS, -1, wa, wb, nn < on);
	}
	for (unsigned i = 0; i < common; i++)
		compare_arg(d, pp, i);
	if (os && !ns)
		change(d, pp, CH_SEMA_LOST, -1, NULL, NULL, 1);
	if (!os && ns)
		change(d, pp, CH_SEMA_GAINED, -1, NULL, NULL, 0);
	if (pp->og->count != pp->ng->count) {
		snprintf(wa, sizeof(wa), "%zu", pp->og->count);
		snprintf(wb, sizeof(wb), "%zu", pp->ng->count);
		change(d, pp, CH_SITES, -1, wa, wb, 0);
	}
}

/* ------------------------------------------------------------------ */
/* Comparing two objects                                               */

struct named_group {
	const struct sdt_note *note;
	const struct group *g;
};

static int cmp_named(const void *a, const void *b)
{
	const struct named_group *x = a, *y = b;
	int r = strcmp(x->note->provider, y->note->provider);

	return r ? r : strcmp(x->note->name, y->note->name);
}

/*
 * OBJ's live probes by provider:name, so the report reads the same
 * whatever order a compiler laid the sites out in. NULL: none or no memory
 * (*N says which: 0 for none).
 */
static struct named_group *sorted_groups(const struct object *obj, size_t *n)
{
	struct named_group *v;

	*n = 0;
	if (!obj || !obj->ngroups)
		return NULL;
	v = calloc(obj->ngroups, sizeof(*v));
	if (!v) {
		*n = (size_t)-1;
		return NULL;
	}
	for (size_t i = 0; i < obj->ngroups; i++) {
		if (!group_is_live(obj, &obj->groups[i]))
			continue;
		v[*n].g = &obj->groups[i];
		v[*n].note = &group_probe(obj, v[*n].g)->note;
		++*n;
	}
	qsort(v, *n, sizeof(*v), cmp_named);
	return v;
}

static const struct group *find_named(const struct named_group *v, size_t n,
				      const struct sdt_note *note)
{
	struct named_group key = { .note = note };
	const struct named_group *hit;

	if (!n)
		return NULL;
	hit = bsearch(&key, v, n, sizeof(*v), cmp_named);
	return hit ? hit->g : NULL;
}

/*
 * OLD's probes against NEW's (either may be NULL: the object is gone), in
 * one merge of the two sorted lists. -1 when out of memory.
 */
static int compare_objects(struct diff_run *d, const struct object *old,
			   const struct object *new)
{
	struct probe_pair pp = { .old = old, .new = new };
	size_t no, nn;
	struct named_group *vo = sorted_groups(old, &no);
	struct named_group *vn = sorted_groups(new, &nn);

	if (no == (size_t)-1 || nn == (size_t)-1) {
		free(vo);
		free(vn);
		return -1;
	}
	for (size_t i = 0; i < no; i++) {
		pp.og = vo[i].g;
		pp.note = vo[i].note;
		if (!wanted(d, pp.note))
			continue;
		pp.ng = find_named(vn, nn, pp.note);
		if (!pp.ng) {
			d->removed++;
			change(d, &pp, CH_REMOVED, -1, NULL, NULL, 1);
			continue;
		}
		group_signature(old, pp.og, &pp.os);
		group_signature(new, pp.ng, &pp.ns);
		compare_probe(d, &pp);
	}
	for (size_t i = 0; i < nn; i++) {
		pp.ng = vn[i].g;
		pp.note = vn[i].note;
		if (!wanted(d, pp.note) || find_named(vo, no, pp.note))
			continue;
		d->added++;
		change(d, &pp, CH_ADDED, -1, NULL, NULL, 0);
	}
	free(vo);
	free(vn);
	return 0;
}

/* The current pair's names: a "---" and a "+++" line, or a JSON object. */
static void pair_begin(struct diff_run *d)
{
	const struct side_object *a = d->old_obj, *b = d->new_obj;

	d->pair_named = 1;
	if (!d->json) {
		fputs("--- ", d->out);
		put_text(d->out, a ? a->name : "(none)");
		if (a && a->soname[0]) {
			fputs(" (SONAME ", d->out);
			put_text(d->out, a->soname);
			fputc(')', d->out);
		}
		fputs("\n+++ ", d->out);
		put_text(d->out, b ? b->name : "(none)");
		if (b && b->soname[0]) {
			fputs(" (SONAME ", d->out);
			put_text(d->out, b->soname);
			fputc(')', d->out);
		}
		fputc('\n', d->out);
		return;
	}
	fputs(d->no_pair_yet ? "\n  " : ",\n  ", d->out);
	d->no_pair_yet = 0;
	fputs("{\"old\":", d->out);
	put_json_str(d->out, a ? a->name : "");
	put_json_exact(d->out, "old", a ? a->name : "");
	put_json_path(d->out, "new", b ? b->name : "");
	json_value(d->out, "old_soname", a ? a->soname : "");
	json_value(d->out, "new_soname", b ? b->soname : "");
	fputs(",\"changes\":[", d->out);
	d->json_first = 1;
}

static void pair_end(struct diff_run *d)
{
	if (d->json && d->pair_named)
		fputs(d->json_first ? "]}" : "\n  ]}", d->out);
}

static const struct side_object *find_key(const struct side *s, const char *key)
{
	for (size_t i = 0; i < s->n; i++) {
		if (!strcmp(s->objs[i]->key, key))
			return s->objs[i];
	}
	return NULL;
}

/* One pair; ALWAYS: named even when nothing changed in it. */
static void compare_pair(struct diff_run *d, const struct side_object *a,
			 const struct side_object *b, int always)
{
	d->old_obj = a;
	d->new_obj = b;
	d->pair_named = 0;
	if (always)
		pair_begin(d);
	if (compare_objects(d, a ? &a->obj : NULL, b ? &b->obj : NULL) < 0)
		d->failed = 1;
	pair_end(d);
}

/*
 * Two single files pair whatever they are called; otherwise objects pair
 * by key, and one with no counterpart has all its probes added or removed.
 */
static void compare_sides(struct diff_run *d, const struct side *old,
			  const struct side *new)
{
	d->no_pair_yet = 1;
	if (!old->pid && !new->pid) {
		compare_pair(d, old->objs[0], new->objs[0], 1);
		return;
	}
	for (size_t i = 0; i < old->n; i++)
		compare_pair(d, old->objs[i], find_key(new, old->objs[i]->key),
			     0);
	for (size_t i = 0; i < new->n; i++) {
		if (!find_key(old, new->objs[i]->key))
			compare_pair(d, NULL, new->objs[i], 0);
	}
}

static void summary(struct diff_run *d)
{
	if (d->json) {
		fprintf(d->out,
			"\n ],\n \"added\":%u,\"removed\":%u,\"changed\":%u,"
			"\"breaking\":%u}\n",
			d->added, d->removed, d->changed, d->breaking);
		return;
	}
	fprintf(d->out,
		"%u added, %u removed, %u changed; %u breaking change%s\n",
		d->added, d->removed, d->changed, d->breaking,
		d->breaking == 1 ? "" : "s");
}

/* ------------------------------------------------------------------ */
/* The command line                                                    */

static void diff_usage(FILE *out)
{
	fputs("usage: sdt-list --diff [--json] OLD NEW "
	      "[PROVIDER:NAME-GLOB...]\n"
	      "OLD and NEW are each a FILE or -p PID. Lists the probes added\n"
	      "and removed and every change in argument count, size, sign,\n"
	      "recorded type or name, semaphore and site count. Objects of a\n"
	      "process pair with the other side's by SONAME. Exit: 0 nothing\n"
	      "breaking, 1 a probe or argument removed or changed, or a\n"
	      "semaphore lost; 2 an input could not be read.\n",
	      out);
}

static int diff_args(int argc, char **argv, struct diff_run *d,
		     struct side sides[2], size_t *nsides)
{
	int i = 1;

	while (i < argc) {
		const char *a = argv[i];

		if (!strcmp(a, "--diff")) {
			i++;
		} else if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			d->json = 1;
			i++;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			diff_usage(stdout);
			return 0;
		} else if (strchr(a, ':') && a[0] != '-' && *nsides == 2) {
			d->patterns[d->npatterns++] = argv[i++];
		} else if (*nsides == 2 || (a[0] == '-' && a[1] != 'p' &&
					    strncmp(a, "--pid", 5))) {
			fputs("sdt-list: --diff: unexpected `", stderr);
			put_text(stderr, a);
			fputs("'\n", stderr);
			diff_usage(stderr);
			return EXIT_INPUT;
		} else if (side_open_arg(&sides[(*nsides)++], argc, argv, &i)) {
			return EXIT_INPUT;
		}
	}
	if (*nsides < 2) {
		diff_usage(stderr);
		return EXIT_INPUT;
	}
	return -1;
}

int diff_main(int argc, char **argv)
{
	struct diff_run d = { .out = stdout };
	struct side sides[2];
	size_t nsides = 0;
	int r;

	d.patterns = calloc((size_t)argc, sizeof(char *));
	if (!d.patterns) {
		fputs("sdt-list: out of memory\n", stderr);
		return EXIT_INPUT;
	}
	r = diff_args(argc, argv, &d, sides, &nsides);
	if (r < 0) {
		if (d.json)
			fputs("{\"pairs\":[", d.out);
		compare_sides(&d, &sides[0], &sides[1]);
		summary(&d);
		if (d.failed)
			fputs("sdt-list: --diff: out of memory\n", stderr);
		r = d.failed || sides[0].warning[0] || sides[1].warning[0]
			    ? EXIT_INPUT
		    : d.breaking ? EXIT_CHECK
				 : 0;
	}
	for (size_t i = 0; i < nsides; i++)
		side_close(&sides[i]);
	free(d.patterns);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fputs("sdt-list: writing the comparison failed\n", stderr);
		r = EXIT_INPUT;
	}
	return r;
}
