/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the ELF core that need no tracer: note encode/decode for
 * every target, the strict arg-spec grammar (accepted and refused forms per
 * architecture), and reading back objects the writers produce, with and
 * without the extra note section.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <elf.h>
#include <gelf.h>

#include "argspec.h"
#include "check.h"
#include "elfobj.h"
#include "names.h"
#include "note.h"
#include "target.h"

static const char *const targets[] = {
	"x86_64",  "i386",    "aarch64", "arm",
	"riscv64", "ppc64le", "ppc64",	 "s390x"
};
#define NTARGETS (sizeof(targets) / sizeof(targets[0]))

static void test_notes(void)
{
	for (size_t i = 0; i < NTARGETS; i++) {
		struct sdt_target t;
		unsigned char buf[256];
		struct sdt_note in = {
			0x1122334455667788ull, 0x1000, 0x2002, "prov", "name",
			"-4@%edi 8@-16(%rbp)"
		};
		struct sdt_note out;
		size_t off = 0;

		CHECKF(sdt_target_from_name(&t, targets[i]) == 0, "%s",
		       targets[i]);
		if (t.elf_class == ELFCLASS32)
			in.pc &= 0xffffffffu;
		size_t n = sdt_note_encode(&t, &in, buf);
		CHECKF(n == sdt_note_size(&t, &in) && n % 4 == 0, "%s size %zu",
		       targets[i], n);
		CHECKF(sdt_note_decode(&t, buf, n, &off, &out) == 1, "%s",
		       targets[i]);
		CHECKF(off == n && out.pc == in.pc && out.base == in.base &&
			       out.semaphore == in.semaphore &&
			       !strcmp(out.provider, "prov") &&
			       !strcmp(out.name, "name") &&
			       !strcmp(out.args, in.args),
		       "%s round trip", targets[i]);
		CHECKF(sdt_note_decode(&t, buf, n, &off, &out) == -ENOENT,
		       "%s end", targets[i]);
		/* Every truncation is refused, never read past. */
		for (size_t cut = 1; cut < n - 3; cut++) {
			unsigned char *p = malloc(n - cut);
			memcpy(p, buf, n - cut);
			off = 0;
			int r = sdt_note_decode(&t, p, n - cut, &off, &out);
			/* Only the trailing padding may go missing. */
			CHECKF(r == -EINVAL ||
				       (r == 1 && !strcmp(out.args, in.args)),
			       "%s cut %zu: %d", targets[i], cut, r);
			free(p);
		}
	}
}

struct spec_case {
	const char *target;
	const char *arg;
	int ok;
};

static const struct spec_case spec_cases[] = {
	{ "x86_64", "-4@%edi", 1 },
	{ "x86_64", "8@%rax", 1 },
	{ "x86_64", "1@%r8", 1 },
	{ "x86_64", "1@%r8b", 0 },
	{ "x86_64", "4@%r9d", 1 },
	{ "x86_64", "1@%sil", 1 },
	{ "x86_64", "1@%ah", 0 },
	{ "x86_64", "8@%eax", 0 },
	{ "x86_64", "8@-16(%rbp)", 1 },
	{ "x86_64", "8@(%rax)", 1 },
	{ "x86_64", "-4@$-5", 1 },
	{ "x86_64", "4@$0x10", 0 },
	{ "x86_64", "-4@gi(%rip)", 0 },
	{ "x86_64", "8@x@GOTPCREL(%rip)", 0 },
	{ "x86_64", "8@8+mp_(%rip)", 0 }, /* glibc 2.43 */
	{ "x86_64", "8@mp_+8(%rip)", 0 },
	{ "x86_64", "-4@%fs:t@tpoff", 0 },
	{ "x86_64", "4@8(%rax,%rbx,4)", 0 },
	{ "x86_64", "16@%rax", 0 },
	{ "x86_64", "8f@%xmm0", 0 },
	{ "x86_64", "8@%xmm0", 0 },
	{ "x86_64", "3@%eax", 0 },
	{ "x86_64", "4@8(%eax)", 0 },
	{ "x86_64", "4@$sym", 0 },
	{ "i386", "4@%eax", 1 },
	{ "i386", "8@%eax", 0 },
	{ "i386", "8@-8(%ebp)", 1 },
	{ "i386", "4@%rax", 0 },
	{ "i386", "4@%r8d", 0 },
	{ "aarch64", "-4@x0", 1 },
	{ "aarch64", "8@sp", 1 },
	{ "aarch64", "8@[x29, -16]", 1 },
	{ "aarch64", "8@[sp, 8]", 1 },
	{ "aarch64", "8@[x1]", 1 },
	{ "aarch64", "4@5", 1 },
	{ "aarch64", "4@w0", 0 },
	{ "aarch64", "8@d0", 0 },
	{ "aarch64", "8@x31", 0 },
	{ "aarch64", "8@[x1, x2]", 0 },
	{ "arm", "4@r0", 1 },
	{ "arm", "4@[r11, #-8]", 1 },
	{ "arm", "4@#5", 1 },
	{ "arm", "8@r0", 0 },
	{ "arm", "8@[sp, #8]", 1 },
	{ "arm", "4@s0", 0 },
	{ "riscv64", "-4@a0", 1 },
	{ "riscv64", "8@-24(s0)", 1 },
	{ "riscv64", "8@16(sp)", 1 },
	{ "riscv64", "4@7", 1 },
	{ "riscv64", "8@fa0", 0 },
	{ "riscv64", "8@%lo(x)(a5)", 0 },
	{ "ppc64le", "8@3", 1 },
	{ "ppc64le", "-4@-16(31)", 1 },
	{ "ppc64le", "8@32", 0 },
	{ "ppc64le", "4@i5", 0 },
	{ "s390x", "8@%r2", 1 },
	{ "s390x", "-4@160(%r15)", 1 },
	{ "s390x", "4@5", 1 },
	{ "s390x", "4@8(%r1,%r2)", 0 },
	{ "s390x", "8@%f0", 0 },
};

static int same_arg(const struct sdt_arg *x, const struct sdt_arg *y)
{
	return x->kind == y->kind && x->size == y->size &&
	       x->is_signed == y->is_signed && x->value == y->value &&
	       !strcmp(x->reg, y->reg);
}

/* Accepted forms we write back otherwise: the displacement spelled out. */
static const struct {
	const char *target, *arg, *canon;
} canon_cases[] = {
	{ "x86_64", "8@(%rax)", "8@0(%rax)" },
	{ "aarch64", "8@[x1]", "8@[x1, 0]" },
};

static const char *canonical(const struct spec_case *c)
{
	for (size_t i = 0; i < sizeof(canon_cases) / sizeof(canon_cases[0]);
	     i++) {
		if (!strcmp(c->target, canon_cases[i].target) &&
		    !strcmp(c->arg, canon_cases[i].arg))
			return canon_cases[i].canon;
	}
	return c->arg;
}

/*
 * What we accept we write back in its canonical form (mostly as given),
 * and that form reads back as the same argument.
 */
static void check_format_round_trip(const struct sdt_target *t,
				    const struct spec_case *c,
				    const struct sdt_arg *a)
{
	const char *want = canonical(c);
	struct sdt_arg again;
	char back[64] = "", why[200] = "";

	CHECKF(sdt_arg_format(t, a, back, sizeof(back)) > 0 &&
		       !strcmp(back, want),
	       "%s `%s' formats as `%s', expected `%s'", c->target, c->arg,
	       back, want);
	CHECKF(sdt_arg_parse(t, back, strlen(back), &again, why, sizeof(why)) ==
			       0 &&
		       same_arg(a, &again),
	       "%s `%s' does not read back: %s", c->target, back, why);
}

static void test_specs(void)
{
	for (size_t i = 0; i < sizeof(spec_cases) / sizeof(spec_cases[0]);
	     i++) {
		const struct spec_case *c = &spec_cases[i];
		struct sdt_target t;
		struct sdt_arg a;
		char why[200] = "";

		sdt_target_from_name(&t, c->target);
		int r = sdt_arg_parse(&t, c->arg, strlen(c->arg), &a, why,
				      sizeof(why));
		CHECKF((r == 0) == c->ok, "%s `%s': %s", c->target, c->arg,
		       r ? why : "accepted");
		if (r == 0)
			check_format_round_trip(&t, c, &a);
	}
	/* A spec with brackets splits on the spaces outside them only. */
	struct sdt_target t;
	struct sdt_arg args[SDT_MAX_ARGS];
	char why[200];
	sdt_target_from_name(&t, "aarch64");
	CHECKF(sdt_args_parse(&t, "8@[x29, -16] -4@x1  4@5", args, SDT_MAX_ARGS,
			      why, sizeof(why)) == 3,
	       "aarch64 split: %s", why);
	CHECKF(args[0].kind == SDT_ARG_MEM && args[0].value == -16 &&
		       !strcmp(args[0].reg, "x29"),
	       "aarch64 mem");
	CHECKF(sdt_args_parse(&t, "", args, SDT_MAX_ARGS, why, sizeof(why)) ==
		       0,
	       "empty spec");
	CHECKF(sdt_args_parse(&t, "1@x0 1@x0 1@x0", args, 2, why,
			      sizeof(why)) == -E2BIG,
	       "too many");
}

/* Where a function finds integer argument INDEX at entry, per target. */
static const struct {
	const char *target;
	unsigned index;
	const char *operand; /* NULL: past the limit */
} operand_cases[] = {
	{ "x86_64", 0, "%rdi" },      { "x86_64", 6, "8(%rsp)" },
	{ "x86_64", 11, "48(%rsp)" }, { "x86_64", SDT_MAX_ARGS, NULL },
	{ "aarch64", 7, "x7" },	      { "aarch64", 9, "[sp, 8]" },
};

static void test_operands(void)
{
	struct sdt_target t;
	char buf[32];

	for (size_t i = 0; i < sizeof(operand_cases) / sizeof(operand_cases[0]);
	     i++) {
		const char *want = operand_cases[i].operand;
		int r;

		sdt_target_from_name(&t, operand_cases[i].target);
		r = sdt_target_arg_operand(&t, operand_cases[i].index, buf,
					   sizeof(buf));
		if (want)
			CHECKF(r > 0 && !strcmp(buf, want),
			       "%s arg%u: %d `%s', expected `%s'",
			       operand_cases[i].target, operand_cases[i].index,
			       r, r > 0 ? buf : "", want);
		else
			CHECKF(r == -ENOTSUP, "%s arg%u: %d",
			       operand_cases[i].target, operand_cases[i].index,
			       r);
	}
	/* Every operand we hand out passes our own validator. */
	for (size_t i = 0; i < NTARGETS; i++) {
		sdt_target_from_name(&t, targets[i]);
		for (unsigned a = 0; a < sdt_target_max_args(&t); a++) {
			char spec[48];
			struct sdt_arg arg;
			char why[128];
			sdt_target_arg_operand(&t, a, buf, sizeof(buf));
			snprintf(spec, sizeof(spec), "-%u@%s",
				 sdt_target_addr_size(&t), buf);
			CHECKF(sdt_arg_parse(&t, spec, strlen(spec), &arg, why,
					     sizeof(why)) == 0,
			       "%s %s: %s", targets[i], spec, why);
		}
	}
}

/* The semaphore naming rule, both styles, sized and cut like snprintf. */
static void test_semaphore_names(void)
{
	char buf[64];
	size_t n;

	n = sdt_semaphore_symbol(buf, sizeof(buf), "my_prov", "probe__1",
				 SDT_SEMA_PROVIDER_PROBE);
	CHECKF(n == strlen(buf) && !strcmp(buf, "my_prov_probe__1_semaphore"),
	       "provider_probe: `%s' (%zu)", buf, n);
	n = sdt_semaphore_symbol(buf, sizeof(buf), "my_prov", "probe__1",
				 SDT_SEMA_V1);
	CHECKF(n == strlen(buf) && !strcmp(buf, "probe__1_semaphore"),
	       "V1: `%s' (%zu)", buf, n);
	CHECKF(sdt_semaphore_symbol(NULL, 0, "p", "x",
				    SDT_SEMA_PROVIDER_PROBE) ==
		       strlen("p_x_semaphore"),
	       "sizing call");
	memset(buf, 'z', sizeof(buf));
	n = sdt_semaphore_symbol(buf, 5, "p", "x", SDT_SEMA_PROVIDER_PROBE);
	CHECKF(n == strlen("p_x_semaphore") && !strcmp(buf, "p_x_"),
	       "cut to 5: `%.8s' (%zu)", buf, n);
}

static const unsigned char dso_stub[] = { 0x90, 0x0f, 0x1f, 0x44,
					  0x00, 0x00, 0xc3 };

/*
 * Probe J of a DSO read back as F from FD: its note says where the layout
 * put its stub and semaphore, and the file holds the stub's code at the
 * PC's offset (checked for every probe: stubs repeat, so an offset off by
 * a stride would still find one from the second probe on).
 */
static void check_dso_probe(int fd, const struct sdt_elf *f,
			    const struct sdt_dso_layout *lay, size_t j,
			    const struct sdt_dso_probe *want,
			    const char *target)
{
	const struct sdt_note *n = &f->probes[j].note;
	unsigned char code[sizeof(dso_stub)] = { 0 };
	uint64_t off;

	CHECK_STR(n->name, want->name);
	CHECK_STR(n->args, want->args);
	CHECKF(n->pc == lay->stub_addr + j * lay->stub_stride &&
		       n->semaphore == lay->sema_addr + 2 * j &&
		       n->base == f->base_addr,
	       "%s: note addresses of probe %zu", target, j);
	CHECKF(sdt_elf_addr_to_offset(f, n->pc, &off) == 0 &&
		       pread(fd, code, sizeof(code), (off_t)off) ==
			       sizeof(code) &&
		       !memcmp(code, dso_stub, sizeof(dso_stub)),
	       "%s: pc 0x%llx of probe %zu maps to no stub", target,
	       (unsigned long long)n->pc, j);
	CHECKF(sdt_elf_addr_to_offset(f, n->semaphore, &off) == 0,
	       "%s: semaphore of probe %zu maps to no file offset", target, j);
	CHECK_STR(sdt_elf_section_at(f, n->pc), ".text");
	CHECK_STR(sdt_elf_section_at(f, n->semaphore), ".probes");
}

/* Write a DSO for every target into memory and read it back. */
static void test_dso_roundtrip(void)
{
	const struct sdt_dso_probe probes[] = {
		{ "prov", "first", "", "first", "prov_first_semaphore" },
		{ "prov", "second", "-4@%rdi 8@%rsi", "second",
		  "prov_second_semaphore" },
	};
	const size_t nprobes = sizeof(probes) / sizeof(probes[0]);

	for (size_t i = 0; i < NTARGETS; i++) {
		struct sdt_dso d = { .soname = "libtest.so",
				     .stub = dso_stub,
				     .stub_size = sizeof(dso_stub),
				     .probes = probes,
				     .nprobes = nprobes };
		struct sdt_dso_layout lay;
		struct sdt_elf f;
		char err[200] = "";
		int fd = memfd_create("core-unit", MFD_CLOEXEC);

		sdt_target_from_name(&d.target, targets[i]);
		CHECKF(sdt_dso_write(fd, &d, &lay, err, sizeof(err)) == 0,
		       "%s: %s", targets[i], err);
		if (sdt_elf_open_fd(&f, fd, err, sizeof(err)) < 0) {
			CHECKF(0, "%s: %s", targets[i], err);
			close(fd);
			continue;
		}
		CHECKF(f.nprobes == nprobes && f.type == ET_DYN && f.has_base,
		       "%s: %zu probes", targets[i], f.nprobes);
		for (size_t j = 0; j < nprobes && j < f.nprobes; j++)
			check_dso_probe(fd, &f, &lay, j, &probes[j],
					targets[i]);
		sdt_elf_close(&f);
		close(fd);
	}
}

/* An "sdtkit" note of type 1, as a caller of the writers encodes it. */
static size_t sdtkit_note(const struct sdt_target *t, unsigned char *buf)
{
	static const char desc[] = "typed"; /* 6 bytes, padded to 8 */
	size_t n = sdt_note_head_encode(t, "sdtkit", sizeof(desc), 1, buf);

	memset(buf + n, 0, 8);
	memcpy(buf + n, desc, sizeof(desc));
	return n + 8;
}

static Elf_Scn *section_named(Elf *elf, const char *name)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) && gelf_getshdr(scn, &sh)) {
		const char *n = elf_strptr(elf, shstrndx, sh.sh_name);

		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/* Same kind, place and bytes (sh_link and sh_offset may move). */
static int same_section(Elf_Scn *a, Elf_Scn *b)
{
	GElf_Shdr x, y;
	Elf_Data *da, *db;

	if (!a || !b || !gelf_getshdr(a, &x) || !gelf_getshdr(b, &y))
		return 0;
	da = elf_rawdata(a, NULL);
	db = elf_rawdata(b, NULL);
	return x.sh_type == y.sh_type && x.sh_flags == y.sh_flags &&
	       x.sh_addr == y.sh_addr && x.sh_size == y.sh_size &&
	       x.sh_addralign == y.sh_addralign &&
	       x.sh_entsize == y.sh_entsize && x.sh_info == y.sh_info &&
	       (!x.sh_size || (da && db && da->d_size == db->d_size &&
			       !memcmp(da->d_buf, db->d_buf, da->d_size)));
}

static int same_phdrs(Elf *a, Elf *b)
{
	size_t na, nb;
	GElf_Phdr x, y;

	if (elf_getphdrnum(a, &na) || elf_getphdrnum(b, &nb) || na != nb)
		return 0;
	for (size_t i = 0; i < na; i++) {
		if (!gelf_getphdr(a, (int)i, &x) ||
		    !gelf_getphdr(b, (int)i, &y) || memcmp(&x, &y, sizeof(x)))
			return 0;
	}
	return 1;
}

/*
 * The object in EXTRA is the one in PLAIN plus the extra notes NOTES:
 * one more section, a non-allocated SHT_NOTE holding NOTES verbatim; every
 * other section and program header as it was (but the tables that move
 * or digest the file: .shstrtab, the build ID).
 */
static void check_extra_section(int plain, int extra, const void *notes,
				size_t size, const char *what)
{
	Elf *a = elf_begin(plain, ELF_C_READ, NULL);
	Elf *b = elf_begin(extra, ELF_C_READ, NULL);
	size_t na = 0, nb = 0, shstrndx;
	Elf_Scn *scn = NULL, *x;
	GElf_Shdr sh;

	CHECKF(a && b && !elf_getshdrnum(a, &na) && !elf_getshdrnum(b, &nb) &&
		       nb == na + 1,
	       "%s: %zu sections, then %zu", what, na, nb);
	x = b ? section_named(b, SDT_EXTRA_NOTE_SECTION) : NULL;
	Elf_Data *d = x ? elf_rawdata(x, NULL) : NULL;
	CHECKF(x && gelf_getshdr(x, &sh) && sh.sh_type == SHT_NOTE &&
		       sh.sh_flags == 0 && sh.sh_addralign == 4 && d &&
		       d->d_size == size && !memcmp(d->d_buf, notes, size),
	       "%s: " SDT_EXTRA_NOTE_SECTION " as given", what);
	CHECKF(a && b && same_phdrs(a, b), "%s: program headers", what);
	while (a && !elf_getshdrstrndx(a, &shstrndx) &&
	       (scn = elf_nextscn(a, scn)) && gelf_getshdr(scn, &sh)) {
		const char *name = elf_strptr(a, shstrndx, sh.sh_name);

		if (!name || !strcmp(name, ".shstrtab") ||
		    !strcmp(name, ".note.gnu.build-id"))
			continue;
		CHECKF(same_section(scn, section_named(b, name)),
		       "%s: %s changed", what, name);
	}
	elf_end(a);
	elf_end(b);
}

/* What readelf makes of FD: the section's type and the note's owner. */
static void check_readelf(int fd, const char *what)
{
	char cmd[128], line[512];
	int type_ok = 0, owner_ok = 0;
	FILE *p;

	if (system("readelf --version >/dev/null 2>&1")) {
		printf("%s: no readelf, its view not checked\n", what);
		return;
	}
	snprintf(cmd, sizeof(cmd), "LC_ALL=C readelf -SWn /proc/%d/fd/%d",
		 (int)getpid(), fd);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p)) {
		if (strstr(line, "] " SDT_EXTRA_NOTE_SECTION " ") &&
		    strstr(line, " NOTE "))
			type_ok = 1;
		if (strstr(line, "sdtkit ") && strstr(line, "0x00000006"))
			owner_ok = 1;
	}
	CHECKF(p && pclose(p) == 0 && type_ok && owner_ok,
	       "%s: readelf: NOTE section %d, sdtkit note %d", what, type_ok,
	       owner_ok);
}

static int memfd(void)
{
	return memfd_create("core-unit", MFD_CLOEXEC);
}

/* Both writers: the extra notes land as given, the rest stays. */
static void test_extra_notes(void)
{
	static const char *const syms[] = { "prov_a_semaphore",
					    "prov_b_semaphore" };
	static const unsigned char stub[] = { 0x90, 0xc3 };
	struct sdt_dso_probe probes[] = {
		{ "prov", "a", "8@%rdi", "a", "prov_a_semaphore" },
	};
	unsigned char notes[64];
	char err[200], what[64];

	elf_version(EV_CURRENT);
	for (size_t i = 0; i < NTARGETS; i++) {
		struct sdt_sema_object o = { .symbols = syms, .nsymbols = 2 };
		struct sdt_dso d = { .stub = stub,
				     .stub_size = sizeof(stub),
				     .probes = probes,
				     .nprobes = 1 };
		int fds[4] = { memfd(), memfd(), memfd(), memfd() };

		sdt_target_from_name(&o.target, targets[i]);
		d.target = o.target;
		size_t size = sdtkit_note(&o.target, notes);
		CHECKF(sdt_write_semaphore_object(fds[0], &o, err,
						  sizeof(err)) == 0,
		       "%s -G: %s", targets[i], err);
		CHECKF(sdt_dso_write(fds[2], &d, NULL, err, sizeof(err)) == 0,
		       "%s dso: %s", targets[i], err);
		o.extra_notes = d.extra_notes = notes;
		o.extra_notes_size = d.extra_notes_size = size;
		CHECKF(sdt_write_semaphore_object(fds[1], &o, err,
						  sizeof(err)) == 0,
		       "%s -G extra: %s", targets[i], err);
		CHECKF(sdt_dso_write(fds[3], &d, NULL, err, sizeof(err)) == 0,
		       "%s dso extra: %s", targets[i], err);
		snprintf(what, sizeof(what), "%s -G", targets[i]);
		check_extra_section(fds[0], fds[1], notes, size, what);
		check_readelf(fds[1], what);
		snprintf(what, sizeof(what), "%s dso", targets[i]);
		check_extra_section(fds[2], fds[3], notes, size, what);
		check_readelf(fds[3], what);
		/* Not whole padded notes: refused, by both. */
		o.extra_notes_size = d.extra_notes_size = size - 2;
		CHECKF(sdt_write_semaphore_object(fds[1], &o, err,
						  sizeof(err)) == -EINVAL &&
			       sdt_dso_write(fds[3], &d, NULL, err,
					     sizeof(err)) == -EINVAL,
		       "%s: ragged extra notes accepted", targets[i]);
		for (int k = 0; k < 4; k++)
			close(fds[k]);
	}
}

int main(void)
{
	test_notes();
	test_specs();
	test_operands();
	test_semaphore_names();
	test_dso_roundtrip();
	test_extra_notes();
	return check_status("core-unit");
}
