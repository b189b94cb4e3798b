/* SPDX-License-Identifier: MIT */
/*
 * sdt-notes: the test suite's probe dumper. Prints every stapsdt probe of
 * each FILE in one stable line and checks each argument against the strict
 * forms every consumer reads (elfcore/argspec.c), so tests can compare
 * probes with text and fail on the first spec a tracer would choke on.
 *
 *   sdt-notes [--offsets] [--no-check] [--foreign PROVIDER]... FILE...
 *   PROVIDER:NAME pc=0xHEX base=0xHEX sema=0xHEX [pc_off=.. sema_off=..]
 * args=SPEC
 *
 * --foreign PROVIDER: list that provider's probes but leave their specs
 * unchecked. A static link brings in the C library's own probes (glibc
 * 2.43's provider libc: `8@16+mp_(%rip)'), written by SystemTap's header
 * and not ours to hold to the strict forms.
 */
#include <stdio.h>
#include <string.h>
#include <inttypes.h>

#include "argspec.h"
#include "elfobj.h"

static int check_probe(const char *path, const struct sdt_elf *f,
		       const struct sdt_probe *p)
{
	const char *spec = p->note.args;
	size_t pos = 0, start, len;
	struct sdt_arg arg;
	char why[256];
	int bad = 0;

	for (unsigned n = 1; sdt_arg_split(spec, &pos, &start, &len); n++) {
		if (n > SDT_MAX_ARGS) {
			fprintf(stderr, "%s: %s:%s: more than %d arguments\n",
				path, p->note.provider, p->note.name,
				SDT_MAX_ARGS);
			return 1;
		}
		if (sdt_arg_parse(&f->target, spec + start, len, &arg, why,
				  sizeof(why)) == 0)
			continue;
		fprintf(stderr, "%s: %s:%s: argument %u (`%.*s'): %s\n", path,
			p->note.provider, p->note.name, n, (int)len,
			spec + start, why);
		bad = 1;
	}
	return bad;
}

/* The --foreign providers: their probes are not checked. */
static const char *foreign[8];
static int nforeign;

static int is_foreign(const char *provider)
{
	for (int i = 0; i < nforeign; i++) {
		if (!strcmp(foreign[i], provider))
			return 1;
	}
	return 0;
}

static int dump(const char *path, int offsets, int check)
{
	struct sdt_elf f;
	char err[256];
	int bad = 0;

	if (sdt_elf_open(&f, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", path, err);
		return 1;
	}
	if (f.warning[0]) {
		fprintf(stderr, "%s: %s\n", path, f.warning);
		bad = 1;
	}
	for (size_t i = 0; i < f.nprobes; i++) {
		const struct sdt_probe *p = &f.probes[i];
		uint64_t pc = sdt_probe_addr(&f, p), pc_off = 0, sema_off = 0;

		printf("%s:%s pc=0x%" PRIx64 " base=0x%" PRIx64
		       " sema=0x%" PRIx64,
		       p->note.provider, p->note.name, pc, p->note.base,
		       p->note.semaphore);
		if (offsets) {
			sdt_elf_addr_to_offset(&f, pc, &pc_off);
			if (p->note.semaphore)
				sdt_elf_addr_to_offset(&f, p->note.semaphore,
						       &sema_off);
			printf(" pc_off=0x%" PRIx64 " sema_off=0x%" PRIx64,
			       pc_off, sema_off);
		}
		printf(" args=%s\n", p->note.args);
		if (check && !is_foreign(p->note.provider))
			bad |= check_probe(path, &f, p);
	}
	sdt_elf_close(&f);
	return bad;
}

static int usage(void)
{
	fprintf(stderr, "usage: sdt-notes [--offsets] [--no-check] "
			"[--foreign PROVIDER]... FILE...\n");
	return 2;
}

int main(int argc, char **argv)
{
	int offsets = 0, check = 1, bad = 0, i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--offsets"))
			offsets = 1;
		else if (!strcmp(argv[i], "--no-check"))
			check = 0;
		else if (!strcmp(argv[i], "--foreign") && i + 1 < argc &&
			 nforeign < (int)(sizeof(foreign) / sizeof(*foreign)))
			foreign[nforeign++] = argv[++i];
		else
			return usage();
	}
	if (i == argc)
		return usage();
	for (; i < argc; i++)
		bad |= dump(argv[i], offsets, check);
	fflush(stdout);
	return bad;
}
