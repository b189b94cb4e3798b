/* SPDX-License-Identifier: MIT */
/*
 * One side of a comparison: the objects with probes that a file or a live
 * process holds, each open and grouped at once.
 *
 * --diff compares two of these, --script checks a program against one.
 * The listing modes walk their inputs one object at a time; a comparison
 * needs every object of a side open together, and a name to pair each
 * with its counterpart on the other side. That name is the SONAME when
 * the object has one (libfoo.so.1 in both releases, whatever the files
 * are called: libfoo.so.1.2.0 and libfoo.so.1.3.1), else "the program"
 * for a process's executable, else the file's base name.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "contract.h"

/*
 * A cleared object in slot N, the one after the kept ones: each is
 * allocated alone, since an open object points into itself. A slot not
 * kept (no probes) is reused by the next call and freed by side_close().
 */
static struct side_object *side_grow(struct side *s)
{
	struct side_object **v;

	if (s->n == s->slots) {
		v = realloc(s->objs, (s->slots + 1) * sizeof(*v));
		if (!v)
			return NULL;
		s->objs = v;
		v[s->slots] = malloc(sizeof(**v));
		if (!v[s->slots])
			return NULL;
		s->slots++;
	}
	memset(s->objs[s->n], 0, sizeof(*s->objs[s->n]));
	return s->objs[s->n];
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The object is open in SO->f: name it, group it, keep it. */
static int side_keep(struct side *s, struct side_object *so, const char *name,
		     int is_exe)
{
	int r;

	so->obj.name = so->name;
	so->obj.f = &so->f;
	snprintf(so->name, sizeof(so->name), "%s", name);
	if (sdt_elf_soname(&so->f, so->soname, sizeof(so->soname)) < 0)
		so->soname[0] = '\0';
	if (so->soname[0])
		snprintf(so->key, sizeof(so->key), "%s", so->soname);
	else if (is_exe)
		snprintf(so->key, sizeof(so->key), "(program)");
	else
		snprintf(so->key, sizeof(so->key), "%s", base_name(name));
	r = object_init(&so->obj, 0);
	if (r < 0) {
		object_fini(&so->obj);
		sdt_elf_close(&so->f);
		return r;
	}
	s->n++;
	return 0;
}

int side_open_file(struct side *s, const char *path, char *err, size_t len)
{
	struct side_object *so;
	int r;

	memset(s, 0, sizeof(*s));
	s->pid = 0;
	snprintf(s->name, sizeof(s->name), "%s", path);
	so = side_grow(s);
	if (!so) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	r = sdt_elf_open(&so->f, path, err, len);
	if (r < 0)
		return r;
	if (!realpath(path, so->obj.attach))
		snprintf(so->obj.attach, sizeof(so->obj.attach), "%s", path);
	if (so->f.warning[0])
		snprintf(s->warning, sizeof(s->warning), "%s", so->f.warning);
	r = side_keep(s, so, path, sdt_elf_is_program(&so->f));
	if (r < 0)
		snprintf(err, len, "out of memory");
	return r;
}

/* One mapped object of the process: kept when it has probes. */
static int side_take_mapped(struct side *s, struct proc_object *po)
{
	struct side_object *so;
	char e[256];

	if (po->fd < 0)
		return 0;
	so = side_grow(s);
	if (!so)
		return -ENOMEM;
	if (sdt_elf_open_fd(&so->f, po->fd, e, sizeof(e)) < 0)
		return 0; /* not ELF, or damaged: it has no probes to compare */
	if (!so->f.nprobes) {
		sdt_elf_close(&so->f);
		return 0;
	}
	so->obj.proc = &s->proc;
	so->obj.pobj = po;
	object_of_mapped(&so->obj, po);
	return side_keep(s, so, po->path, !strcmp(po->path, s->proc.exe));
}

int side_open_pid(struct side *s, int pid, char *err, size_t len)
{
	int r;

	memset(s, 0, sizeof(*s));
	s->pid = pid;
	snprintf(s->name, sizeof(s->name), "pid %d", pid);
	r = proc_open(&s->proc, pid, err, len);
	if (r < 0)
		return r;
	s->proc_open = 1;
	for (size_t i = 0; i < s->proc.nobjs; i++) {
		r = side_take_mapped(s, &s->proc.objs[i]);
		if (r < 0) {
			snprintf(err, len, "out of memory");
			return r;
		}
	}
	return 0;
}

void side_close(struct side *s)
{
	for (size_t i = 0; i < s->slots; i++) {
		if (i < s->n) {
			object_fini(&s->objs[i]->obj);
			sdt_elf_close(&s->objs[i]->f);
		}
		free(s->objs[i]);
	}
	free(s->objs);
	if (s->proc_open)
		proc_close(&s->proc);
	s->objs = NULL;
	s->n = s->slots = 0;
	s->proc_open = 0;
}

int group_has_semaphore(const struct object *obj, const struct group *g)
{
	for (size_t i = 0; i < g->count; i++) {
		const struct sdt_probe *p =
			&obj->f->probes[obj->sites[g->first + i]];

		if (p->note.semaphore || p->sema_ref.symbol)
			return 1;
	}
	return 0;
}

const struct group *object_find_group(const struct object *obj,
				      const char *provider, const char *name)
{
	for (size_t i = 0; i < obj->ngroups; i++) {
		const struct sdt_probe *p = group_probe(obj, &obj->groups[i]);

		if (!strcmp(p->note.provider, provider) &&
		    !strcmp(p->note.name, name))
			return &obj->groups[i];
	}
	return NULL;
}

int side_open_arg(struct side *s, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v = NULL;
	char err[512];
	int pid, r;

	if (!strcmp(a, "-p") || !strcmp(a, "--pid"))
		v = *i + 1 < argc ? argv[++*i] : "";
	else if (!strncmp(a, "--pid=", 6))
		v = a + 6;
	else if (!strncmp(a, "-p", 2) && a[2])
		v = a + 2;
	++*i;
	if (v && pid_parse(v, &pid) < 0) {
		fprintf(stderr, "sdt-list: -p needs a process id, got `");
		put_text(stderr, v);
		fputs("'\n", stderr);
		memset(s, 0, sizeof(*s));
		return EXIT_INPUT;
	}
	r = v ? side_open_pid(s, pid, err, sizeof(err))
	      : side_open_file(s, a, err, sizeof(err));
	if (r < 0) {
		fputs("sdt-list: ", stderr);
		put_text(stderr, v ? s->name : a);
		fputs(": ", stderr);
		put_text(stderr, err);
		fputc('\n', stderr);
		return EXIT_INPUT;
	}
	if (s->warning[0]) {
		fputs("sdt-list: ", stderr);
		put_text(stderr, a);
		fputs(": ", stderr);
		put_text(stderr, s->warning);
		fputc('\n', stderr);
	}
	return 0;
}

int group_is_live(const struct object *obj, const struct group *g)
{
	if (obj->f->type == ET_REL)
		return 1;
	for (size_t i = 0; i < g->count; i++) {
		if (sdt_probe_in_code(
			    obj->f, &obj->f->probes[obj->sites[g->first + i]]))
			return 1;
	}
	return 0;
}

char *read_text_input(const char *path, size_t max, size_t *len, char *err,
		      size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	ssize_t n;

	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "cannot open: %s", strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen,
			 "not a regular file (a FIFO, device or directory)");
		goto fail;
	}
	if ((uint64_t)st.st_size > max) {
		snprintf(err, errlen, "larger than %zu MiB: not a program text",
			 max >> 20);
		goto fail;
	}
	/*
	 * Read to the end, not to the size fstat gave: a file that grows
	 * while read must not be cut short, and /proc's files say 0.
	 */
	for (size_t cap = (size_t)st.st_size + 1;;) {
		if (got == cap || !buf) {
			char *grown;

			if (buf && cap > max) {
				snprintf(err, errlen,
					 "larger than %zu MiB: not a program "
					 "text",
					 max >> 20);
				goto fail;
			}
			if (buf)
				cap = cap > max / 2 ? max + 1 : 2 * cap;
			if (!(grown = realloc(buf, cap + 1))) {
				snprintf(err, errlen, "out of memory");
				goto fail;
			}
			buf = grown;
		}
		n = read(fd, buf + got, cap - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "cannot read: %s",
				 strerror(errno));
			goto fail;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	*len = got;
	close(fd);
	return buf;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}
