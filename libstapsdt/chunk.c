/* SPDX-License-Identifier: MIT */
/*
 * Objects with room: how providerExtend() stays cheap at JIT scale.
 *
 * A runtime that declares a probe as each function is compiled extends
 * thousands of times. An object per extend would cost a descriptor and two
 * mappings each (ulimit -n and vm.max_map_count are hit long before a JIT
 * is done), a dlopen whose cost grows with the loader's list, and a file
 * every later tracer reads. So an extend's probes go into a chunk: one
 * object written once with room for many probes, which later extends fill.
 *
 * What makes that work is how tracers find probes. bpftrace, bcc, libbpf,
 * perf and gdb read a file's .note.stapsdt when they attach (through the
 * section headers: the section is not loaded), then put uprobes on the
 * file's inode at the offsets the notes give, and count semaphores at file
 * offsets in the process's mapping. So a chunk is written with every
 * slot's stub (the same bytes for any probe: arguments are wherever the
 * ABI put them) and every slot's semaphore, and no note. Adding a probe
 * writes only its note into the file (sdt_dso_append()), past the notes
 * the section header counts, then the header's new size: a tracer that
 * reads the file from then on sees the probe; one attached before keeps
 * its uprobes on stubs, and semaphores, that never move or change. The
 * mapped pages are not touched at all (the note section is not loaded).
 *
 * Chunks grow geometrically (CHUNK_FIRST slots, doubling up to CHUNK_MAX,
 * or all of one extend's probes when more), so N additions cost O(log N)
 * objects, then one per CHUNK_MAX probes. Only the process that made a
 * chunk adds to it: a forked child shares the memfd or file with its
 * parent, so a child that extends makes chunks of its own.
 *
 * The dynamic symbol table is loaded and cannot grow in place, so a chunk's
 * probes get their stub and semaphore symbols in .symtab, which grows like
 * the notes: profilers and debuggers name them as in a load's object.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfobj.h"
#include "internal.h"

/* Note bytes to reserve per slot: a typical note with its strings. */
#define NOTE_ROOM_PER_SLOT 96

int sdt_chunk_write(SDTProvider_t *p, int fd, size_t slots, struct sdt_chunk *c)
{
	const struct sdt_stub *stub;
	struct sdt_target host;
	char err[256] = "", *soname;
	struct sdt_dso dso;
	int ret;

	sdt_target_host(&host);
	stub = sdt_stub_for(&host);
	if (!stub)
		return sdt_set_error(
			p, elfCreationError,
			"libstapsdt: provider '%s': no probe stub "
			"for %s; supported: x86_64, i386, aarch64, "
			"arm, riscv64, ppc64le, s390x",
			p->name, sdt_target_name(&host));
	if (asprintf(&soname, "libstapsdt-%s.so", p->name) < 0)
		return sdt_set_error(p, outOfMemoryError,
				     "libstapsdt: provider '%s': out of memory",
				     p->name);
	dso = (struct sdt_dso){
		.target = host,
		.soname = soname,
		.stub = stub->code,
		.stub_size = stub->size,
		.stub_probe_offset = stub->probe_offset,
		.slots = slots,
		.note_room = slots * NOTE_ROOM_PER_SLOT,
		.extra_room = sdt_provider_of(p)->has_arg_info
				      ? slots * NOTE_ROOM_PER_SLOT
				      : 0,
	};
	ret = sdt_dso_write(fd, &dso, &c->layout, err, sizeof(err));
	free(soname);
	if (ret < 0)
		return sdt_set_error(p, elfCreationError,
				     "libstapsdt: provider '%s': cannot write "
				     "an object for %zu probes: %s",
				     p->name, slots,
				     err[0] ? err : strerror(-ret));
	c->used = 0;
	c->probe_offset = stub->probe_offset;
	c->owner = (long)getpid();
	return 0;
}

/* Where slot I's stub and semaphore are, relative to the load base. */
static uint64_t slot_stub(const struct sdt_chunk *c, size_t i)
{
	return c->layout.stub_addr + i * c->layout.stub_stride;
}

static uint64_t slot_sema(const struct sdt_chunk *c, size_t i)
{
	return c->layout.sema_addr + 2 * i;
}

/* The notes of the N probes DESC describes, in slots from C->used on. */
static unsigned char *encode_notes(const struct sdt_chunk *c,
				   const struct sdt_target *t,
				   const struct sdt_dso_probe *desc, size_t n,
				   size_t *size)
{
	struct sdt_note note = { .base = c->layout.base_addr };
	unsigned char *buf, *at;

	*size = 0;
	for (size_t i = 0; i < n; i++) {
		note.provider = desc[i].provider;
		note.name = desc[i].name;
		note.args = desc[i].args;
		*size += sdt_note_size(t, &note);
	}
	buf = malloc(*size ? *size : 1);
	if (!buf)
		return NULL;
	at = buf;
	for (size_t i = 0; i < n; i++) {
		note.pc = slot_stub(c, c->used + i) + c->probe_offset;
		note.semaphore = slot_sema(c, c->used + i);
		note.provider = desc[i].provider;
		note.name = desc[i].name;
		note.args = desc[i].args;
		at += sdt_note_encode(t, &note, at);
	}
	return buf;
}

/* BYTES (N) appended to section R of C; 0, or -1 with the error set. */
static int append(SDTProvider_t *p, struct sdt_chunk *c,
		  const struct sdt_target *t, struct sdt_dso_room *r,
		  const void *bytes, size_t n)
{
	char err[256] = "";
	int ret = sdt_dso_append(c->wfd, t, &c->layout, r, bytes, n, err,
				 sizeof(err));

	if (ret < 0)
		return sdt_set_error(p, elfCreationError,
				     "libstapsdt: provider '%s': cannot add "
				     "probes to its object: %s",
				     p->name, err[0] ? err : strerror(-ret));
	return 0;
}

/* The symbols of the N probes DESC describes, in slots from C->used on. */
static int add_symbols(SDTProvider_t *p, struct sdt_chunk *c,
		       const struct sdt_target *t,
		       const struct sdt_dso_probe *desc, size_t n)
{
	char err[256] = "";
	int ret = sdt_dso_add_symbols(c->wfd, t, &c->layout, desc, n, c->used,
				      err, sizeof(err));

	if (ret < 0)
		return sdt_set_error(p, elfCreationError,
				     "libstapsdt: provider '%s': cannot add "
				     "symbols to its object: %s",
				     p->name, err[0] ? err : strerror(-ret));
	return 0;
}

/*
 * Symbols and types first, the notes last: a tracer that sees a probe's
 * note finds the rest. A failure before the notes leaves symbols and
 * records of probes that have no note, which readers ignore.
 */
static int add_notes(SDTProvider_t *p, struct sdt_chunk *c,
		     const struct sdt_target *t, SDTProbe_t *const *probes,
		     size_t n)
{
	struct sdt_dso_probe *desc = NULL;
	unsigned char *types = NULL, *notes = NULL;
	char *strings = NULL;
	size_t types_size = 0, notes_size = 0;
	int ret = -1;

	if (sdt_object_describe(p, t, probes, n, &desc, &strings) < 0 ||
	    sdt_object_types(p, t, probes, n, &types, &types_size) < 0)
		goto out;
	notes = encode_notes(c, t, desc, n, &notes_size);
	if (!notes) {
		sdt_set_error(p, outOfMemoryError,
			      "libstapsdt: provider '%s': out of memory for "
			      "%zu notes",
			      p->name, n);
		goto out;
	}
	if (add_symbols(p, c, t, desc, n) == 0 &&
	    append(p, c, t, &c->layout.extra, types, types_size) == 0 &&
	    append(p, c, t, &c->layout.notes, notes, notes_size) == 0)
		ret = 0;
out:
	free(notes);
	free(types);
	free(desc);
	free(strings);
	return ret;
}

int sdt_chunk_add(SDTProvider_t *p, struct sdt_chunk *c, uintptr_t base,
		  SDTProbe_t *const *probes, size_t n)
{
	struct sdt_target host;

	if (c->wfd < 0 || n > c->layout.slots - c->used)
		return sdt_set_error(p, providerStateError,
				     "libstapsdt: provider '%s': %zu probes "
				     "do not fit its object (internal error)",
				     p->name, n);
	sdt_target_host(&host);
	if (add_notes(p, c, &host, probes, n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		sdt_publish(probes[i], base + slot_stub(c, c->used + i),
			    base + slot_sema(c, c->used + i));
	c->used += n;
	return 0;
}
