/* SPDX-License-Identifier: MIT */
/*
 * The two allocators dtrace-gen needs. Output is built in one growable
 * buffer so that nothing reaches a file before the whole input has been
 * read and checked. The provider model lives in an arena: a parse that
 * stops at an error frees everything with one call, whatever it had built.
 *
 * Neither reports allocation failure at each call: they remember it, and
 * the caller checks once (`failed') before using the result.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtrace-gen.h"

/* The slow half of dg_buf_reserve(): grow to fit EXTRA more bytes. */
int dg_buf_grow(struct dg_buf *b, size_t extra)
{
	size_t cap;
	char *p;

	if (b->failed)
		return -1;
	if (extra < b->cap - b->len)
		return 0;
	cap = b->cap ? b->cap : 4096;
	while (cap - b->len <= extra) {
		if (cap > SIZE_MAX / 2) {
			b->failed = 1;
			return -1;
		}
		cap *= 2;
	}
	p = realloc(b->data, cap);
	if (!p) {
		b->failed = 1;
		return -1;
	}
	b->data = p;
	b->cap = cap;
	return 0;
}

void dg_buf_puts(struct dg_buf *b, const char *s)
{
	dg_buf_add(b, s, strlen(s));
}

/* The strings up to a NULL, one after another: the header's hot path. */
void dg_buf_cat(struct dg_buf *b, ...)
{
	const char *s;
	va_list ap;

	va_start(ap, b);
	while ((s = va_arg(ap, const char *)))
		dg_buf_add(b, s, strlen(s));
	va_end(ap);
}

void dg_buf_uint(struct dg_buf *b, unsigned v)
{
	char digits[12];
	size_t i = sizeof(digits);

	do
		digits[--i] = (char)('0' + v % 10);
	while ((v /= 10));
	dg_buf_add(b, digits + i, sizeof(digits) - i);
}

void dg_buf_printf(struct dg_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = 1;
		return;
	}
	if (dg_buf_reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void dg_buf_free(struct dg_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

struct dg_arena_block {
	struct dg_arena_block *next;
	size_t used, size;
	max_align_t data[];
};

#define ARENA_BLOCK (64 * 1024)

void *dg_arena_alloc(struct dg_arena *a, size_t size)
{
	const size_t align = sizeof(max_align_t);
	struct dg_arena_block *blk = a->head;
	size_t want;
	void *p;

	if (a->failed || size > SIZE_MAX / 2)
		goto fail;
	size = (size + align - 1) / align * align;
	if (!blk || blk->size - blk->used < size) {
		want = size > ARENA_BLOCK ? size : ARENA_BLOCK;
		blk = malloc(sizeof(*blk) + want);
		if (!blk)
			goto fail;
		blk->size = want;
		blk->used = 0;
		blk->next = a->head;
		a->head = blk;
	}
	p = (char *)blk->data + blk->used;
	blk->used += size;
	return p;
fail:
	a->failed = 1;
	return NULL;
}

char *dg_arena_strndup(struct dg_arena *a, const char *s, size_t n)
{
	char *p = dg_arena_alloc(a, n + 1);

	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void dg_arena_free(struct dg_arena *a)
{
	struct dg_arena_block *blk = a->head, *next;

	for (; blk; blk = next) {
		next = blk->next;
		free(blk);
	}
	a->head = NULL;
	a->failed = 0;
}

/* FNV-1a: names are short, and this is all they need. */
static size_t str_hash(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return (size_t)h;
}

static int strset_grow(struct dg_strset *s)
{
	size_t cap = s->cap ? s->cap * 2 : 64, i, j;
	const char **keys;
	size_t *vals;

	if (cap > SIZE_MAX / 2 / sizeof(*vals))
		return -1;
	keys = calloc(cap, sizeof(*keys));
	vals = calloc(cap, sizeof(*vals));
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -1;
	}
	for (i = 0; i < s->cap; i++) {
		if (!s->keys[i])
			continue;
		for (j = str_hash(s->keys[i]) & (cap - 1); keys[j];
		     j = (j + 1) & (cap - 1))
			;
		keys[j] = s->keys[i];
		vals[j] = s->vals[i];
	}
	free(s->keys);
	free(s->vals);
	s->keys = keys;
	s->vals = vals;
	s->cap = cap;
	return 0;
}

int dg_strset_add(struct dg_strset *s, const char *key, size_t val, size_t *old)
{
	size_t i;

	/* At most half full, so probing stays short. */
	if ((s->n + 1) * 2 > s->cap && strset_grow(s))
		return -1;
	for (i = str_hash(key) & (s->cap - 1); s->keys[i];
	     i = (i + 1) & (s->cap - 1)) {
		if (!strcmp(s->keys[i], key)) {
			if (old)
				*old = s->vals[i];
			return 1;
		}
	}
	s->keys[i] = key;
	s->vals[i] = val;
	s->n++;
	return 0;
}

void dg_strset_free(struct dg_strset *s)
{
	free(s->keys);
	free(s->vals);
	memset(s, 0, sizeof(*s));
}
