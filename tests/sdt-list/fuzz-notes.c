/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: any bytes as an ELF file, through the core's probe
 * reader (relocations of relocatable objects included) and everything
 * sdt-list does with what it finds (addresses, sections, stale sites, each
 * argument in words, every consumer model, the type records and the
 * signatures built from them). Built and run by
 * fuzz.sh with clang -fsanitize=fuzzer,address,undefined; a crash, a leak
 * or undefined behaviour is a failure.
 *
 * The same bytes are read a second way, from an fd (a memfd), as files and
 * processes are: libelf then reads with pread, section by section, rather
 * than from memory. The two must find the same probes and type records.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sdt-list.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void exercise(const struct sdt_elf *f, const struct sdt_probe *p)
{
	const char *spec = p->note.args;
	size_t pos = 0, start, len;
	struct arg_desc d;
	struct verdict v;
	uint64_t off, addr = sdt_probe_addr(f, p);

	sdt_elf_addr_to_offset(f, addr, &off);
	sdt_elf_addr_to_offset(f, p->note.semaphore, &off);
	sdt_elf_section_at(f, addr);
	sdt_probe_section(f, p);
	sdt_probe_in_code(f, p);
	while (sdt_arg_split(spec, &pos, &start, &len))
		describe_arg(&f->target, spec + start, len, &d);
	for (int c = 0; c < CONSUMER_COUNT; c++)
		consumer_check((enum consumer)c, &f->target, spec, &v);
	/* The same spec judged for every machine we model. */
	static const char *const arches[] = { "x86_64", "i386",	   "aarch64",
					      "arm",	"riscv64", "ppc64le",
					      "s390x" };
	for (size_t a = 0; a < sizeof(arches) / sizeof(arches[0]); a++) {
		struct sdt_target t;

		sdt_target_from_name(&t, arches[a]);
		for (int c = 0; c < CONSUMER_COUNT; c++)
			consumer_check((enum consumer)c, &t, spec, &v);
		pos = 0;
		while (sdt_arg_split(spec, &pos, &start, &len))
			describe_arg(&t, spec + start, len, &d);
	}
}

/* DATA through an fd: the same verdict and the same probes as from F. */
static void read_from_fd(const uint8_t *data, size_t size, int image_r,
			 const struct sdt_elf *f)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);
	struct sdt_elf g;
	char err[256];
	int r;

	if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
		if (fd >= 0)
			close(fd);
		return;
	}
	r = sdt_elf_open_fd(&g, fd, err, sizeof(err));
	if ((r < 0) != (image_r < 0))
		abort(); /* one reader refused what the other read */
	if (r == 0) {
		if (g.nprobes != f->nprobes || g.ntype_notes != f->ntype_notes)
			abort();
		for (size_t i = 0; i < g.ntype_notes; i++) {
			if (g.type_notes[i].type != f->type_notes[i].type ||
			    g.type_notes[i].size != f->type_notes[i].size)
				abort();
		}
		for (size_t i = 0; i < g.nprobes; i++) {
			if (g.probes[i].note.pc != f->probes[i].note.pc ||
			    strcmp(g.probes[i].note.args,
				   f->probes[i].note.args))
				abort();
		}
		sdt_elf_close(&g);
	}
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sdt_elf f;
	char err[256];

	struct type_table tt;
	FILE *null = fopen("/dev/null", "w");

	int r = sdt_elf_open_image(&f, data, size, err, sizeof(err));

	read_from_fd(data, size, r, &f);
	if (r < 0) {
		fclose(null);
		return 0;
	}
	if (types_load(&tt, &f, "fuzz") < 0)
		tt.n = 0;
	for (size_t i = 0; i < f.nprobes; i++) {
		struct signature sig;

		exercise(&f, &f.probes[i]);
		probe_signature(&tt, &f.probes[i], &sig);
		for (unsigned a = 0; a < sig.nargs && null; a++)
			put_sig_arg(null, &sig.args[a]);
	}
	types_free(&tt);
	sdt_elf_close(&f);
	if (null)
		fclose(null);
	return 0;
}
