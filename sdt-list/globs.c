/* SPDX-License-Identifier: MIT */
/*
 * The PROVIDER:NAME globs of the command line, and the ones that matched
 * nothing.
 *
 * A glob that selects no probe is nearly always a typo (`jobs:qurey'),
 * and an empty listing, exit status 0, or a bpftrace program without a
 * probe in it leaves the user guessing what went wrong. So each object's
 * probes are shown to the globs as it is listed (globs_see()), whatever
 * the output, and at the end every glob that matched no probe of any
 * input is an error on stderr (globs_report()) naming the probes nearest
 * to it: edit distance on PROVIDER:NAME, a transposition counting one,
 * over the probes of the inputs actually given.
 */
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sdt-list.h"

/* How many near names a glob's error offers, at most. */
#define GLOB_HINTS 3
/* Longer names are not compared: no typo makes a glob that long. */
#define GLOB_MAX_LEN 256

struct glob_state {
	int matched;
	unsigned best; /* the hints' distance; UINT_MAX: none yet */
	char *hint[GLOB_HINTS];
	size_t nhints;
};

struct globs {
	struct glob_state *g; /* one per pattern, in command-line order */
	size_t n;
	size_t probes; /* distinct probes seen, for the message */
	int bad_memory;
};

struct globs *globs_new(const struct opts *o)
{
	struct globs *gs = calloc(1, sizeof(*gs));

	if (!gs)
		return NULL;
	gs->n = o->npatterns;
	gs->g = calloc(gs->n ? gs->n : 1, sizeof(*gs->g));
	if (!gs->g) {
		free(gs);
		return NULL;
	}
	for (size_t i = 0; i < gs->n; i++)
		gs->g[i].best = UINT_MAX;
	return gs;
}

void globs_free(struct globs *gs)
{
	if (!gs)
		return;
	for (size_t i = 0; i < gs->n; i++) {
		for (size_t h = 0; h < gs->g[i].nhints; h++)
			free(gs->g[i].hint[h]);
	}
	free(gs->g);
	free(gs);
}

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
	unsigned m = a < b ? a : b;

	return m < c ? m : c;
}

/*
 * Edit distance of A and B (each at most GLOB_MAX_LEN bytes): insertions,
 * deletions, substitutions and swaps of two neighbours each cost one.
 */
static unsigned distance(const char *a, const char *b)
{
	unsigned rows[3][GLOB_MAX_LEN + 1];
	size_t la = strlen(a), lb = strlen(b);
	unsigned *prev2 = rows[0], *prev = rows[1], *cur = rows[2];

	for (size_t j = 0; j <= lb; j++)
		prev[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned cost = a[i - 1] != b[j - 1];

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1,
				      prev[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		unsigned *t = prev2;

		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

/* Close enough to be the name meant: a typo or two, not another name. */
static int near(unsigned d, size_t len)
{
	return d <= 1 || 3 * (size_t)d <= len;
}

/* FULL as a hint for glob G at distance D: the nearest few, each once. */
static void offer(struct globs *gs, struct glob_state *g, const char *full,
		  unsigned d)
{
	char *copy;

	if (d > g->best)
		return;
	if (d < g->best) {
		for (size_t h = 0; h < g->nhints; h++)
			free(g->hint[h]);
		g->nhints = 0;
		g->best = d;
	}
	for (size_t h = 0; h < g->nhints; h++) {
		if (!strcmp(g->hint[h], full))
			return;
	}
	if (g->nhints == GLOB_HINTS)
		return;
	if (!(copy = strdup(full))) {
		gs->bad_memory = 1;
		return;
	}
	g->hint[g->nhints++] = copy;
}

static void see_probe(struct globs *gs, const struct opts *o,
		      const struct sdt_note *n)
{
	char full[2 * GLOB_MAX_LEN + 2];
	size_t lp = strlen(n->provider), ln = strlen(n->name);
	int fits = lp + 1 + ln <= GLOB_MAX_LEN;

	if (fits)
		snprintf(full, sizeof(full), "%s:%s", n->provider, n->name);
	for (size_t i = 0; i < gs->n; i++) {
		struct glob_state *g = &gs->g[i];
		const char *pat = o->patterns[i];
		unsigned d;

		if (g->matched)
			continue;
		if (object_wanted_by(pat, n)) {
			g->matched = 1;
			continue;
		}
		if (!fits || strlen(pat) > GLOB_MAX_LEN)
			continue;
		d = distance(pat, full);
		if (near(d, strlen(pat)))
			offer(gs, g, full, d);
	}
}

void globs_see(struct globs *gs, const struct opts *o, const struct object *obj)
{
	if (!gs)
		return;
	gs->probes += obj->ngroups;
	if (!gs->n)
		return;
	for (size_t i = 0; i < obj->ngroups; i++)
		see_probe(gs, o, &group_probe(obj, &obj->groups[i])->note);
}

void globs_see_file(struct globs *gs, const struct opts *o,
		    const struct sdt_elf *f)
{
	if (!gs)
		return;
	gs->probes += f->nprobes;
	for (size_t i = 0; gs->n && i < f->nprobes; i++)
		see_probe(gs, o, &f->probes[i].note);
}

int globs_report(const struct globs *gs, const struct opts *o)
{
	int bad = 0;

	if (!gs)
		return 0;
	for (size_t i = 0; i < gs->n; i++) {
		const struct glob_state *g = &gs->g[i];

		if (g->matched)
			continue;
		bad = 1;
		fputs("sdt-list: no probe matches `", stderr);
		put_text(stderr, o->patterns[i]);
		fputc('\'', stderr);
		if (!gs->probes)
			fputs(": the inputs have no probes", stderr);
		for (size_t h = 0; h < g->nhints; h++) {
			fputs(!h		  ? "; did you mean `"
			      : h + 1 < g->nhints ? "', `"
						  : "' or `",
			      stderr);
			put_text(stderr, g->hint[h]);
		}
		fputs(g->nhints ? "'?\n" : "\n", stderr);
	}
	if (gs->bad_memory)
		fputs("sdt-list: out of memory: some near names are not "
		      "offered\n",
		      stderr);
	return bad;
}
