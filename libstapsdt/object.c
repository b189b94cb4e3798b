/* SPDX-License-Identifier: MIT */
/*
 * Provider model -> shared object description for the ELF core.
 *
 * For each probe: its stub symbol (the probe's name, as the public library
 * named it, so `perf report' shows the probe), its semaphore symbol
 * PROVIDER_PROBE_semaphore (the name dtrace -G gives it), and its argument
 * spec, each argument `[-]SIZE@OPERAND' with the operand under which the
 * stub finds that argument on entry (sdt_target_arg_operand()). The ELF
 * itself is written by sdt_dso_write(); nothing here knows ELF.
 *
 * A name given twice (provider.c) gets a stub and a note per probe; the
 * repeats' symbols carry `:N' (N = 1, 2, ...), which no probe name has, so
 * every symbol stays unique. Symbols are for people (perf report, gdb):
 * tracers find probes through the notes.
 *
 * The writer only reads the model: it returns, with the layout, the probes
 * in the order it laid them out, for the loader to publish. It writes the
 * newest probes it is asked for: all of them for providerLoad(), those
 * added since for providerExtend(), whose object holds only them. A name
 * repeated across objects keeps its numbering (the ordinal is the
 * provider's), so no two symbols of a provider are alike.
 *
 * Argument types given with probeSetArgInfo() go into the object as the
 * typed-probe records dtrace-gen writes (elfcore/typerec.h), in the
 * non-allocated section the core adds for them: tools find a live
 * provider's types where they find a program's.
 *
 * All strings of one object live in one allocation, freed once written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfobj.h"
#include "internal.h"
#include "names.h"
#include "typerec.h"

#define OPERAND_MAX 32

/* Each argument's operand for a value of 1, 2, 4 and 8 bytes (they
 * differ for stack words of big-endian machines). */
struct operands {
	char text[SDT_MAX_ARGS][4][OPERAND_MAX];
	size_t len[SDT_MAX_ARGS][4];
	size_t longest[SDT_MAX_ARGS];
	unsigned count;
};

static int fetch_operands(SDTProvider_t *p, const struct sdt_target *t,
			  unsigned need, struct operands *ops)
{
	const struct sdt_stub *stub = sdt_stub_for(t);

	for (ops->count = 0; ops->count < need; ops->count++) {
		unsigned i = ops->count;

		ops->longest[i] = 0;
		for (unsigned k = 0; k < 4; k++) {
			char *buf = ops->text[i][k];
			int n = stub ? sdt_stub_arg_operand(stub, t, i, 1u << k,
							    buf, OPERAND_MAX)
				     : sdt_target_arg_operand_sized(
					       t, i, 1u << k, buf, OPERAND_MAX);

			if (n < 0)
				return sdt_set_error(
					p, elfCreationError,
					"libstapsdt: provider '%s': %s has no "
					"operand for argument %u (%s): use "
					"fewer arguments",
					p->name, sdt_target_name(t), i + 1,
					strerror(-n));
			ops->len[i][k] = (size_t)n;
			if ((size_t)n > ops->longest[i])
				ops->longest[i] = (size_t)n;
		}
	}
	return 0;
}

/* Room for ":N" after a repeated name's symbols. */
#define ORDINAL_MAX sizeof(":4294967295")

/* Bytes a probe's strings take: symbols and spec, NULs included. */
static size_t probe_strings_size(size_t plen, const SDTProbe_t *probe,
				 const struct operands *ops)
{
	size_t size = plen + 2 * strlen(probe->name) +
		      sizeof("_" SDT_SEMAPHORE_SUFFIX) + 2 * ORDINAL_MAX;

	for (int i = 0; i < probe->argCount; i++)
		size += sizeof("-8@ ") + ops->longest[i];
	return size + 1;
}

static char *put_str(char *out, const char *s, size_t n)
{
	memcpy(out, s, n);
	return out + n;
}

/* "-8@%rdi 4@%esi": argument types are 1, 2, 4 or 8 bytes, one digit. */
static char *format_spec(char *out, const struct sdt_probe_node *n, int argc,
			 const struct operands *ops)
{
	for (int i = 0; i < argc; i++) {
		int type = n->types[i], size = type < 0 ? -type : type;
		unsigned k = size == 8 ? 3 : size == 4 ? 2 : size == 2 ? 1 : 0;

		if (i)
			*out++ = ' ';
		if (type < 0)
			*out++ = '-';
		*out++ = (char)('0' + size);
		*out++ = '@';
		out = put_str(out, ops->text[i][k], ops->len[i][k]);
	}
	*out++ = '\0';
	return out;
}

/* Ends a symbol: ":ORDINAL" for a repeated name, then the NUL. */
static char *end_symbol(char *out, unsigned ordinal)
{
	if (ordinal)
		out += sprintf(out, ":%u", ordinal);
	*out++ = '\0';
	return out;
}

/* Describes PROBE of provider P (name PLEN bytes) in D, strings to S. */
static char *describe_probe(SDTProvider_t *p, size_t plen,
			    const SDTProbe_t *probe, const struct operands *ops,
			    struct sdt_dso_probe *d, char *s)
{
	const struct sdt_probe_node *n = sdt_node_of(probe);
	size_t nlen = strlen(probe->name);

	d->provider = p->name;
	d->name = probe->name;
	d->stub_symbol = s;
	s = end_symbol(put_str(s, probe->name, nlen), n->ordinal);
	/* PROVIDER_PROBE_semaphore, the name dtrace -G gives it. */
	d->sema_symbol = s;
	s += sdt_semaphore_symbol(
		s, plen + nlen + sizeof(SDT_SEMAPHORE_SUFFIX) + 1, p->name,
		probe->name, SDT_SEMA_PROVIDER_PROBE);
	s = end_symbol(s, n->ordinal);
	d->args = s;
	return format_spec(s, n, probe->argCount, ops);
}

int sdt_object_describe(SDTProvider_t *p, const struct sdt_target *t,
			SDTProbe_t *const *probes, size_t n,
			struct sdt_dso_probe **out, char **strings)
{
	struct operands ops;
	unsigned need = 0;
	size_t size = 0, plen = strlen(p->name);
	char *s;

	*out = NULL;
	*strings = NULL;
	for (size_t i = 0; i < n; i++)
		if ((unsigned)probes[i]->argCount > need)
			need = (unsigned)probes[i]->argCount;
	if (fetch_operands(p, t, need, &ops) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		size += probe_strings_size(plen, probes[i], &ops);
	*out = calloc(n + 1, sizeof(**out));
	*strings = malloc(size + 1);
	if (!*out || !*strings)
		return sdt_set_error(p, outOfMemoryError,
				     "libstapsdt: provider '%s': out of memory "
				     "for %zu probes",
				     p->name, n);
	s = *strings;
	for (size_t i = 0; i < n; i++)
		s = describe_probe(p, plen, probes[i], &ops, &(*out)[i], s);
	return 0;
}

/*
 * The descriptions of the COUNT newest probes and their order; 0, or -1
 * with the error set. Only those are walked, so that extending a large
 * provider costs what the new probes cost.
 */
static int describe_probes(SDTProvider_t *p, const struct sdt_target *t,
			   size_t count, struct sdt_dso_probe **probes,
			   char **strings, struct sdt_object *obj)
{
	size_t i = 0;

	obj->probes = calloc(count + 1, sizeof(*obj->probes));
	if (!obj->probes)
		return sdt_set_error(p, outOfMemoryError,
				     "libstapsdt: provider '%s': out of memory "
				     "for %zu probes",
				     p->name, count);
	for (SDTProbeList_t *l = p->probes; l && i < count; l = l->next)
		obj->probes[i++] = &l->probe;
	obj->nprobes = i;
	return sdt_object_describe(p, t, obj->probes, i, probes, strings);
}

/* Writes the object D describes; 0, or -1 with the error set. */
static int write_dso(SDTProvider_t *p, int fd, const struct sdt_dso *d,
		     struct sdt_dso_layout *layout)
{
	char err[256] = "";
	int ret = sdt_dso_write(fd, d, layout, err, sizeof(err));

	if (ret < 0)
		return sdt_set_error(p, elfCreationError,
				     "libstapsdt: provider '%s': cannot write "
				     "its shared object: %s",
				     p->name, err[0] ? err : strerror(-ret));
	if (layout->stub_stride < 8)
		return sdt_set_error(
			p, elfCreationError,
			"libstapsdt: provider '%s': stubs are %llu "
			"bytes apart, fewer than the 8 we read",
			p->name, (unsigned long long)layout->stub_stride);
	return 0;
}

/*
 * PROBE's record in R, over TYPES and NAMES (SDT_MAX_ARGS each), when
 * probeSetArgInfo() described every one of its arguments; else 0.
 */
static int typerec_of(const SDTProvider_t *p, const SDTProbe_t *probe,
		      struct sdt_typerec *r, const char **types,
		      const char **names)
{
	const struct sdt_arg_info *info = sdt_node_of(probe)->info;

	if (!info)
		return 0;
	for (int i = 0; i < probe->argCount; i++) {
		if (!info->text[i])
			return 0;
		types[i] = info->text[i];
		names[i] = info->text[i] + info->type_len[i] + 1;
	}
	*r = (struct sdt_typerec){ .provider = p->name,
				   .name = probe->name,
				   .nargs = (unsigned)probe->argCount,
				   .types = types,
				   .names = names };
	return 1;
}

int sdt_object_types(SDTProvider_t *p, const struct sdt_target *t,
		     SDTProbe_t *const *probes, size_t n, unsigned char **notes,
		     size_t *size)
{
	const char *types[SDT_MAX_ARGS], *names[SDT_MAX_ARGS];
	struct sdt_typerec r;
	size_t total = 0, at = 0;

	*notes = NULL;
	*size = 0;
	if (!sdt_provider_of(p)->has_arg_info)
		return 0;
	for (size_t i = n; i-- > 0;)
		if (typerec_of(p, probes[i], &r, types, names))
			total += sdt_typerec_size(&r);
	if (!total)
		return 0;
	*notes = malloc(total);
	if (!*notes)
		return sdt_set_error(p, outOfMemoryError,
				     "libstapsdt: provider '%s': out of memory "
				     "for its argument types",
				     p->name);
	for (size_t i = n; i-- > 0;)
		if (typerec_of(p, probes[i], &r, types, names))
			at += sdt_typerec_encode(t, &r, *notes + at);
	*size = at;
	return 0;
}

/* The object's description handed to the ELF core; 0, or -1 (error set). */
static int write_object(SDTProvider_t *p, const struct sdt_target *t,
			const struct sdt_stub *stub, int fd,
			const struct sdt_dso_probe *probes,
			struct sdt_object *obj)
{
	struct sdt_dso dso = {
		.target = *t,
		.stub = stub->code,
		.stub_size = stub->size,
		.stub_probe_offset = stub->probe_offset,
		.probes = probes,
		.nprobes = obj->nprobes,
	};
	unsigned char *notes;
	char *soname;
	int ret;

	if (sdt_object_types(p, t, obj->probes, obj->nprobes, &notes,
			     &dso.extra_notes_size) < 0)
		return -1;
	if (asprintf(&soname, "libstapsdt-%s.so", p->name) < 0) {
		free(notes);
		return sdt_set_error(p, outOfMemoryError,
				     "libstapsdt: provider '%s': out of memory",
				     p->name);
	}
	dso.soname = soname;
	dso.extra_notes = notes;
	ret = write_dso(p, fd, &dso, &obj->layout);
	free(soname);
	free(notes);
	return ret;
}

int sdt_object_write(SDTProvider_t *p, const struct sdt_target *t, int fd,
		     size_t count, struct sdt_object *obj)
{
	const struct sdt_stub *stub = sdt_stub_for(t);
	struct sdt_dso_probe *probes = NULL;
	char *strings = NULL;
	int ret = -1;

	memset(obj, 0, sizeof(*obj));
	if (!stub)
		return sdt_set_error(
			p, elfCreationError,
			"libstapsdt: provider '%s': no probe stub "
			"for %s; supported: x86_64, i386, aarch64, "
			"arm, riscv64, ppc64le, s390x",
			p->name, sdt_target_name(t));
	if (describe_probes(p, t, count, &probes, &strings, obj) == 0)
		ret = write_object(p, t, stub, fd, probes, obj);
	if (ret < 0) {
		free(obj->probes);
		obj->probes = NULL;
	}
	free(probes);
	free(strings);
	return ret;
}
