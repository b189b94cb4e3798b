/* SPDX-License-Identifier: MIT */
/*
 * The records of sdt-list's inventories (DIR..., --all-processes): one per
 * object that has probes, whoever found it.
 *
 * An operator asks which programs carry probes and which processes run
 * them; an agent wants the same as data it can key on. So a record is an
 * object (a build-id, else one file), its probes with their signatures,
 * sites and semaphores, the files that hold it and the processes that map
 * it. The text listing reuses the per-object outputs (summary, -v,
 * --check, --bpftrace, --perf) and adds the processes and the totals; the
 * JSON one is a document of records whose shape docs/inventory.schema.json
 * fixes: fields are only ever added to it.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "inventory.h"
#include "scripts.h"

/* ------------------------------------------------------------------ */
/* Records                                                             */

/* Four bytes tell an ELF file: most files in a tree are not one. */
int inv_elf_magic(int fd)
{
	unsigned char m[4];

	return pread(fd, m, 4, 0) == 4 && !memcmp(m, ELFMAG, SELFMAG);
}

/* F has a probe the command line's globs select (any, without globs). */
static int any_wanted(const struct out *o, const struct sdt_elf *f)
{
	for (size_t i = 0; i < f->nprobes; i++) {
		if (object_wanted(o->o, &f->probes[i].note))
			return 1;
	}
	return 0;
}

int inv_record_read(struct inv_record *rec, const struct out *o, int fd,
		    const char *name, char *err, size_t errlen)
{
	struct stat st;
	int r;

	memset(rec, 0, sizeof(*rec));
	rec->fd = -1;
	if (errlen)
		err[0] = '\0';
	if (!inv_elf_magic(fd)) {
		close(fd);
		return 0;
	}
	r = sdt_elf_open_fd(&rec->f, fd, err, errlen);
	rec->is_elf = r != -ENOEXEC;
	if (r == 0)
		globs_see_file(o->globs, o->o, &rec->f);
	if (r == 0 && rec->f.warning[0])
		snprintf(err, errlen, "%s", rec->f.warning);
	if (r < 0 || !any_wanted(o, &rec->f) || fstat(fd, &st) < 0) {
		if (r == 0)
			sdt_elf_close(&rec->f);
		close(fd);
		return r == -ENOEXEC ? 0 : r;
	}
	rec->fd = fd;
	rec->size = (uint64_t)st.st_size;
	r = sdt_elf_build_id(&rec->f, rec->build_id, sizeof(rec->build_id));
	if (r == -EIO) {
		inv_record_free(rec);
		snprintf(err, errlen, "cannot read its build-id note");
		return -EIO;
	}
	rec->build_id_len = r > 0 ? r : 0;
	if (inv_add_file(rec, st.st_dev, st.st_ino, name) < 0)
		goto nomem;
	rec->obj.name = rec->files[0].path;
	rec->obj.f = &rec->f;
	snprintf(rec->obj.attach, sizeof(rec->obj.attach), "%s", name);
	if (object_init(&rec->obj, o->o->check) < 0)
		goto nomem;
	return 1;
nomem:
	inv_record_free(rec);
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
}

static void proc_free(struct inv_proc *p)
{
	free(p->exe);
	free(p->path);
	free(p->cgroup);
	free(p->mnt_ns);
	free(p->root);
	free(p->semaphore);
}

void inv_record_free(struct inv_record *rec)
{
	object_fini(&rec->obj);
	sdt_elf_close(&rec->f);
	if (rec->fd >= 0)
		close(rec->fd);
	for (size_t i = 0; i < rec->nfiles; i++) {
		free(rec->files[i].path);
		free(rec->files[i].no_attach);
	}
	for (size_t i = 0; i < rec->nprocs; i++)
		proc_free(&rec->procs[i]);
	free(rec->files);
	free(rec->procs);
	memset(rec, 0, sizeof(*rec));
	rec->fd = -1;
}

int inv_add_file(struct inv_record *rec, dev_t dev, ino_t ino, const char *path)
{
	struct inv_file *n =
		realloc(rec->files, (rec->nfiles + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	rec->files = n;
	n = &rec->files[rec->nfiles];
	n->dev = dev;
	n->ino = ino;
	n->no_attach = NULL;
	n->path = strdup(path);
	if (!n->path)
		return -ENOMEM;
	rec->nfiles++;
	return 0;
}

/* REC takes P's strings and its semaphore array. */
int inv_add_proc(struct inv_record *rec, const struct inv_proc *p)
{
	struct inv_proc *n =
		realloc(rec->procs, (rec->nprocs + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	rec->procs = n;
	rec->procs[rec->nprocs++] = *p;
	return 0;
}

void inv_build_id_hex(const struct inv_record *rec, char *buf)
{
	for (int i = 0; i < rec->build_id_len; i++)
		sprintf(buf + 2 * i, "%02x", rec->build_id[i]);
	buf[2 * rec->build_id_len] = 0;
}

static int group_wanted(const struct out *o, const struct object *obj, size_t g)
{
	return object_wanted(o->o, &group_probe(obj, &obj->groups[g])->note);
}

void inv_count(const struct out *o, const struct inv_record *rec,
	       struct inv_totals *t)
{
	size_t probes = 0;

	for (size_t g = 0; g < rec->obj.ngroups; g++) {
		if (!group_wanted(o, &rec->obj, g))
			continue;
		probes++;
		t->sites += rec->obj.groups[g].count;
	}
	t->probes += probes;
	t->objects += probes > 0;
}

/* ------------------------------------------------------------------ */
/* Text                                                                */

/* "sem shop:order__start=1 http:req=0" for the wanted semaphores. */
static void text_semaphores(FILE *out, const struct out *o,
			    const struct inv_record *rec,
			    const struct inv_proc *p)
{
	const struct object *obj = &rec->obj;
	const char *lead = ": semaphores ";

	for (size_t g = 0; g < obj->ngroups; g++) {
		if (p->semaphore[g] == -2 || !group_wanted(o, obj, g))
			continue;
		fputs(lead, out);
		put_probe_name(out, group_probe(obj, &obj->groups[g]));
		if (p->semaphore[g] >= 0)
			fprintf(out, "=%ld", p->semaphore[g]);
		else
			fputs("=?", out);
		lead = " ";
	}
}

/* One line per process: where it is, and its semaphores now. */
static void text_procs(FILE *out, const struct out *o,
		       const struct inv_record *rec)
{
	if (rec->nfiles > 1) {
		for (size_t i = 1; i < rec->nfiles; i++) {
			fputs("  also ", out);
			put_text(out, rec->files[i].path);
			fputs(" (the same build-id)\n", out);
		}
	}
	for (size_t i = 0; i < rec->nprocs; i++) {
		const struct inv_proc *p = &rec->procs[i];

		fprintf(out, "  pid %d ", p->pid);
		put_text(out, p->exe ? p->exe : "?");
		fputs(" cgroup ", out);
		put_text(out, p->cgroup ? p->cgroup : "?");
		if (p->mnt_ns) {
			fputs(" mount-ns ", out);
			put_text(out, p->mnt_ns);
		}
		if (p->root) {
			fputs(" root ", out);
			put_text(out, p->root);
		}
		if (p->mnt_ns || p->root ||
		    strcmp(p->path, rec->files[p->file].path)) {
			fputs(" as ", out);
			put_text(out, p->path);
		}
		text_semaphores(out, o, rec, p);
		fputc('\n', out);
	}
}

/* --bpftrace, --perf: one block per file, with the processes it traces. */
static void script_record(struct out *o, struct inv_record *rec)
{
	struct script *sc;

	for (size_t i = 0; i < rec->nfiles; i++) {
		const char *lead = o->o->format == FMT_PERF ? "#" : "//";

		const struct inv_file *f = &rec->files[i];

		/*
		 * A walk of a relative DIR names its files relative to our
		 * directory; a tracer started elsewhere needs a path that
		 * holds there, as a FILE argument gets (list_file()).
		 */
		if (f->no_attach)
			rec->obj.attach[0] = '\0';
		else if (f->path[0] == '/' ||
			 !realpath(f->path, rec->obj.attach))
			snprintf(rec->obj.attach, sizeof(rec->obj.attach), "%s",
				 f->path);
		rec->obj.name = f->path;
		/* -a: a path tracers follow their own ways; check each */
		rec->obj.has_ident = rec->nprocs > 0;
		rec->obj.dev = f->dev;
		rec->obj.ino = f->ino;
		rec->obj.no_attach = f->no_attach;
		if (o->o->format == FMT_PERF)
			perf_object(o, &rec->obj);
		else
			bpftrace_object(o, &rec->obj);
		sc = script_of(o);
		if (!sc || !rec->nprocs)
			continue;
		fprintf(sc->body, "%s pids mapping it:", lead);
		for (size_t j = 0; j < rec->nprocs; j++) {
			if (rec->procs[j].file == i)
				fprintf(sc->body, " %d", rec->procs[j].pid);
		}
		fputc('\n', sc->body);
	}
	rec->obj.name = rec->files[0].path;
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */

static const char *object_type(const struct sdt_elf *f)
{
	if (f->type == ET_REL)
		return "relocatable";
	if (f->type == ET_EXEC)
		return "executable";
	return sdt_elf_is_program(f) ? "pie-executable" : "shared-object";
}

static void json_arguments(FILE *out, const struct signature *sig)
{
	fputs(",\"arguments\":[", out);
	for (unsigned i = 0; i < sig->nargs; i++) {
		const struct sig_arg *a = &sig->args[i];

		fputs(i ? ",{\"type\":" : "{\"type\":", out);
		put_json_str(out, a->type);
		fputs(",\"name\":", out);
		if (a->name[0])
			put_json_str(out, a->name);
		else
			fputs("null", out);
		if (a->size)
			fprintf(out, ",\"size\":%d", a->size);
		else
			fputs(",\"size\":null", out);
		fprintf(out, ",\"signed\":%s}",
			a->is_signed ? "true" : "false");
	}
	fprintf(out, "],\"types_from\":\"%s\"", sig->rec ? "record" : "spec");
}

static void json_sites(FILE *out, const struct object *obj,
		       const struct group *g)
{
	fputs(",\"sites\":[", out);
	for (size_t i = 0; i < g->count; i++) {
		struct site s;

		site_facts(obj, &obj->f->probes[obj->sites[g->first + i]], &s);
		fputs(i ? ",{" : "{", out);
		fprintf(out, "\"address\":\"0x%" PRIx64 "\"", s.addr);
		put_json_hex(out, "file_offset", s.off, s.has_off);
		fprintf(out, ",\"in_code\":%s}", s.in_code ? "true" : "false");
	}
	fputc(']', out);
}

/* --check: each consumer's verdict over every site of the probe. */
static void json_check(FILE *out, struct object *obj, const struct group *g)
{
	const struct verdict *worst[CONSUMER_COUNT];

	group_worst(obj, g, worst);
	fputs(",\"check\":{", out);
	for (int c = 0; c < CONSUMER_COUNT; c++) {
		fprintf(out, "%s\"%s\":{\"ok\":%s", c ? "," : "",
			consumer_name((enum consumer)c),
			worst[c] ? "false" : "true");
		if (worst[c]) {
			fputs(",\"reason\":", out);
			put_json_str(out, worst[c]->why);
		}
		fputc('}', out);
	}
	fputc('}', out);
}

static void json_probe(FILE *out, const struct out *o, struct object *obj,
		       const struct group *g, int first)
{
	const struct sdt_probe *p = group_probe(obj, g);
	struct group_sig gs;
	struct site s;

	group_signature(obj, g, &gs);
	site_facts(obj, p, &s);
	fputs(first ? "\n  {\"provider\":" : ",\n  {\"provider\":", out);
	put_json_str(out, p->note.provider);
	fputs(",\"name\":", out);
	put_json_str(out, p->note.name);
	json_arguments(out, &gs.sig);
	put_json_hex(out, "semaphore", p->note.semaphore,
		     p->note.semaphore != 0);
	put_json_hex(out, "semaphore_offset", s.sema_off, s.has_sema_off);
	json_sites(out, obj, g);
	if (o->o->check)
		json_check(out, obj, g);
	fputc('}', out);
}

static void json_str_or_null(FILE *out, const char *key, const char *s)
{
	fprintf(out, ",\"%s\":", key);
	if (s)
		put_json_str(out, s);
	else
		fputs("null", out);
}

static void json_path_or_null(FILE *out, const char *key, const char *s)
{
	if (s)
		put_json_path(out, key, s);
	else
		fprintf(out, ",\"%s\":null", key);
}

static void json_proc(FILE *out, const struct out *o,
		      const struct inv_record *rec, const struct inv_proc *p)
{
	const struct object *obj = &rec->obj;
	int first = 1;

	fprintf(out, "\n  {\"pid\":%d", p->pid);
	json_path_or_null(out, "exe", p->exe);
	json_path_or_null(out, "path", p->path);
	fprintf(out, ",\"file\":%zu", p->file);
	json_path_or_null(out, "cgroup", p->cgroup);
	json_str_or_null(out, "mount_namespace", p->mnt_ns);
	json_path_or_null(out, "root", p->root);
	fputs(",\"semaphores\":[", out);
	for (size_t g = 0; g < obj->ngroups; g++) {
		if (p->semaphore[g] == -2 || !group_wanted(o, obj, g))
			continue;
		fputs(first ? "{\"provider\":" : ",{\"provider\":", out);
		first = 0;
		put_json_str(out,
			     group_probe(obj, &obj->groups[g])->note.provider);
		fputs(",\"name\":", out);
		put_json_str(out, group_probe(obj, &obj->groups[g])->note.name);
		if (p->semaphore[g] >= 0)
			fprintf(out, ",\"value\":%ld}", p->semaphore[g]);
		else
			fputs(",\"value\":null}", out);
	}
	fputs("]}", out);
}

/* "paths_bytes": beside "paths" when one is not UTF-8, null for the rest. */
/* A file no path reaches is "" in paths, so it has no bytes either. */
static int path_is_text(const struct inv_file *f)
{
	return f->no_attach || is_utf8(f->path);
}

static void json_paths_bytes(FILE *out, const struct inv_record *rec)
{
	size_t i = 0;

	while (i < rec->nfiles && path_is_text(&rec->files[i]))
		i++;
	if (i == rec->nfiles)
		return;
	fputs(",\"paths_bytes\":[", out);
	for (i = 0; i < rec->nfiles; i++) {
		if (i)
			fputc(',', out);
		if (path_is_text(&rec->files[i]))
			fputs("null", out);
		else
			put_json_bytes(out, rec->files[i].path);
	}
	fputc(']', out);
}

static void json_files(FILE *out, const struct inv_record *rec)
{
	fputs(",\"paths\":[", out);
	for (size_t i = 0; i < rec->nfiles; i++) {
		if (i)
			fputc(',', out);
		put_json_str(out,
			     rec->files[i].no_attach ? "" : rec->files[i].path);
	}
	fputc(']', out);
	json_paths_bytes(out, rec);
	fputs(",\"files\":[", out);
	for (size_t i = 0; i < rec->nfiles; i++) {
		const struct inv_file *f = &rec->files[i];

		fputs(i ? ",{\"path\":" : "{\"path\":", out);
		put_json_str(out, f->path);
		put_json_exact(out, "path", f->path);
		if (f->no_attach) {
			fputs(",\"no_attach\":", out);
			put_json_str(out, f->no_attach);
		}
		fprintf(out, ",\"device\":\"%u:%u\",\"inode\":%llu}",
			major(f->dev), minor(f->dev),
			(unsigned long long)f->ino);
	}
	fputc(']', out);
}

static void json_record(struct out *o, struct inv_record *rec)
{
	const char *arch = consumer_arch(&rec->f.target);
	char id[2 * INV_BUILD_ID_MAX + 1];
	FILE *out = o->f;
	int first = 1;

	inv_build_id_hex(rec, id);
	fputs(o->json_first ? "\n{\"build_id\":" : ",\n{\"build_id\":", out);
	o->json_first = 0;
	if (id[0])
		fprintf(out, "\"%s\"", id);
	else
		fputs("null", out);
	json_files(out, rec);
	fprintf(out, ",\"size\":%" PRIu64 ",\"arch\":", rec->size);
	put_json_str(out, arch ? arch : sdt_target_name(&rec->f.target));
	fprintf(out, ",\"type\":\"%s\",\"probes\":[", object_type(&rec->f));
	for (size_t g = 0; g < rec->obj.ngroups; g++) {
		if (!group_wanted(o, &rec->obj, g))
			continue;
		json_probe(out, o, &rec->obj, &rec->obj.groups[g], first);
		first = 0;
	}
	fputs("],\"processes\":[", out);
	for (size_t i = 0; i < rec->nprocs; i++) {
		if (i)
			fputc(',', out);
		json_proc(out, o, rec, &rec->procs[i]);
	}
	fputs("]}", out);
}

/* ------------------------------------------------------------------ */
/* The run                                                             */

void inv_begin(struct out *o)
{
	if (o->o->format == FMT_JSON)
		fputs("{\"inventory\":1,\"objects\":[", o->f);
	layout_bt_begin(o);
}

static void inv_record_body(struct out *o, struct inv_record *rec)
{
	switch (o->o->format) {
	case FMT_JSON:
		json_record(o, rec);
		return;
	case FMT_BPFTRACE:
	case FMT_PERF:
		script_record(o, rec);
		return;
	case FMT_VERBOSE:
		verbose_object(o, &rec->obj);
		break;
	default:
		summary_object(o, &rec->obj);
	}
	text_procs(o->f, o, rec);
}

void inv_record_out(struct out *o, struct inv_record *rec)
{
	struct inv_totals t = { 0 };

	inv_count(o, rec, &t);
	if (!t.objects)
		return; /* no probe the globs select */
	rec->obj.no_attach = rec->files[0].no_attach;
	inv_record_body(o, rec);
	object_said_oom(o, &rec->obj);
}

static void text_totals(FILE *out, const struct inv_totals *t, int host)
{
	if (host)
		fprintf(out,
			"%zu processes read (%zu not readable, %zu gone "
			"during the scan), %zu mapped objects read, ",
			t->processes, t->unreadable, t->gone, t->elves);
	else
		fprintf(out, "%zu files read (%zu ELF), ", t->files, t->elves);
	fprintf(out, "%zu objects with probes, %zu probes, %zu sites\n",
		t->objects, t->probes, t->sites);
}

static void json_totals(FILE *out, const struct inv_totals *t, int host)
{
	fprintf(out, "\n],\"mode\":\"%s\",\"totals\":{",
		host ? "processes" : "files");
	if (host)
		fprintf(out,
			"\"processes\":%zu,\"unreadable\":%zu,\"gone\":%zu,",
			t->processes, t->unreadable, t->gone);
	fprintf(out,
		"\"files\":%zu,\"elf\":%zu,\"objects\":%zu,\"probes\":%zu,"
		"\"sites\":%zu}}\n",
		t->files, t->elves, t->objects, t->probes, t->sites);
}

void inv_end(struct out *o, const struct inv_totals *t, int host)
{
	if (o->o->format == FMT_JSON)
		json_totals(o->f, t, host);
	if (script_end(o) < 0) {
		fputs("sdt-list: out of memory\n", stderr);
		o->status = EXIT_INPUT;
	}
	layout_bt_end(o);
	if (o->o->format == FMT_SUMMARY || o->o->format == FMT_VERBOSE)
		text_totals(o->f, t, host);
}
