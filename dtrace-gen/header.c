/* SPDX-License-Identifier: MIT */
/*
 * The -h header: for each probe, the macro that fires it, its _ENABLED()
 * test and the declaration of its semaphore, over <sys/sdt.h>.
 *
 * The text follows SystemTap's dtrace line for line where projects depend
 * on it: the same macro and semaphore names, `#define _SDT_HAS_SEMAPHORES
 * 1' and `#define STAP_HAS_SEMAPHORES 1' spelled so that the usual sed
 * scripts (`s/define _SDT_HAS_SEMAPHORES 1/undef .../', `s/PROVIDER_/
 * TRACE_PROVIDER_/', `char *' to `const char *') keep working, STAP_SDT_V1
 * switching to the old `name_semaphore' symbols, and a comment with the
 * parameter list above each probe.
 *
 * One thing differs on purpose: _ENABLED() reads the semaphore through a
 * volatile lvalue. The tracer changes it behind the compiler's back, and a
 * plain read in a loop may be hoisted out of it (seen with gcc -O2), so
 * the loop would never notice a tracer that attaches while it runs.
 *
 * One thing is added: each probe's typed-probe record (argument types and
 * names, docs/typed-probes.md), so that builds without -G carry it too.
 * It is file-scope asm, not part of the probe macro: it adds no
 * instruction, leaves the code and the stapsdt notes exactly as they were,
 * and works the same in C and C++ at any optimization level. Each record
 * sits in a COMDAT group named after its probe, so the linker keeps one
 * copy however many files include the header. The assembler computes the
 * sizes, so the usual sed scripts over the header (`char *' to `const
 * char *') leave the record well formed. Only for ELF targets of GNU C
 * compilers (gcc, clang); SDTKIT_NO_TYPES leaves the records out.
 *
 * The output depends on the model only: no dates, paths or versions.
 */
#include "dtrace-gen.h"
#include "note.h"

#define VOLATILE_READ "*(volatile unsigned short *) &"
/* Records' COMDAT groups: this, then PROVIDER.PROBE. */
#define TYPES_GROUP ".sdtkit."

static void comment(const struct dg_probe *p, struct dg_buf *out)
{
	unsigned i;

	dg_buf_cat(out, "/* ", p->macro, " (", NULL);
	for (i = 0; i < p->nparams; i++)
		dg_buf_cat(out, i ? ", " : " ", p->params[i], NULL);
	dg_buf_puts(out, " ) */\n");
}

static void enabled(const struct dg_probe *p, struct dg_buf *out)
{
	dg_buf_cat(out, "#if defined STAP_SDT_V1\n#define ", p->macro,
		   "_ENABLED() __builtin_expect (" VOLATILE_READ,
		   p->semaphore_v1, ", 0)\n#define ", p->semaphore, " ",
		   p->semaphore_v1, "\n#else\n#define ", p->macro,
		   "_ENABLED() __builtin_expect (" VOLATILE_READ, p->semaphore,
		   ", 0)\n#endif\n", NULL);
	/* unsigned short: the size the kernel and tracers count in. */
	dg_buf_cat(out, "__extension__ extern unsigned short ", p->semaphore,
		   " __attribute__ ((unused)) "
		   "__attribute__ ((section (\".probes\")));\n",
		   NULL);
}

static void fire(const struct dg_probe *p, struct dg_buf *out)
{
	unsigned i;

	dg_buf_cat(out, "#define ", p->macro, "(", NULL);
	for (i = 0; i < p->nargs; i++) {
		dg_buf_puts(out, i ? ", arg" : "arg");
		dg_buf_uint(out, i + 1);
	}
	dg_buf_puts(out, ") \\\nDTRACE_PROBE");
	if (p->nargs)
		dg_buf_uint(out, p->nargs);
	dg_buf_cat(out, " (", p->provider, ", ", p->name, NULL);
	for (i = 0; i < p->nargs; i++) {
		dg_buf_puts(out, ", arg");
		dg_buf_uint(out, i + 1);
	}
	dg_buf_puts(out, ")\n\n");
}

/*
 * One line of a record's asm statement: LABEL, then `.asciz' of A and B
 * (when not NULL). Identifiers and type texts hold no `"' or `\'.
 */
static void asm_strings(const char *label, const char *a, const char *b,
			struct dg_buf *out)
{
	dg_buf_cat(out, "\t\"", label, "\\t.asciz \\\"", a, "\\\"", NULL);
	if (b)
		dg_buf_cat(out, ", \\\"", b, "\\\"", NULL);
	dg_buf_puts(out, "\\n\"\n");
}

/* The typed-probe record of P, as the -G object carries it. */
static void record(const struct dg_probe *p, struct dg_buf *out)
{
	char count[16];

	snprintf(count, sizeof(count), "%u", p->nargs);
	dg_buf_cat(out,
		   "__asm__ (\".pushsection " SDT_TYPES_SECTION
		   ",\\\"G\\\",\\\"note\\\"," TYPES_GROUP,
		   p->provider, ".", p->name, ",comdat\\n\"\n", NULL);
	/* namesz, descsz (the assembler counts it), type */
	dg_buf_puts(out, "\t\"\\t.balign 4\\n\"\n\t\"\\t.4byte ");
	dg_buf_uint(out, sizeof(SDT_TYPES_OWNER));
	dg_buf_puts(out, ", 2f - 1f, ");
	dg_buf_uint(out, SDT_TYPES_NT);
	dg_buf_puts(out, "\\n\"\n");
	asm_strings("", SDT_TYPES_OWNER, NULL, out);
	dg_buf_puts(out, "\t\"\\t.balign 4\\n\"\n");
	asm_strings("1:", p->provider, p->name, out);
	asm_strings("", count, NULL, out);
	for (unsigned i = 0; i < p->nargs; i++)
		asm_strings("", p->types[i], p->names[i], out);
	dg_buf_puts(out, "\t\"2:\\t.balign 4\\n\"\n"
			 "\t\"\\t.popsection\\n\");\n");
}

static void records(const struct dg_model *m, struct dg_buf *out)
{
	if (!m->nprobes)
		return;
	dg_buf_puts(out, "/* Each probe's argument types and names for tools "
			 "that read them (sdtkit's\n"
			 "   typed-probe records); define SDTKIT_NO_TYPES to "
			 "leave them out. */\n"
			 "#if defined __ELF__ && defined __GNUC__ && "
			 "!defined SDTKIT_NO_TYPES\n");
	for (size_t i = 0; i < m->nprobes; i++)
		record(&m->probes[i], out);
	dg_buf_puts(out, "#endif\n");
}

/* About the bytes the text for P takes, so the buffer grows once. */
static size_t probe_text_size(const struct dg_probe *p)
{
	size_t lp = strlen(p->provider), ln = strlen(p->name);
	size_t size =
		400 + 4 * lp + 5 * ln + 3 * strlen(p->macro) + 14 * p->nargs;

	for (unsigned i = 0; i < p->nparams; i++)
		size += strlen(p->params[i]) + 2;
	/* The record: its fixed text, then each argument's line. */
	size += 300 + 2 * lp + ln;
	for (unsigned i = 0; i < p->nargs; i++)
		size += strlen(p->types[i]) + strlen(p->names[i]) + 20;
	return size;
}

void dg_header_write(const struct dg_model *m, struct dg_buf *out)
{
	size_t i, size = 256;

	for (i = 0; i < m->nprobes; i++)
		size += probe_text_size(&m->probes[i]);
	dg_buf_reserve(out, size);

	dg_buf_puts(out,
		    "/* Generated by dtrace-gen from a provider description: "
		    "do not edit. */\n\n"
		    "#define _SDT_HAS_SEMAPHORES 1\n"
		    "#define STAP_HAS_SEMAPHORES 1 /* deprecated */\n\n"
		    "#include <sys/sdt.h>\n\n");
	for (i = 0; i < m->nprobes; i++) {
		comment(&m->probes[i], out);
		enabled(&m->probes[i], out);
		fire(&m->probes[i], out);
	}
	records(m, out);
}
