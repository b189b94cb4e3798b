/* SPDX-License-Identifier: MIT */
/*
 * NT_STAPSDT encode and decode. The byte order and address size are the
 * target's, so a host can write and read notes for any architecture.
 */
#include <errno.h>
#include <string.h>
#include <elf.h>

#include "note.h"

#define NHDR_SIZE SDT_NOTE_HEADER_SIZE
#define OWNER_SIZE sizeof(SDT_NOTE_OWNER) /* 8, already a multiple of 4 */

static size_t desc_size(const struct sdt_target *t, const struct sdt_note *n)
{
	const char *args = n->args ? n->args : "";

	return 3 * sdt_target_addr_size(t) + strlen(n->provider) + 1 +
	       strlen(n->name) + 1 + strlen(args) + 1;
}

size_t sdt_note_size(const struct sdt_target *t, const struct sdt_note *n)
{
	return NHDR_SIZE + OWNER_SIZE + sdt_note_align4(desc_size(t, n));
}

static void put(const struct sdt_target *t, unsigned char *p, uint64_t v,
		unsigned size)
{
	for (unsigned i = 0; i < size; i++) {
		unsigned shift =
			8 * (t->byte_order == ELFDATA2MSB ? size - 1 - i : i);
		p[i] = (unsigned char)(v >> shift);
	}
}

static uint64_t get(const struct sdt_target *t, const unsigned char *p,
		    unsigned size)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < size; i++) {
		unsigned shift =
			8 * (t->byte_order == ELFDATA2MSB ? size - 1 - i : i);
		v |= (uint64_t)p[i] << shift;
	}
	return v;
}

unsigned char *sdt_note_put_str(unsigned char *p, const char *s)
{
	size_t len = strlen(s) + 1;

	memcpy(p, s, len);
	return p + len;
}

size_t sdt_note_head_size(const char *owner)
{
	return NHDR_SIZE + sdt_note_align4(strlen(owner) + 1);
}

/*
 * The header and OWNER (NAMESZ bytes with its NUL); inlined with a
 * constant NAMESZ for the stapsdt notes, which a provider load writes by
 * the thousand.
 */
static size_t head_encode(const struct sdt_target *t, const char *owner,
			  size_t namesz, size_t descsz, uint32_t type,
			  unsigned char *buf)
{
	size_t size = NHDR_SIZE + sdt_note_align4(namesz);

	put(t, buf, namesz, 4);
	put(t, buf + 4, descsz, 4);
	put(t, buf + 8, type, 4);
	memcpy(buf + NHDR_SIZE, owner, namesz);
	memset(buf + NHDR_SIZE + namesz, 0, size - NHDR_SIZE - namesz);
	return size;
}

size_t sdt_note_head_encode(const struct sdt_target *t, const char *owner,
			    size_t descsz, uint32_t type, unsigned char *buf)
{
	return head_encode(t, owner, strlen(owner) + 1, descsz, type, buf);
}

size_t sdt_note_encode(const struct sdt_target *t, const struct sdt_note *n,
		       unsigned char *buf)
{
	unsigned asz = sdt_target_addr_size(t);
	size_t total = sdt_note_size(t, n);
	unsigned char *p = buf;

	p += head_encode(t, SDT_NOTE_OWNER, OWNER_SIZE, desc_size(t, n),
			 SDT_NOTE_TYPE, p);
	put(t, p, n->pc, asz);
	put(t, p + asz, n->base, asz);
	put(t, p + 2 * asz, n->semaphore, asz);
	p += 3 * asz;
	p = sdt_note_put_str(p, n->provider);
	p = sdt_note_put_str(p, n->name);
	p = sdt_note_put_str(p, n->args ? n->args : "");
	memset(p, 0, (size_t)(buf + total - p));
	return total;
}

const char *sdt_note_take_str(const unsigned char **p, const unsigned char *end)
{
	const unsigned char *s = *p;
	const unsigned char *nul =
		s < end ? memchr(s, 0, (size_t)(end - s)) : NULL;

	if (!nul)
		return NULL;
	*p = nul + 1;
	return (const char *)s;
}

int sdt_note_decode(const struct sdt_target *t, const unsigned char *buf,
		    size_t len, size_t *off, struct sdt_note *n)
{
	unsigned asz = sdt_target_addr_size(t);
	size_t at = *off;

	if (at >= len)
		return -ENOENT;
	if (len - at < NHDR_SIZE)
		return -EINVAL;
	uint64_t namesz = get(t, buf + at, 4);
	uint64_t descsz = get(t, buf + at + 4, 4);
	uint64_t type = get(t, buf + at + 8, 4);
	size_t name_at = at + NHDR_SIZE;
	/* Sizes are 32-bit, so these sums cannot wrap a 64-bit size_t. */
	if (sdt_note_align4(namesz) > len - name_at)
		return -EINVAL;
	size_t desc_at = name_at + sdt_note_align4(namesz);
	if (sdt_note_align4(descsz) > len - desc_at) {
		/* The last note may omit its trailing padding. */
		if (descsz > len - desc_at)
			return -EINVAL;
	}
	size_t next = desc_at + sdt_note_align4(descsz);
	if (next > len)
		next = len;

	if (type != SDT_NOTE_TYPE || namesz != OWNER_SIZE ||
	    memcmp(buf + name_at, SDT_NOTE_OWNER, OWNER_SIZE) != 0) {
		*off = next;
		return 0;
	}
	const unsigned char *p = buf + desc_at;
	const unsigned char *end = p + descsz;
	if (descsz < 3 * (uint64_t)asz)
		return -EINVAL;
	n->pc = get(t, p, asz);
	n->base = get(t, p + asz, asz);
	n->semaphore = get(t, p + 2 * asz, asz);
	p += 3 * asz;
	n->provider = sdt_note_take_str(&p, end);
	n->name = n->provider ? sdt_note_take_str(&p, end) : NULL;
	/* Very old producers wrote no argument string for argless probes. */
	n->args = n->name ? (p < end ? sdt_note_take_str(&p, end) : "") : NULL;
	if (!n->provider || !n->name || !n->args)
		return -EINVAL;
	*off = next;
	return 1;
}
