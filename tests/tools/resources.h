/* SPDX-License-Identifier: MIT */
/*
 * What a process holds, for tests that check a library gives back every
 * descriptor and mapping it takes: open descriptors, and mappings in
 * /proc/self/maps (with how many name a given object).
 */
#ifndef SDTKIT_TEST_RESOURCES_H
#define SDTKIT_TEST_RESOURCES_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>

static inline int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1; /* the one opendir() holds */
}

/* All mappings; *OBJECTS counts those whose line holds MARK. */
static inline int count_maps_of(const char *mark, int *objects)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	int n = 0;

	*objects = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		n++;
		*objects += strstr(line, mark) != NULL;
	}
	fclose(f);
	return n;
}

#endif
