/* SPDX-License-Identifier: MIT */
/*
 * sdt-list --perf: the perf commands that make the listed probes events.
 *
 * perf finds SDT probes through its build-id cache, so the binary is added
 * first, then one `perf probe' per probe creates the event to record. perf
 * puts every site of a probe under one event, which the kernel allows only
 * while the sites record the same fields; where they differ, each site
 * becomes its own event at its file offset, with the fields perf would
 * have recorded (through tracefs where the probe has a semaphore, which
 * perf probe cannot give an event at an address). The cleanup line
 * deletes exactly the events the commands made.
 */
#include <stdlib.h>
#include <string.h>

#include "scripts.h"

/* S for a POSIX shell, in single quotes. */
static void put_shell_word(FILE *out, const char *s)
{
	fputc('\'', out);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", out);
		else
			fputc(*s, out);
	}
	fputc('\'', out);
}

static int has_semaphore(const struct sdt_probe *p)
{
	return p->note.semaphore || p->sema_ref.symbol;
}

/* An operand perf records no value for: a constant (`$5', or `5'). */
static int is_constant(const char *op)
{
	if (*op == '$')
		return 1;
	if (*op == '-')
		op++;
	return *op >= '0' && *op <= '9';
}

/*
 * The fields perf records at a site: each argument's name and type. The
 * kernel puts sites under one event only while these agree; where a value
 * is fetched from (a register, a stack slot) may differ from site to site.
 * Where we cannot write perf's fetch arguments (`arg1=%di:s32'), the
 * spec's sizes (`-4@x0') stand for the types, with `$' for a constant.
 */
static void perf_fields(const struct object *obj, const struct sdt_probe *p,
			char *buf, size_t len)
{
	char fetch[1024], why[256];
	int spec = perf_fetch_args(&obj->f->target, p->note.args, fetch,
				   sizeof(fetch), why, sizeof(why)) < 0;
	const char *s = spec ? p->note.args : fetch;
	size_t used = 0;

	buf[0] = 0;
	for (s += strspn(s, " \t\n"); *s; s += strspn(s, " \t\n")) {
		int n = (int)strcspn(s, " \t\n");
		const char *sep = memchr(s, spec ? '@' : '=', (size_t)n);
		const char *type =
			sep ? memchr(sep, ':', (size_t)(s + n - sep)) : NULL;
		int w;

		if (spec)
			w = snprintf(buf + used, len - used, "%.*s%s ",
				     sep ? (int)(sep - s) : 0, s,
				     sep && is_constant(sep + 1) ? "$" : "");
		else
			w = snprintf(buf + used, len - used, "%.*s%.*s ",
				     sep ? (int)(sep - s) : n, s,
				     type ? (int)(s + n - type) : 0,
				     type ? type : "");
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
		s += n;
	}
}

int perf_sites_differ(const struct object *obj, const struct group *g)
{
	char first[1024], other[1024];
	int have = 0;

	for (size_t i = 0; i < g->count; i++) {
		const struct sdt_probe *p =
			&obj->f->probes[obj->sites[g->first + i]];
		struct site s;

		site_facts(obj, p, &s);
		if (!s.in_code || s.outside)
			continue;
		perf_fields(obj, p, have ? other : first, sizeof(first));
		if (have && strcmp(first, other))
			return 1;
		have = 1;
	}
	return 0;
}

/* S with each run of underscores written as one. */
static void put_one_underscore(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (!(*s == '_' && s[1] == '_'))
			fputc(*s, out);
	}
}

static void perf_add_event(struct script *sc, const char *provider,
			   const char *event)
{
	size_t i;

	fprintf(sc->events, " -d 'sdt_%s:%s'", provider, event);
	/* perf 7 names the event with each `__' as `_' (sdt_p:a_b for a__b). */
	if (strstr(provider, "__") || strstr(event, "__")) {
		fputs(" -d 'sdt_", sc->events);
		put_one_underscore(sc->events, provider);
		fputc(':', sc->events);
		put_one_underscore(sc->events, event);
		fputc('\'', sc->events);
	}
	for (i = 0; i < sc->nproviders; i++) {
		if (!strcmp(sc->providers[i], provider))
			return;
	}
	char **grown = realloc(sc->providers, (i + 1) * sizeof(*grown));
	if (!grown || !(grown[i] = strdup(provider))) {
		if (grown)
			sc->providers = grown;
		sc->bad_memory = 1;
		return;
	}
	sc->providers = grown;
	sc->nproviders++;
}

/* Where perf's own commands cannot take a site: the kernel's interface. */
static const char uprobe_events[] = "/sys/kernel/tracing/uprobe_events";

/*
 * One site as its own event. perf probe places an event at a file offset
 * but has no way to give it a semaphore; tracefs does (OFF(SEMA_OFF)), and
 * perf records such an event like its own.
 */
static void perf_site_event(FILE *out, const char *path, const char *provider,
			    const char *event, const struct site *s,
			    const char *args, int sema)
{
	char line[4096 + 2048];

	if (!sema) {
		fputs("perf probe -x ", out);
		put_shell_word(out, path);
		fprintf(out, " -a 'sdt_%s:%s=0x%llx%s%s'\n", provider, event,
			(unsigned long long)s->off, *args ? " " : "", args);
		return;
	}
	snprintf(line, sizeof(line), "p:sdt_%s/%s %s:0x%llx(0x%llx)%s%s",
		 provider, event, path, (unsigned long long)s->off,
		 (unsigned long long)s->sema_off, *args ? " " : "", args);
	fputs("echo ", out);
	put_shell_word(out, line);
	fprintf(out, " >>%s\n", uprobe_events);
}

/* Why one site cannot be an event of its own, or NULL. */
static const char *site_problem(const struct site *s, const char *path,
				int sema)
{
	if (!s->has_off)
		return "no file offset for its address";
	if (sema && !s->has_sema_off)
		return "no file offset for its semaphore";
	if (sema && strpbrk(path, " \t"))
		return "tracefs cannot name a path holding a space";
	return NULL;
}

/*
 * The fetch arguments ARGS (`arg1=%dx:u64 ...') with each argument that
 * GS says is declared narrower than recorded read as declared
 * (`arg2=%dx:s32'): on x86 a register or memory fetch of fewer bytes takes
 * the low ones, as a C cast does. Returns how many were retyped.
 */
static unsigned retype_args(char *args, size_t len, const struct group_sig *gs)
{
	char out[1024];
	size_t used = 0;
	unsigned n = 0;

	out[0] = 0;
	for (const char *s = args; *s;) {
		size_t w = strcspn(s, " ");
		const char *colon = memchr(s, ':', w);
		unsigned i = 0;
		int k;

		if (sscanf(s, "arg%u=", &i) == 1 && i >= 1 &&
		    i <= gs->sig.nargs && colon &&
		    arg_widened(&gs->sig.args[i - 1])) {
			const struct sig_arg *a = &gs->sig.args[i - 1];
			/* perf script prints s8 and s16 fields as unsigned;
			 * a signed value widened in C is sign-extended, so
			 * its low 4 bytes hold it as well. */
			int bits = a->decl_signed && a->decl_size < 4
					   ? 32
					   : a->decl_size * 8;

			k = snprintf(out + used, sizeof(out) - used,
				     "%s%.*s:%c%d", used ? " " : "",
				     (int)(colon - s), s,
				     a->decl_signed ? 's' : 'u', bits);
			n++;
		} else {
			k = snprintf(out + used, sizeof(out) - used, "%s%.*s",
				     used ? " " : "", (int)w, s);
		}
		if (k < 0 || (size_t)k >= sizeof(out) - used)
			return 0; /* too long: left as perf has it */
		used += (size_t)k;
		s += w;
		s += strspn(s, " ");
	}
	if (n && used < len)
		memcpy(args, out, used + 1);
	return used < len ? n : 0;
}

/*
 * One event per site, at its file offset: sites that perf cannot merge,
 * or (DECL given) arguments perf would read wider than declared.
 */
static void perf_each_site(struct script *sc, const struct object *obj,
			   const struct group *g, const char *path,
			   const struct group_sig *decl)
{
	FILE *out = sc->body;
	const struct sdt_probe *p = group_probe(obj, g);
	int sema = has_semaphore(p);
	unsigned made = 0;

	fputs("# ", out);
	put_probe_name(out, p);
	if (decl)
		fputs(": arguments recorded wider than declared (perf probe "
		      "-a sdt_PROVIDER:NAME would print an int's -1 as "
		      "18446744073709551615): one event per site, each read "
		      "as declared",
		      out);
	else
		fputs(": its sites record different fields, which one event "
		      "cannot hold (perf probe -a sdt_PROVIDER:NAME stops at "
		      "\"File exists\"): one event per site",
		      out);
	fprintf(out, "%s\n",
		sema ? ", through tracefs, which can raise its semaphore" : "");
	for (size_t i = 0; i < g->count; i++) {
		const struct sdt_probe *q =
			&obj->f->probes[obj->sites[g->first + i]];
		char args[1024], why[256], event[300];
		const char *problem;
		struct site s;

		site_facts(obj, q, &s);
		if (!s.in_code || s.outside)
			continue;
		problem = site_problem(&s, path, sema);
		if (!problem &&
		    perf_fetch_args(&obj->f->target, q->note.args, args,
				    sizeof(args), why, sizeof(why)) < 0)
			problem = why;
		if (!problem && decl)
			retype_args(args, sizeof(args), decl);
		if (problem) {
			fprintf(out, "# site at 0x%llx: left out: ",
				(unsigned long long)s.addr);
			put_text(out, problem);
			fputc('\n', out);
			continue;
		}
		if (made)
			snprintf(event, sizeof(event), "%s_%u", p->note.name,
				 made);
		else
			snprintf(event, sizeof(event), "%s", p->note.name);
		made++;
		perf_site_event(out, path, p->note.provider, event, &s, args,
				sema);
		perf_add_event(sc, p->note.provider, event);
	}
}

/*
 * perf's verdict on every site of G: 1 when perf cannot add the event (a
 * register the kernel does not know, a size that empties its cache), the
 * reason in V; else 0, V holding the first field it skips, if any.
 */
static int perf_refuses(const struct object *obj, const struct group *g,
			struct verdict *v)
{
	struct verdict first = { .ok = 1, .arg = -1 };
	const char *last = NULL;

	for (size_t i = 0; i < g->count; i++) {
		const char *spec =
			obj->f->probes[obj->sites[g->first + i]].note.args;

		if (last && !strcmp(spec, last))
			continue;
		last = spec;
		if (consumer_check(CONSUMER_PERF, &obj->f->target, spec, v) ||
		    (!v->ok && !strstr(v->why, "skipped: not recorded")))
			return 1;
		if (!v->ok && first.ok)
			first = *v;
	}
	*v = first;
	return 0;
}

static void perf_probe(struct script *sc, struct object *obj,
		       const struct group *g, const char *path)
{
	FILE *out = sc->body;
	const struct sdt_probe *p = group_probe(obj, g);
	enum sdt_arch a = sdt_target_arch(&obj->f->target);
	struct group_sig gs;
	struct verdict v;
	int widened = 0;

	/* perf names the event sdt_PROVIDER:NAME: a C-like word each. */
	if (!all_word(p->note.provider, "") || !all_word(p->note.name, "")) {
		fputs("# ", out);
		put_probe_name(out, p);
		fputs(": left out: perf cannot name an event after it\n", out);
		return;
	}
	if (stale_sites(obj, g) == g->count) {
		fprintf(out, "# %s:%s: left out: %s\n", p->note.provider,
			p->note.name, all_stale);
		return;
	}
	if (perf_refuses(obj, g, &v)) {
		fprintf(out, "# %s:%s: left out: ", p->note.provider,
			p->note.name);
		put_text(out, v.why);
		fputc('\n', out);
		return;
	}
	if (!v.ok) {
		fprintf(out, "# %s:%s: ", p->note.provider, p->note.name);
		put_text(out, v.why);
		fputc('\n', out);
	}
	group_signature(obj, g, &gs);
	for (unsigned i = 0; i < gs.sig.nargs && !widened; i++)
		widened = arg_widened(&gs.sig.args[i]);
	if (widened && (a == SDT_ARCH_X86_64 || a == SDT_ARCH_I386)) {
		perf_each_site(sc, obj, g, path, &gs);
		return;
	}
	if (!perf_sites_differ(obj, g)) {
		fputs("perf probe -x ", out);
		put_shell_word(out, path);
		fprintf(out, " -a sdt_%s:%s\n", p->note.provider, p->note.name);
		perf_add_event(sc, p->note.provider, p->note.name);
		return;
	}
	if (a != SDT_ARCH_X86_64 && a != SDT_ARCH_I386) {
		fprintf(out,
			"# %s:%s: left out: its sites record different "
			"fields, which one event cannot hold (perf probe -a "
			"stops at \"File exists\"), and sdt-list writes "
			"events per site for x86 only\n",
			p->note.provider, p->note.name);
		return;
	}
	perf_each_site(sc, obj, g, path, NULL);
}

void perf_object(struct out *o, struct object *obj)
{
	struct script *sc = script_object(o, obj, "#");
	char path[4096 + 64];
	const char *why;
	FILE *out;

	if (!sc)
		return;
	out = sc->body;
	fputs("# ", out);
	put_text(out, obj->name);
	if (attach_path(o, obj, OPENER_PERF, path, sizeof(path), &why) < 0) {
		fputs(": left out: ", out);
		put_text(out, why);
		fputc('\n', out);
		return;
	}
	if (!all_printable(path)) {
		fputs(": left out: its path holds bytes that cannot be written "
		      "into a command safely\n",
		      out);
		return;
	}
	fputs("\nperf buildid-cache --add ", out);
	put_shell_word(out, path);
	fputc('\n', out);
	for (size_t g = 0; g < obj->ngroups; g++) {
		if (object_wanted(o->o,
				  &group_probe(obj, &obj->groups[g])->note))
			perf_probe(sc, obj, &obj->groups[g], path);
	}
}

void perf_header(FILE *out, const struct out *o, const struct script *sc)
{
	fputs("# Written by sdt-list --perf.\n# Run these, then: perf record",
	      out);
	for (size_t i = 0; i < sc->nproviders; i++)
		fprintf(out, " -e 'sdt_%s:*'", sc->providers[i]);
	if (o->o->npids == 1)
		fprintf(out, " -p %d", sc->first_pid);
	else if (o->o->npids)
		fputs(" -a", out);
	else
		fputs(" -- PROGRAM ARGS (or -p PID)", out);
	fputs("; perf script\n", out);
}
