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
 * All strings of one object live in one allocation, freed once written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfobj.h"
#include "internal.h"

#define OPERAND_MAX 32

struct operands {
	char text[SDT_MAX_ARGS][OPERAND_MAX];
	size_t len[SDT_MAX_ARGS];
	unsigned count;
};

static int fetch_operands(SDTProvider_t *p, const struct sdt_target *t,
			  unsigned need, struct operands *ops)
{
	for (ops->count = 0; ops->count < need; ops->count++) {
		unsigned i = ops->count;
		int n = sdt_target_arg_operand(t, i, ops->text[i],
					       sizeof(ops->text[i]));

		if (n < 0)
			return sdt_set_error(
			    p, elfCreationError,
			    "libstapsdt: provider '%s': %s has no operand "
			    "for argument %u (%s): use fewer arguments",
			    p->name, sdt_target_name(t), i + 1, strerror(-n));
		ops->len[i] = (size_t)n;
	}
	return 0;
}

/* Bytes a probe's strings take: spec and semaphore symbol, NULs included. */
static size_t probe_strings_size(SDTProvider_t *p, const SDTProbe_t *probe,
				 const struct operands *ops)
{
	size_t size =
	    strlen(p->name) + strlen(probe->name) + sizeof("__semaphore");

	for (int i = 0; i < probe->argCount; i++)
		size += sizeof("-8@ ") + ops->len[i];
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
		int type = n->types[i];

		if (i)
			*out++ = ' ';
		if (type < 0)
			*out++ = '-';
		*out++ = (char)('0' + (type < 0 ? -type : type));
		*out++ = '@';
		out = put_str(out, ops->text[i], ops->len[i]);
	}
	*out++ = '\0';
	return out;
}

/* PROVIDER_PROBE_semaphore, the name dtrace -G gives it. */
static char *format_semaphore(char *out, const char *provider,
			      const char *probe)
{
	out = put_str(out, provider, strlen(provider));
	*out++ = '_';
	out = put_str(out, probe, strlen(probe));
	out = put_str(out, "_semaphore", sizeof("_semaphore"));
	return out;
}

/*
 * A probe named PROVIDER_X_semaphore would share its stub symbol with the
 * semaphore of probe X. Only names of that shape need the search.
 */
static int symbol_clash(SDTProvider_t *p, const char *name)
{
	size_t plen = strlen(p->name), nlen = strlen(name);
	const size_t slen = sizeof("_semaphore") - 1;

	if (nlen <= plen + 1 + slen || strncmp(name, p->name, plen) != 0 ||
	    name[plen] != '_' || strcmp(name + nlen - slen, "_semaphore") != 0)
		return 0;
	for (SDTProbeList_t *l = p->probes; l; l = l->next)
		if (strlen(l->probe.name) == nlen - plen - 1 - slen &&
		    strncmp(l->probe.name, name + plen + 1,
			    nlen - plen - 1 - slen) == 0)
			return 1;
	return 0;
}

int sdt_object_write(SDTProvider_t *p, const struct sdt_target *t, int fd,
		     struct sdt_dso_layout *layout)
{
	struct sdt_provider *sp = sdt_provider_of(p);
	const struct sdt_stub *stub = sdt_stub_for(t);
	struct sdt_dso_probe *probes = NULL;
	struct operands ops;
	unsigned need = 0;
	size_t size = 0, i = 0;
	char *strings = NULL, *s, err[256], soname[SDT_NAME_MAX + 32];
	int ret = -1;

	if (!stub)
		return sdt_set_error(p, elfCreationError,
				     "libstapsdt: provider '%s': no probe stub "
				     "for %s; supported: x86_64, aarch64",
				     p->name, sdt_target_name(t));
	for (SDTProbeList_t *l = p->probes; l; l = l->next)
		if ((unsigned)l->probe.argCount > need)
			need = (unsigned)l->probe.argCount;
	if (fetch_operands(p, t, need, &ops) < 0)
		return -1;
	for (SDTProbeList_t *l = p->probes; l; l = l->next) {
		if (symbol_clash(p, l->probe.name))
			return sdt_set_error(
			    p, duplicateProbeError,
			    "libstapsdt: provider '%s': probe name '%s' "
			    "is the semaphore symbol of another probe: "
			    "rename it",
			    p->name, l->probe.name);
		size += probe_strings_size(p, &l->probe, &ops);
	}
	probes = calloc(sp->nprobes ? sp->nprobes : 1, sizeof(*probes));
	strings = malloc(size ? size : 1);
	if (!probes || !strings) {
		sdt_set_error(p, outOfMemoryError,
			      "libstapsdt: provider '%s': out of memory for "
			      "%zu probes",
			      p->name, sp->nprobes);
		goto out;
	}
	s = strings;
	for (SDTProbeList_t *l = p->probes; l; l = l->next, i++) {
		struct sdt_probe_node *n = sdt_node_of(&l->probe);

		n->index = (unsigned)i;
		probes[i].provider = p->name;
		probes[i].name = l->probe.name;
		probes[i].stub_symbol = l->probe.name;
		probes[i].sema_symbol = s;
		s = format_semaphore(s, p->name, l->probe.name);
		probes[i].args = s;
		s = format_spec(s, n, l->probe.argCount, &ops);
	}
	snprintf(soname, sizeof(soname), "libstapsdt-%s.so", p->name);
	struct sdt_dso dso = {
	    .target = *t,
	    .soname = soname,
	    .stub = stub->code,
	    .stub_size = stub->size,
	    .stub_probe_offset = stub->probe_offset,
	    .probes = probes,
	    .nprobes = sp->nprobes,
	};
	err[0] = '\0';
	ret = sdt_dso_write(fd, &dso, layout, err, sizeof(err));
	if (ret < 0) {
		sdt_set_error(p, elfCreationError,
			      "libstapsdt: provider '%s': cannot write its "
			      "shared object: %s",
			      p->name, err[0] ? err : strerror(-ret));
		ret = -1;
	} else if (layout->stub_stride < 8) {
		ret = sdt_set_error(p, elfCreationError,
				    "libstapsdt: provider '%s': stubs are %llu "
				    "bytes apart, fewer than the 8 we read",
				    p->name,
				    (unsigned long long)layout->stub_stride);
	} else {
		ret = 0;
	}
out:
	free(probes);
	free(strings);
	return ret;
}
