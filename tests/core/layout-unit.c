/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the struct-layout descriptor (elfcore/layout.h): a good
 * one parses into the fields it spells, each kind of damage is refused
 * with a reason, random damage never crashes the parser (it reads files
 * we did not write), the note is found again in an object written for
 * every target, and an argument's type names the struct it points at.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "layout.h"

/*
 * struct order { long id; char name[16]; struct item it; int c[3]; }
 * holding struct item { int sku; unsigned f : 3; }, written with `|' for
 * the NULs (good() turns them back).
 */
static const char good_text[] = "struct order|2|"
				"struct|order|44|4|"
				"id|long|0|8|i||"
				"name|char [16]|8|16|c||"
				"it|struct item|24|8|t|1|"
				"c|int [3]|32|12|a|i:4:3|"
				"struct|item|8|2|"
				"sku|int|0|4|i||"
				"f|unsigned int|4|4|u|32:3|";

static char good[sizeof(good_text)];

/* TEXT with `|' made NULs into OUT; its length. */
static size_t nuls(const char *text, char *out)
{
	size_t n = strlen(text);

	for (size_t i = 0; i < n; i++)
		out[i] = text[i] == '|' ? '\0' : text[i];
	return n;
}

static void test_good(void)
{
	struct sdt_layout l;
	const char *why = NULL;
	size_t size;

	CHECKF(sdt_layout_parse(good, sizeof(good) - 1, &l, &why) == 0, "%s",
	       why ? why : "");
	if (why)
		return;
	check_str(__FILE__, __LINE__, "name", l.name, "struct order");
	CHECK(l.nstructs == 2);
	CHECK(l.structs[0].size == 44 && l.structs[0].nfields == 4);
	check_str(__FILE__, __LINE__, "field", l.structs[0].fields[1].name,
		  "name");
	CHECK(l.structs[0].fields[1].kind == SDT_FK_CHARS);
	CHECK(l.structs[0].fields[2].kind == SDT_FK_NESTED &&
	      l.structs[0].fields[2].nested == 1);
	CHECK(l.structs[0].fields[3].elem_kind == SDT_FK_INT &&
	      l.structs[0].fields[3].elem_size == 4 &&
	      l.structs[0].fields[3].count == 3);
	CHECK(l.structs[1].fields[1].bit_offset == 32 &&
	      l.structs[1].fields[1].bit_size == 3);
	CHECK(sdt_layout_desc(&l, &size) && size == sizeof(good) - 1);
	sdt_layout_free(&l);
}

/* GOOD with the first FROM replaced by TO (`|' for NULs): refused. */
static void refused(const char *ftext, const char *ttext)
{
	char buf[sizeof(good) + 64], from[64], to[64];
	size_t flen = nuls(ftext, from), tlen = nuls(ttext, to);
	const char *at = memmem(good, sizeof(good) - 1, from, flen);
	size_t head, len;
	struct sdt_layout l;
	const char *why = NULL;

	if (!at) {
		CHECKF(0, "test bug: `%s' not in the descriptor", ftext);
		return;
	}
	head = (size_t)(at - good);
	memcpy(buf, good, head);
	memcpy(buf + head, to, tlen);
	memcpy(buf + head + tlen, at + flen, sizeof(good) - 1 - head - flen);
	len = sizeof(good) - 1 - flen + tlen;
	CHECKF(sdt_layout_parse(buf, len, &l, &why) == -EINVAL && why,
	       "`%s' -> `%s' accepted", ftext, ttext);
}

static void test_refused(void)
{
	refused("t|1|", "t|2|");			/* no struct 2 */
	refused("t|1|", "t|0|");			/* itself */
	refused("|i||", "|x||");			/* no such kind */
	refused("32|12|", "36|12|");			/* past the end */
	refused("|44|", "|044|");			/* not plain decimal */
	refused("32|12|", "28|12|");			/* overlaps `it' */
	refused("i:4:3", "i:4:4611686018427387907");	/* 4 * count wraps */
	refused("t|1|", "o|1|");			/* extra for bytes */
	refused("|24|8|t", "|24|4|t");			/* struct item in 4 */
	refused("id|long|0|8", "id|long|0|3");		/* a 3-byte long */
	refused("name|char", "id|char");		/* two named id */
	refused("name|char", "int|char");		/* a keyword */
	refused("struct|item", "struct|if");		/* a keyword tag */
	refused("i:4:3", "i:4:4");			/* 16 bytes in 12 */
	refused("32:3", "62:3");			/* bits past the end */
	refused("struct|item", "stru|item");		/* no struct or union */
	refused("name|char", "na-me|char");		/* no C name */
	refused("32:3|", "32:3|x|");			/* trailing bytes */
	refused("sku|int|0|4|i||", "sku|int|0|4|t|1|"); /* two levels */
	{
		struct sdt_layout l;
		const char *why = NULL;

		for (size_t n = 0; n < sizeof(good) - 1; n++)
			CHECKF(sdt_layout_parse(good, n, &l, &why) != 0,
			       "cut at %zu accepted", n);
	}
}

/* Random damage: refused or parsed, never a crash or a read outside. */
static void test_damage(void)
{
	unsigned seed = 12345;

	for (int i = 0; i < 20000; i++) {
		size_t len = sizeof(good) - 1;
		char *buf = malloc(len);
		struct sdt_layout l;
		const char *why;

		memcpy(buf, good, len);
		for (int k = 0; k < 1 + i % 4; k++) {
			seed = seed * 1103515245 + 12345;
			buf[(seed >> 8) % len] = (char)(seed >> 20);
		}
		if (sdt_layout_parse(buf, len - (i % 3 == 0), &l, &why) == 0) {
			for (unsigned s = 0; s < l.nstructs; s++)
				for (unsigned f = 0; f < l.structs[s].nfields;
				     f++)
					CHECK(l.structs[s].fields[f].name);
			sdt_layout_free(&l);
		}
		free(buf);
	}
}

static void test_note(void)
{
	static const char *const targets[] = { "x86_64", "i386", "aarch64",
					       "s390x", "ppc64" };
	static const char *const syms[] = { "p_a_semaphore" };

	elf_version(EV_CURRENT);
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		struct sdt_sema_object o = { .symbols = syms, .nsymbols = 1 };
		unsigned char notes[512];
		size_t n = sizeof(good) - 1, got;
		struct sdt_elf f;
		const char *desc;
		char err[200];
		int fd = memfd_create("layout-unit", MFD_CLOEXEC);

		sdt_target_from_name(&o.target, targets[i]);
		CHECK(sdt_layout_note_size(n) <= sizeof(notes));
		o.extra_notes = notes;
		o.extra_notes_size =
			sdt_layout_note_encode(&o.target, good, n, notes);
		CHECKF(sdt_write_semaphore_object(fd, &o, err, sizeof(err)) ==
			       0,
		       "%s: %s", targets[i], err);
		CHECKF(sdt_elf_open_fd(&f, fd, err, sizeof(err)) == 0, "%s: %s",
		       targets[i], err);
		CHECKF(sdt_layout_find_note(&f, "struct order", &desc, &got) ==
				       0 &&
			       got == n && !memcmp(desc, good, n),
		       "%s: the note is not found again", targets[i]);
		CHECKF(sdt_layout_find_note(&f, "struct orde", &desc, &got) ==
			       -ENOENT,
		       "%s: a prefix of the name matched", targets[i]);
		sdt_elf_close(&f);
		close(fd);
	}
}

static void pointee(const char *type, const char *want)
{
	char out[64];
	int r = sdt_layout_pointee(type, out, sizeof(out));

	if (!want)
		CHECKF(r < 0, "`%s' points at `%s'", type, out);
	else if (r < 0)
		CHECKF(0, "`%s' points at nothing, expected `%s'", type, want);
	else
		check_str(__FILE__, __LINE__, type, out, want);
}

static void test_pointee(void)
{
	pointee("struct order *", "struct order");
	pointee("const struct order *const", "struct order");
	pointee("union value *", "union value");
	pointee("ticket_t *", "ticket_t");
	pointee("const LOCKTAG *", "LOCKTAG");
	pointee("struct order", NULL);
	pointee("struct order **", NULL);
	pointee("int *", NULL);
	pointee("unsigned int *", NULL);
	pointee("char *", NULL);
	pointee("void *", NULL);
	pointee("int (*)(void *)", NULL);
	pointee("char [16]", NULL);
}

int main(void)
{
	nuls(good_text, good);
	test_good();
	test_refused();
	test_damage();
	test_note();
	test_pointee();
	return check_status("layout-unit");
}
