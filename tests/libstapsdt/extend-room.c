/* SPDX-License-Identifier: MIT */
/*
 * The objects providerExtend() fills, read back as a tracer reads them:
 * every probe added is in exactly one of the process's objects, once,
 * with its note's PC and semaphore where the library fires and counts it,
 * and its argument types recorded, also after the note sections ran out
 * of room and moved to the end of the file (long names, and types given
 * only after the object was made).
 *
 *   extend-room [file]
 *
 * 200 probes with 200-character names, one extend each; every third has
 * its types. Then a forked child extends once: its probe goes into an
 * object of its own, and the parent's objects are as they were.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "elfobj.h"
#include "libstapsdt.h"

#define N 200
#define NAME_LEN 200

static SDTProbe_t *probes[N];
static char names[N][NAME_LEN + 1];
static char args0[64]; /* the first probe's spec: all are alike */

struct seen {
	int notes[N];  /* notes found per probe */
	int objects;   /* objects of the provider */
	size_t types;  /* type records in all of them */
	size_t others; /* notes of no probe of ours (a, the child's) */
};

static int index_of(const char *name)
{
	for (int i = 0; i < N; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	return -1;
}

/* One object of ours: its notes against what the library published. */
static void check_object(const char *path, uintptr_t base, struct seen *s)
{
	struct sdt_elf f;
	char err[256];

	if (sdt_elf_open(&f, path, err, sizeof(err)) < 0) {
		CHECKF(0, "%s: %s", path, err);
		return;
	}
	CHECK(f.warning[0] == '\0' && !f.types_damaged);
	s->objects++;
	s->types += f.ntype_notes;
	for (size_t k = 0; k < f.nprobes; k++) {
		const struct sdt_probe *p = &f.probes[k];
		int i = index_of(p->note.name);

		if (i < 0) {
			s->others++;
			continue;
		}
		s->notes[i]++;
		if (!args0[0])
			snprintf(args0, sizeof(args0), "%s", p->note.args);
		CHECK(base + sdt_probe_addr(&f, p) ==
		      (uintptr_t)probes[i]->_fire);
		CHECK(base + p->note.semaphore ==
		      (uintptr_t)probeSemaphore(probes[i]));
		CHECKF(strcmp(p->note.args, args0) == 0,
		       "%s has args '%s', not '%s'", p->note.name, p->note.args,
		       args0);
	}
	sdt_elf_close(&f);
}

static int each_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	char link[64], target[4096];
	ssize_t n;

	(void)size;
	if (!info->dlpi_name || !*info->dlpi_name)
		return 0;
	/* A memfd is loaded as /proc/PID/fd/N: its target names it. */
	snprintf(link, sizeof(link), "%s", info->dlpi_name);
	n = readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	if (strstr(info->dlpi_name, "libstapsdt-room") ||
	    strstr(target, "libstapsdt-room"))
		check_object(info->dlpi_name, info->dlpi_addr, arg);
	return 0;
}

static struct seen survey(void)
{
	struct seen s;

	memset(&s, 0, sizeof(s));
	dl_iterate_phdr(each_object, &s);
	return s;
}

static int child_extends(SDTProvider_t *p, int objects)
{
	SDTProbe_t *c = providerAddProbe(p, "child", 0);
	struct seen s;

	if (!c || providerExtend(p) != 0)
		return 1;
	s = survey();
	/* One object more, holding only the child's probe. */
	return s.objects != objects + 1 || s.others != 2;
}

int main(int argc, char **argv)
{
	SDTProvider_t *p = providerInit("room");
	size_t typed = 0;
	struct seen s;
	int status = -1;
	pid_t pid;

	if (argc > 1 && strcmp(argv[1], "file") == 0)
		providerUseMemfd(p, memfd_disabled);
	CHECK(providerAddProbe(p, "a", 0) && providerLoad(p) == 0);
	for (int i = 0; i < N; i++) {
		memset(names[i], 'n', NAME_LEN);
		snprintf(names[i] + NAME_LEN - 8, 9, "%08d", i);
		probes[i] = providerAddProbe(p, names[i], 2, int64, uint32);
		CHECK(probes[i] != NULL);
		if (i % 3 == 2) {
			CHECK(probeSetArgInfo(probes[i], 0, "long", "x") == 0);
			CHECK(probeSetArgInfo(probes[i], 1, "unsigned", "y") ==
			      0);
			typed++;
		}
		CHECK(providerExtend(p) == 0 && probes[i]->_fire);
		probeFire(probes[i], i, 7);
	}
	s = survey();
	for (int i = 0; i < N; i++)
		CHECKF(s.notes[i] == 1, "%s in %d notes", names[i], s.notes[i]);
	/* The load's object, then 64 and 128 probes (and 8 in a third). */
	CHECK(s.objects == 4 && s.others == 1);
	CHECK(s.types == typed);
	/* Two arguments, signed 8 bytes then unsigned 4. */
	CHECK(strncmp(args0, "-8@", 3) == 0 && strstr(args0, " 4@"));
	pid = fork();
	if (pid == 0)
		exit(child_extends(p, s.objects)); /* removes its file */
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && status == 0);
	s = survey();
	CHECK(s.objects == 4 && s.others == 1 && s.types == typed);
	providerDestroy(p);
	CHECK(survey().objects == 0);
	printf("extend-room (%s): %d probes with %d-character names, %zu "
	       "typed, in 3 objects with room: %s\n",
	       argc > 1 ? argv[1] : "memfd", N, NAME_LEN, typed,
	       check_failures ? "FAILED" : "all read back");
	return check_failures != 0;
}
