/* SPDX-License-Identifier: MIT */
/*
 * A toy "JIT": it reads probe declarations from a config file at run time,
 * one per line, `NAME TYPE...' with TYPE one of u8 s8 u16 s16 u32 s32 u64
 * s64 str (a string, passed by pointer), declares them with libstapsdt
 * under provider `myprov', loads it, and then "runs" by firing every probe
 * once a second with made-up arguments, asking first whether anyone is
 * listening (the cheap check real runtimes make before building
 * arguments). `jit CONFIG [SECONDS]'; see README for tracing it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libstapsdt.h>

#define MAX_PROBES 64

struct jit_probe {
	SDTProbe_t *probe;
	int argc;
	int is_string[SDT_MAX_ARGS];
};

static int parse_type(const char *word, ArgType_t *type, int *is_string)
{
	static const struct {
		const char *name;
		ArgType_t type;
	} types[] = {
		{ "u8", uint8 },   { "s8", int8 },    { "u16", uint16 },
		{ "s16", int16 },  { "u32", uint32 }, { "s32", int32 },
		{ "u64", uint64 }, { "s64", int64 },  { "str", uint64 },
	};

	*is_string = strcmp(word, "str") == 0;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(word, types[i].name) == 0) {
			*type = types[i].type;
			return 0;
		}
	return -1;
}

/* Declares the probes of one config line; returns 0 or -1 (message out). */
static int declare(SDTProvider_t *prov, char *line, struct jit_probe *jp)
{
	ArgType_t types[SDT_MAX_ARGS];
	char *name = strtok(line, " \t\n"), *word;

	if (!name || name[0] == '#')
		return 1; /* blank or comment */
	jp->argc = 0;
	while ((word = strtok(NULL, " \t\n"))) {
		if (jp->argc == SDT_MAX_ARGS ||
		    parse_type(word, &types[jp->argc],
			       &jp->is_string[jp->argc]) < 0) {
			fprintf(stderr,
				"jit: probe %s: bad or too many types "
				"at '%s'\n",
				name, word);
			return -1;
		}
		jp->argc++;
	}
	jp->probe = providerAddProbeArgs(prov, name, jp->argc, types);
	if (!jp->probe) {
		fprintf(stderr, "jit: %s\n", prov->error);
		return -1;
	}
	return 0;
}

static void fire(const struct jit_probe *jp, long tick)
{
	static char text[64];
	uint64_t a[SDT_MAX_ARGS];

	/* Build arguments only when someone listens. */
	if (!probeIsEnabled(jp->probe))
		return;
	snprintf(text, sizeof(text), "%s tick %ld", jp->probe->name, tick);
	for (int i = 0; i < jp->argc; i++)
		a[i] = jp->is_string[i] ? (uint64_t)(uintptr_t)text
					: (uint64_t)(tick * (i + 1));
	probeFire(jp->probe, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7],
		  a[8], a[9], a[10], a[11]);
}

int main(int argc, char **argv)
{
	struct jit_probe probes[MAX_PROBES];
	SDTProvider_t *prov;
	char line[512];
	int n = 0, rc;
	long seconds;
	FILE *f;

	if (argc < 2) {
		fprintf(stderr, "usage: jit CONFIG [SECONDS]\n");
		return 2;
	}
	seconds = argc > 2 ? atol(argv[2]) : 3600;
	f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	prov = providerInit("myprov");
	if (!prov)
		return 1;
	while (n < MAX_PROBES && fgets(line, sizeof(line), f)) {
		rc = declare(prov, line, &probes[n]);
		if (rc < 0)
			return 1;
		if (rc == 0)
			n++;
	}
	fclose(f);
	if (providerLoad(prov) != 0) {
		fprintf(stderr, "jit: %s\n", prov->error);
		return 1;
	}
	printf("jit: pid %d, %d probes of myprov loaded\n", (int)getpid(), n);
	fflush(stdout);
	for (long tick = 0; tick < seconds; tick++) {
		for (int i = 0; i < n; i++)
			fire(&probes[i], tick);
		sleep(1);
	}
	providerDestroy(prov);
	return 0;
}
