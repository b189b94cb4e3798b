/* SPDX-License-Identifier: MIT */
/*
 * A FILE that writes into memory and says when it could not.
 *
 * glibc's open_memstream() drops what it cannot grow its buffer for and
 * sets no error (its overflow handler leaves the flag alone): a program
 * written through it under memory pressure comes out shorter, and nothing
 * tells. A cookie stream's failed write is an error stdio keeps, so
 * ferror() and fclose() say it, and a shorter answer is never taken for
 * a whole one.
 */
#define _GNU_SOURCE /* fopencookie */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdt-list.h"

struct membuf {
	char **buf;
	size_t *len, cap;
};

static ssize_t membuf_write(void *cookie, const char *data, size_t n)
{
	struct membuf *m = cookie;

	if (*m->len + n + 1 > m->cap) {
		size_t cap = m->cap ? m->cap : 256;
		char *grown;

		while (cap < *m->len + n + 1)
			cap *= 2;
		if (!(grown = realloc(*m->buf, cap)))
			return -1; /* stdio marks the stream: ferror() */
		*m->buf = grown;
		m->cap = cap;
	}
	memcpy(*m->buf + *m->len, data, n);
	*m->len += n;
	(*m->buf)[*m->len] = '\0';
	return (ssize_t)n;
}

static int membuf_close(void *cookie)
{
	free(cookie);
	return 0;
}

FILE *membuf_open(char **buf, size_t *len)
{
	static const cookie_io_functions_t io = { .write = membuf_write,
						  .close = membuf_close };
	struct membuf *m = calloc(1, sizeof(*m));
	FILE *f;

	*buf = malloc(1);
	*len = 0;
	if (!m || !*buf) {
		free(m);
		free(*buf);
		*buf = NULL;
		return NULL;
	}
	**buf = '\0';
	m->buf = buf;
	m->len = len;
	m->cap = 1;
	if (!(f = fopencookie(m, "w", io))) {
		free(m);
		free(*buf);
		*buf = NULL;
	}
	return f;
}
