/* SPDX-License-Identifier: MIT */
/*
 * sdt-list: every USDT probe of a binary or a live process, and whether
 * each tracer can read it.
 *
 *   sdt-list [--check] [--json] FILE... [PROVIDER:NAME-GLOB...]
 *   sdt-list [--check] [--json] -p PID  [PROVIDER:NAME-GLOB...]
 *
 * Users otherwise read `readelf -n' (raw) or bcc's tplist (needs Python,
 * bcc and root), and neither says whether the argument specs can actually
 * be read. This file is the command line and the two outputs; the probes
 * come from the ELF core, the words from describe.c, the verdicts from
 * consumers.c and the live process from proc.c (see sdt-list.h).
 *
 * Exit status: 0 all listed; 1 --check found a probe some consumer cannot
 * read; 2 some input could not be read (each one named on stderr; the
 * others are still listed) or the command line was wrong.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* PACKAGE_VERSION */
#endif
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sdt-list.h"


#define EXIT_CHECK 1
#define EXIT_INPUT 2

struct opts {
	int check;
	int verbose; /* every site, each argument in words */
	int json;
	char **patterns;
	size_t npatterns;
};

/* What we know about one object being listed. */
struct object {
	const char *name; /* as the user knows it */
	const struct sdt_elf *f;
	const struct proc *proc; /* NULL for a file */
	const struct proc_object *pobj;
};

struct out {
	const struct opts *o;
	int json_first;
	int status;
};

/* ------------------------------------------------------------------ */
/* JSON                                                                */

static void put_json_hex(FILE *out, const char *key, uint64_t v, int valid)
{
	fprintf(out, ",\"%s\":", key);
	if (valid)
		fprintf(out, "\"0x%" PRIx64 "\"", v);
	else
		fputs("null", out);
}

/* ------------------------------------------------------------------ */
/* Grouping sites of the same provider:name                            */

static const struct sdt_elf *sort_f;

static int cmp_sites(const void *a, const void *b)
{
	const struct sdt_probe *pa = &sort_f->probes[*(const size_t *)a];
	const struct sdt_probe *pb = &sort_f->probes[*(const size_t *)b];
	int r = strcmp(pa->note.provider, pb->note.provider);

	if (!r)
		r = strcmp(pa->note.name, pb->note.name);
	if (!r)
		r = *(const size_t *)a < *(const size_t *)b ? -1 : 1;
	return r;
}

struct group {
	size_t first; /* index into the sorted site array */
	size_t count;
	size_t order; /* note index of its first site */
};

static int cmp_groups(const void *a, const void *b)
{
	size_t ia = ((const struct group *)a)->order;
	size_t ib = ((const struct group *)b)->order;

	return ia < ib ? -1 : ia > ib;
}

/*
 * Sites sorted by provider:name (then note order) and groups in the order
 * each provider:name first appears. Returns the number of groups, or -1.
 */
static long group_sites(const struct sdt_elf *f, size_t **sitesp,
			struct group **groupsp)
{
	size_t *sites = malloc((f->nprobes + 1) * sizeof(*sites));
	struct group *groups = malloc((f->nprobes + 1) * sizeof(*groups));
	size_t ng = 0;

	if (!sites || !groups) {
		free(sites);
		free(groups);
		return -1;
	}
	for (size_t i = 0; i < f->nprobes; i++)
		sites[i] = i;
	sort_f = f;
	qsort(sites, f->nprobes, sizeof(*sites), cmp_sites);
	for (size_t i = 0; i < f->nprobes; i++) {
		const struct sdt_note *n = &f->probes[sites[i]].note;
		const struct sdt_note *prev =
			i ? &f->probes[sites[i - 1]].note : NULL;

		if (prev && !strcmp(n->provider, prev->provider) &&
		    !strcmp(n->name, prev->name)) {
			groups[ng - 1].count++;
			continue;
		}
		groups[ng].first = i;
		groups[ng].count = 1;
		groups[ng].order = sites[i];
		ng++;
	}
	qsort(groups, ng, sizeof(*groups), cmp_groups);
	*sitesp = sites;
	*groupsp = groups;
	return (long)ng;
}

static int wanted(const struct opts *o, const struct sdt_note *n)
{
	char full[512];

	if (!o->npatterns)
		return 1;
	snprintf(full, sizeof(full), "%s:%s", n->provider, n->name);
	for (size_t i = 0; i < o->npatterns; i++) {
		if (!fnmatch(o->patterns[i], full, 0))
			return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Per-site facts                                                      */

struct site {
	const struct sdt_probe *p;
	uint64_t addr;
	int has_off, has_sema_off;
	uint64_t off, sema_off;
	const char *section;
	int in_code; /* in executable code: not a stale note */
	/* -p */
	int has_runtime;
	uint64_t runtime, sema_runtime;
	int sema_read; /* 0 ok, else -errno */
	unsigned sema_value;
};

static void site_facts(const struct object *obj, const struct sdt_probe *p,
		       struct site *s)
{
	const struct sdt_elf *f = obj->f;
	uint64_t bias = 0;

	memset(s, 0, sizeof(*s));
	s->p = p;
	s->addr = sdt_probe_addr(f, p);
	s->has_off = sdt_elf_addr_to_offset(f, s->addr, &s->off) == 0;
	if (p->note.semaphore)
		s->has_sema_off = sdt_elf_addr_to_offset(f, p->note.semaphore,
							 &s->sema_off) == 0;
	s->section = sdt_probe_section(f, p);
	s->in_code = sdt_probe_in_code(f, p);
	if (!obj->proc)
		return;
	if (proc_runtime_addr(obj->pobj, f, 0, &bias) < 0) {
		s->sema_read = -ENOENT;
		return;
	}
	s->has_runtime = 1;
	s->runtime = s->addr + bias;
	if (p->note.semaphore) {
		s->sema_runtime = p->note.semaphore + bias;
		s->sema_read = proc_read_u16(obj->proc, &f->target,
					     s->sema_runtime, &s->sema_value);
	}
}

/* Verdicts for every consumer on one site; returns 1 if any refuses. */
static int check_site(const struct sdt_elf *f, const struct sdt_probe *p,
		      int perf_dead, const struct verdict *perf_why,
		      struct verdict v[CONSUMER_COUNT])
{
	int bad = 0;

	for (int c = 0; c < CONSUMER_COUNT; c++) {
		consumer_check((enum consumer)c, &f->target, p->note.args,
			       &v[c]);
		if (c == CONSUMER_PERF && perf_dead && v[c].ok) {
			v[c] = *perf_why;
			v[c].arg = -1;
		}
		bad |= !v[c].ok;
	}
	return bad;
}

/* perf gives up on a whole binary over one bad size: find that probe. */
static int perf_poisoned(const struct sdt_elf *f, struct verdict *why)
{
	for (size_t i = 0; i < f->nprobes; i++) {
		struct verdict v;

		if (consumer_check(CONSUMER_PERF, &f->target,
				   f->probes[i].note.args, &v)) {
			snprintf(why->why, sizeof(why->why),
				 "perf lists no probe of this binary: %.30s:%.30s %.120s",
				 f->probes[i].note.provider,
				 f->probes[i].note.name, v.why);
			why->ok = 0;
			why->arg = -1;
			return 1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Text output                                                         */

static const char *type_name(int type)
{
	switch (type) {
	case 1:
		return "relocatable object";
	case 2:
		return "executable";
	case 3:
		return "shared object or PIE executable";
	default:
		return "ELF file";
	}
}

/* ADDR as a person reads it: 0x401136, or `.text+0x6' in a .o file. */
static void put_addr(FILE *out, const struct sdt_sym_ref *ref, uint64_t addr)
{
	if (!ref->symbol) {
		fprintf(out, "0x%" PRIx64, addr);
		return;
	}
	put_text(out, ref->symbol);
	if (ref->offset || ref->is_section)
		fprintf(out, "%s0x%" PRIx64, ref->offset < 0 ? "-" : "+",
			ref->offset < 0 ? -(uint64_t)ref->offset :
					  (uint64_t)ref->offset);
}

static void put_json_addr(FILE *out, const char *key,
			  const struct sdt_sym_ref *ref)
{
	fprintf(out, ",\"%s\":", key);
	if (!ref->symbol) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	put_addr(out, ref, 0);
	fputc('"', out);
}

static const char stale_why[] =
	"a stale note: its site is in no executable code (the linker dropped the code it marked, or the note is damaged): no tracer can attach there";

static void text_args(FILE *out, const struct sdt_elf *f, const char *spec)
{
	size_t pos = 0, start, len;
	struct arg_desc d;

	for (int n = 0; sdt_arg_split(spec, &pos, &start, &len); n++) {
		describe_arg(&f->target, spec + start, len, &d);
		fprintf(out, "      arg%d: ", n);
		put_text(out, d.words);
		fputc('\n', out);
	}
}

static void text_semaphore(FILE *out, const struct object *obj,
			   const struct site *s)
{
	const struct sdt_note *n = &s->p->note;
	const char *sec;

	if (!n->semaphore && !s->p->sema_ref.symbol) {
		fputs("  semaphore: none\n", out);
		return;
	}
	fputs("  semaphore: ", out);
	put_addr(out, &s->p->sema_ref, n->semaphore);
	sec = sdt_elf_section_at(obj->f, n->semaphore);
	if (sec)
		fprintf(out, " (%s", sec);
	if (s->has_sema_off)
		fprintf(out, "%sfile offset 0x%" PRIx64, sec ? ", " : " (",
			s->sema_off);
	if (sec || s->has_sema_off)
		fputc(')', out);
	if (obj->proc && s->has_runtime) {
		fprintf(out, " at 0x%" PRIx64, s->sema_runtime);
		if (s->sema_read == 0)
			fprintf(out, " = %u%s", s->sema_value,
				s->sema_value ? " (a tracer is attached)" :
						" (no tracer attached)");
		else
			fprintf(out, " = ? (cannot read: %s)",
				strerror(-s->sema_read));
	}
	fputc('\n', out);
}

static void text_verdicts(FILE *out, const char *arch,
			  const struct verdict v[CONSUMER_COUNT])
{
	fprintf(out, "  readable by (%s):", arch);
	for (int c = 0; c < CONSUMER_COUNT; c++)
		fprintf(out, "%s %s %s", c ? "," : "",
			consumer_name((enum consumer)c), v[c].ok ? "yes" : "NO");
	fputc('\n', out);
	for (int c = 0; c < CONSUMER_COUNT; c++) {
		if (v[c].ok)
			continue;
		fprintf(out, "    %s: ", consumer_name((enum consumer)c));
		put_text(out, v[c].why);
		fputc('\n', out);
	}
}

static int text_group(FILE *out, struct out *o, const struct object *obj,
		      const size_t *sites, const struct group *g,
		      int perf_dead, const struct verdict *perf_why)
{
	const struct sdt_elf *f = obj->f;
	const struct sdt_probe *first = &f->probes[sites[g->first]];
	struct verdict worst[CONSUMER_COUNT];
	const char *prev_args = NULL;
	int bad = 0;
	struct site s;

	put_text(out, first->note.provider);
	fputc(':', out);
	put_text(out, first->note.name);
	if (g->count > 1)
		fprintf(out, " (%zu sites)", g->count);
	fputc('\n', out);
	for (int c = 0; c < CONSUMER_COUNT; c++)
		worst[c].ok = 1;
	for (size_t i = 0; i < g->count; i++) {
		const struct sdt_probe *p = &f->probes[sites[g->first + i]];
		struct verdict v[CONSUMER_COUNT];

		site_facts(obj, p, &s);
		fputs("  at ", out);
		put_addr(out, &p->pc_ref, s.addr);
		if (s.section && !p->pc_ref.symbol)
			fprintf(out, " (%s", s.section);
		if (s.has_off)
			fprintf(out, "%sfile offset 0x%" PRIx64,
				s.section ? ", " : " (", s.off);
		if ((s.section && !p->pc_ref.symbol) || s.has_off)
			fputc(')', out);
		if (s.has_runtime)
			fprintf(out, " at run time 0x%" PRIx64, s.runtime);
		if (!s.has_off && f->type != 1) {
			fputs(" OUTSIDE every loadable segment: no tracer can attach",
			      out);
			o->status = EXIT_INPUT;
		}
		fputs(": ", out);
		put_text(out, *p->note.args ? p->note.args : "(no arguments)");
		if (prev_args && !strcmp(prev_args, p->note.args)) {
			fputs(" (as above)\n", out);
		} else {
			fputc('\n', out);
			text_args(out, f, p->note.args);
		}
		prev_args = p->note.args;
		if (o->o->check && !s.in_code) {
			fprintf(out, "    NOT IN CODE: %s\n", stale_why);
			bad = 1;
		}
		if (o->o->check && check_site(f, p, perf_dead, perf_why, v)) {
			bad = 1;
			for (int c = 0; c < CONSUMER_COUNT; c++) {
				if (!v[c].ok && worst[c].ok)
					worst[c] = v[c];
			}
		}
	}
	/* One semaphore per provider:name; show the first site's. */
	site_facts(obj, first, &s);
	text_semaphore(out, obj, &s);
	if (o->o->check) {
		const char *arch = consumer_arch(&f->target);
		text_verdicts(out, arch ? arch : "unknown", worst);
	}
	return bad;
}

/* ------------------------------------------------------------------ */
/* JSON output                                                         */

static void json_args(FILE *out, const struct sdt_elf *f, const char *spec)
{
	size_t pos = 0, start, len;
	struct arg_desc d;

	fputs(",\"arguments\":[", out);
	for (int n = 0; sdt_arg_split(spec, &pos, &start, &len); n++) {
		describe_arg(&f->target, spec + start, len, &d);
		fprintf(out, "%s{\"index\":%d,\"spec\":", n ? "," : "", n);
		put_json_str(out, d.spec);
		if (d.has_size)
			fprintf(out, ",\"size\":%d,\"signed\":%s,\"float\":%s",
				abs(d.size), d.size < 0 ? "true" : "false",
				d.is_float ? "true" : "false");
		else
			fputs(",\"size\":null,\"signed\":null,\"float\":false",
			      out);
		fputs(",\"kind\":", out);
		put_json_str(out, d.kind);
		fputs(",\"description\":", out);
		put_json_str(out, d.words);
		fprintf(out, ",\"portable\":%s", d.strict_ok ? "true" : "false");
		if (!d.strict_ok) {
			fputs(",\"reason\":", out);
			put_json_str(out, d.strict_why);
		}
		fputc('}', out);
	}
	fputc(']', out);
}

static int json_site(FILE *out, struct out *o, const struct object *obj,
		     const struct sdt_probe *p, int perf_dead,
		     const struct verdict *perf_why)
{
	const struct sdt_elf *f = obj->f;
	const char *arch = consumer_arch(&f->target);
	struct site s;
	int bad = 0;

	site_facts(obj, p, &s);
	fputs(o->json_first ? "\n" : ",\n", out);
	o->json_first = 0;
	fputs("{\"file\":", out);
	put_json_str(out, obj->name);
	if (obj->proc)
		fprintf(out, ",\"pid\":%d", obj->proc->pid);
	fputs(",\"arch\":", out);
	put_json_str(out, arch ? arch : sdt_target_name(&f->target));
	fputs(",\"provider\":", out);
	put_json_str(out, p->note.provider);
	fputs(",\"name\":", out);
	put_json_str(out, p->note.name);
	put_json_hex(out, "address", s.addr, 1);
	put_json_hex(out, "note_pc", p->note.pc, 1);
	put_json_hex(out, "base", p->note.base, 1);
	put_json_hex(out, "semaphore", p->note.semaphore, 1);
	put_json_hex(out, "file_offset", s.off, s.has_off);
	put_json_hex(out, "semaphore_offset", s.sema_off, s.has_sema_off);
	put_json_addr(out, "location", &p->pc_ref);
	put_json_addr(out, "semaphore_symbol", &p->sema_ref);
	fprintf(out, ",\"in_code\":%s", s.in_code ? "true" : "false");
	fputs(",\"section\":", out);
	if (s.section)
		put_json_str(out, s.section);
	else
		fputs("null", out);
	if (obj->proc) {
		put_json_hex(out, "runtime_address", s.runtime, s.has_runtime);
		put_json_hex(out, "semaphore_runtime_address", s.sema_runtime,
			     s.has_runtime && p->note.semaphore);
		if (p->note.semaphore && s.has_runtime && s.sema_read == 0)
			fprintf(out, ",\"semaphore_value\":%u", s.sema_value);
		else
			fputs(",\"semaphore_value\":null", out);
	}
	if (!s.has_off && f->type != 1)
		o->status = EXIT_INPUT;
	fputs(",\"args\":", out);
	put_json_str(out, p->note.args);
	json_args(out, f, p->note.args);
	if (o->o->check) {
		struct verdict v[CONSUMER_COUNT];

		bad = check_site(f, p, perf_dead, perf_why, v) || !s.in_code;
		if (!s.in_code) {
			fputs(",\"stale\":", out);
			put_json_str(out, stale_why);
		}
		fputs(",\"check\":{", out);
		for (int c = 0; c < CONSUMER_COUNT; c++) {
			fprintf(out, "%s\"%s\":{\"ok\":%s", c ? "," : "",
				consumer_name((enum consumer)c),
				v[c].ok ? "true" : "false");
			if (!v[c].ok) {
				if (v[c].arg >= 0)
					fprintf(out, ",\"argument\":%d",
						v[c].arg);
				fputs(",\"reason\":", out);
				put_json_str(out, v[c].why);
			}
			fputc('}', out);
		}
		fputc('}', out);
	}
	fputc('}', out);
	return bad;
}

/* ------------------------------------------------------------------ */
/* One object                                                          */

static void list_object(struct out *o, const struct object *obj)
{
	const struct sdt_elf *f = obj->f;
	struct verdict perf_why = { 0, -1, "" };
	int perf_dead = 0, bad = 0;
	size_t *sites = NULL, shown = 0;
	struct group *groups = NULL;
	long ng;

	if (o->o->check)
		perf_dead = perf_poisoned(f, &perf_why);
	if (o->o->json) {
		for (size_t i = 0; i < f->nprobes; i++) {
			if (wanted(o->o, &f->probes[i].note))
				bad |= json_site(stdout, o, obj, &f->probes[i],
						 perf_dead, &perf_why);
		}
		goto done;
	}
	ng = group_sites(f, &sites, &groups);
	if (ng < 0) {
		fprintf(stderr, "sdt-list: %s: out of memory\n", obj->name);
		o->status = EXIT_INPUT;
		return;
	}
	for (long g = 0; g < ng; g++) {
		if (wanted(o->o, &f->probes[sites[groups[g].first]].note))
			shown += groups[g].count;
	}
	if (obj->proc) {
		uint64_t bias = 0;
		int have = f->nprobes &&
			   proc_runtime_addr(obj->pobj, f, 0, &bias) == 0;

		fputs("\n", stdout);
		put_text(stdout, obj->name);
		printf(": %s %s", sdt_target_name(&f->target),
		       type_name(f->type));
		if (obj->pobj->is_memfd)
			fputs(" in a memfd", stdout);
		if (have)
			printf(", load bias 0x%" PRIx64, bias);
	} else {
		put_text(stdout, obj->name);
		printf(": %s %s", sdt_target_name(&f->target),
		       type_name(f->type));
	}
	printf(", %zu probe site%s\n", shown, shown == 1 ? "" : "s");
	for (long g = 0; g < ng; g++) {
		if (wanted(o->o, &f->probes[sites[groups[g].first]].note))
			bad |= text_group(stdout, o, obj, sites, &groups[g],
					  perf_dead, &perf_why);
	}
	free(sites);
	free(groups);
done:
	if (bad && o->status == 0)
		o->status = EXIT_CHECK;
}

static void report_warning(struct out *o, const char *name,
			   const struct sdt_elf *f)
{
	if (!f->warning[0])
		return;
	fprintf(stderr, "sdt-list: %s: %s\n", name, f->warning);
	o->status = EXIT_INPUT;
}

static void list_file(struct out *o, const char *path)
{
	struct sdt_elf f;
	struct object obj = { path, &f, NULL, NULL };
	char err[256];

	if (sdt_elf_open(&f, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "sdt-list: %s: %s\n", path, err);
		o->status = EXIT_INPUT;
		return;
	}
	report_warning(o, path, &f);
	list_object(o, &obj);
	sdt_elf_close(&f);
}

static void list_pid(struct out *o, int pid)
{
	struct proc p;
	char err[512];
	size_t with_probes = 0;

	if (proc_open(&p, pid, err, sizeof(err)) < 0) {
		fprintf(stderr, "sdt-list: pid %d: %s\n", pid, err);
		o->status = EXIT_INPUT;
		return;
	}
	if (!o->o->json) {
		printf("pid %d: ", pid);
		put_text(stdout, p.exe[0] ? p.exe : "(executable unknown)");
		putchar('\n');
	}
	if (p.mem_fd < 0)
		fprintf(stderr,
			"sdt-list: pid %d: cannot open /proc/%d/mem: semaphore values not shown (run as root or as the process's owner)\n",
			pid, pid);
	for (size_t i = 0; i < p.nobjs; i++) {
		struct proc_object *po = &p.objs[i];
		struct sdt_elf f;
		struct object obj = { po->path, &f, &p, po };
		char e[256];

		if (po->fd < 0)
			continue; /* not ours to read: nothing to list */
		if (sdt_elf_open_fd(&f, po->fd, e, sizeof(e)) < 0)
			continue; /* a mapped data file, not ELF */
		report_warning(o, po->path, &f);
		if (f.nprobes) {
			with_probes++;
			list_object(o, &obj);
		}
		sdt_elf_close(&f);
	}
	if (!o->o->json && !with_probes)
		printf("no mapped object of pid %d has probes\n", pid);
	proc_close(&p);
}

/* ------------------------------------------------------------------ */

static void usage(FILE *out)
{
	fputs("usage: sdt-list [--check] [--json] FILE... [PROVIDER:NAME-GLOB...]\n"
	      "       sdt-list [--check] [--json] -p PID [PROVIDER:NAME-GLOB...]\n"
	      "List the USDT probes (stapsdt notes) of executables, shared objects or a\n"
	      "running process, each argument in words.\n"
	      "  -p, --pid PID  the process's executable, libraries and memfd providers,\n"
	      "                 with each semaphore's current value\n"
	      "  -c, --check    say which tracers (libbpf, bcc/bpftrace, gdb, perf) read\n"
	      "                 every argument, and why not; exit 1 if one cannot\n"
	      "  -v, --verbose  every site of each probe, each argument in words\n"
	      "  -j, --json     one JSON object per probe site\n"
	      "  -h, --help     this text\n"
	      "  -V, --version  the version of sdtkit this is\n"
	      "An argument that names no file and holds a `:' is a glob on PROVIDER:NAME.\n"
	      "Exit: 0 ok, 1 --check found unreadable probes, 2 an input could not be read.\n",
	      out);
}

static int is_pattern(const char *arg)
{
	struct stat st;

	return strchr(arg, ':') && stat(arg, &st) != 0;
}

static int parse_pid(const char *s, int *pid)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v <= 0 || v > 0x7fffffff)
		return -1;
	*pid = (int)v;
	return 0;
}

int main(int argc, char **argv)
{
	struct opts opt = { 0 };
	struct out o = { &opt, 1, 0 };
	int *pids = calloc((size_t)argc, sizeof(int));
	char **files = calloc((size_t)argc, sizeof(char *));
	size_t npids = 0, nfiles = 0;
	int only_args = 0;

	opt.patterns = calloc((size_t)argc, sizeof(char *));
	if (!pids || !files || !opt.patterns) {
		fputs("sdt-list: out of memory\n", stderr);
		return EXIT_INPUT;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!only_args && a[0] == '-' && a[1]) {
			if (!strcmp(a, "--")) {
				only_args = 1;
			} else if (!strcmp(a, "-c") || !strcmp(a, "--check")) {
				opt.check = 1;
			} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
				opt.verbose = 1;
			} else if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
				opt.json = 1;
			} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
				usage(stdout);
				return 0;
			} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
				printf("sdt-list (sdtkit) %s\n", PACKAGE_VERSION);
				return 0;
			} else if (!strcmp(a, "-p") || !strcmp(a, "--pid") ||
				   !strncmp(a, "--pid=", 6) ||
				   (a[1] == 'p' && a[2])) {
				const char *v = a[1] == 'p' && a[2] ? a + 2 :
						!strncmp(a, "--pid=", 6) ? a + 6 :
						i + 1 < argc ? argv[++i] : NULL;
				if (!v || parse_pid(v, &pids[npids]) < 0) {
					fprintf(stderr,
						"sdt-list: -p needs a process id, got `%s'\n",
						v ? v : "");
					return EXIT_INPUT;
				}
				npids++;
			} else {
				fprintf(stderr, "sdt-list: unknown option `%s'\n",
					a);
				usage(stderr);
				return EXIT_INPUT;
			}
		} else if (is_pattern(a)) {
			opt.patterns[opt.npatterns++] = argv[i];
		} else {
			files[nfiles++] = argv[i];
		}
	}
	if (!nfiles && !npids) {
		usage(stderr);
		return EXIT_INPUT;
	}
	if (opt.json)
		fputs("[", stdout);
	for (size_t i = 0; i < nfiles; i++)
		list_file(&o, files[i]);
	for (size_t i = 0; i < npids; i++)
		list_pid(&o, pids[i]);
	if (opt.json)
		fputs("\n]\n", stdout);
	free(pids);
	free(files);
	free(opt.patterns);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "sdt-list: writing the listing: %s\n",
			strerror(errno));
		return EXIT_INPUT;
	}
	return o.status;
}
