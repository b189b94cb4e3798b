/* SPDX-License-Identifier: MIT */
/*
 * sdt-list --json: one object per probe site, for scripts.
 *
 * Every fact the text outputs show, unabbreviated: addresses as hex
 * strings (64-bit values do not survive every JSON reader as numbers),
 * null where a fact does not apply, each argument's spec, size, sign,
 * words, and its type and name (from the sdtkit type record, else the
 * size words), and with --check each consumer's verdict and reason.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "sdt-list.h"

void put_json_hex(FILE *out, const char *key, uint64_t v, int valid)
{
	fprintf(out, ",\"%s\":", key);
	if (valid)
		fprintf(out, "\"0x%" PRIx64 "\"", v);
	else
		fputs("null", out);
}

static void put_json_addr(FILE *out, const char *key,
			  const struct sdt_sym_ref *ref)
{
	char buf[512];

	fprintf(out, ",\"%s\":", key);
	if (!ref->symbol) {
		fputs("null", out);
		return;
	}
	addr_string(buf, sizeof(buf), ref, 0);
	put_json_str(out, buf);
}

static void json_type(FILE *out, const struct signature *sig, unsigned n)
{
	fputs(",\"type\":", out);
	if (n < sig->nargs)
		put_json_str(out, sig->args[n].type);
	else
		fputs("null", out);
	fputs(",\"name\":", out);
	if (n < sig->nargs && sig->args[n].name[0])
		put_json_str(out, sig->args[n].name);
	else
		fputs("null", out);
}

/* Each argument: spec, size and sign, words, and its type and name. */
static void json_args(FILE *out, const struct object *obj,
		      const struct sdt_probe *p)
{
	const char *spec = p->note.args;
	size_t pos = 0, start, len;
	struct signature sig;
	struct arg_desc d;

	probe_signature(&obj->types, p, &sig);
	fputs(",\"types_from\":", out);
	fputs(sig.rec ? "\"record\"" : "\"spec\"", out);
	fputs(",\"arguments\":[", out);
	for (int n = 0; sdt_arg_split(spec, &pos, &start, &len); n++) {
		describe_arg(&obj->f->target, spec + start, len, &d);
		fprintf(out, "%s{\"index\":%d,\"spec\":", n ? "," : "", n);
		put_json_str(out, d.spec);
		json_type(out, &sig, (unsigned)n);
		if ((unsigned)n < sig.nargs)
			layout_json(out, obj, &sig.args[n]);
		if (d.has_size)
			fprintf(out, ",\"size\":%d,\"signed\":%s,\"float\":%s",
				abs(d.size), d.size < 0 ? "true" : "false",
				d.is_float ? "true" : "false");
		else
			fputs(",\"size\":null,\"signed\":null,\"float\":false",
			      out);
		fputs(",\"kind\":", out);
		put_json_str(out, d.kind);
		fputs(",\"description\":", out);
		put_json_str(out, d.words);
		fprintf(out, ",\"portable\":%s",
			d.strict_ok ? "true" : "false");
		if (!d.strict_ok) {
			fputs(",\"reason\":", out);
			put_json_str(out, d.strict_why);
		}
		fputc('}', out);
	}
	fputc(']', out);
}

/* --check: the stale verdict and each consumer's, with reasons. */
static int json_check(FILE *out, struct object *obj, const struct sdt_probe *p,
		      const struct site *s)
{
	const struct verdict_set *vs = object_check(obj, p);
	const struct verdict *v = vs->v;

	if (!s->in_code) {
		fputs(",\"stale\":", out);
		put_json_str(out, stale_why);
	}
	fputs(",\"check\":{", out);
	for (int c = 0; c < CONSUMER_COUNT; c++) {
		fprintf(out, "%s\"%s\":{\"ok\":%s", c ? "," : "",
			consumer_name((enum consumer)c),
			v[c].ok ? "true" : "false");
		if (!v[c].ok) {
			if (v[c].arg >= 0)
				fprintf(out, ",\"argument\":%d", v[c].arg);
			fputs(",\"reason\":", out);
			put_json_str(out, v[c].why);
		}
		fputc('}', out);
	}
	fputc('}', out);
	return vs->bad || !s->in_code;
}

static int json_site(FILE *out, struct out *o, struct object *obj,
		     const struct sdt_probe *p)
{
	const struct sdt_elf *f = obj->f;
	const char *arch = consumer_arch(&f->target);
	struct site s;
	int bad = 0;

	site_facts(obj, p, &s);
	fputs(o->json_first ? "\n" : ",\n", out);
	o->json_first = 0;
	fputs("{\"file\":", out);
	put_json_str(out, obj->name);
	put_json_exact(out, "file", obj->name);
	if (obj->attach[0])
		put_json_path(out, "attach", obj->attach);
	else
		fputs(",\"attach\":null", out); /* no path reaches the object */
	if (obj->proc)
		fprintf(out, ",\"pid\":%d", obj->proc->pid);
	fputs(",\"arch\":", out);
	put_json_str(out, arch ? arch : sdt_target_name(&f->target));
	fputs(",\"provider\":", out);
	put_json_str(out, p->note.provider);
	fputs(",\"name\":", out);
	put_json_str(out, p->note.name);
	put_json_hex(out, "address", s.addr, 1);
	put_json_hex(out, "note_pc", p->note.pc, 1);
	put_json_hex(out, "base", p->note.base, 1);
	put_json_hex(out, "semaphore", p->note.semaphore, 1);
	put_json_hex(out, "file_offset", s.off, s.has_off);
	put_json_hex(out, "semaphore_offset", s.sema_off, s.has_sema_off);
	put_json_addr(out, "location", &p->pc_ref);
	put_json_addr(out, "semaphore_symbol", &p->sema_ref);
	fprintf(out, ",\"in_code\":%s", s.in_code ? "true" : "false");
	fputs(",\"section\":", out);
	if (s.section)
		put_json_str(out, s.section);
	else
		fputs("null", out);
	if (obj->proc) {
		put_json_hex(out, "runtime_address", s.runtime, s.has_runtime);
		put_json_hex(out, "semaphore_runtime_address", s.sema_runtime,
			     s.has_runtime && p->note.semaphore);
		if (p->note.semaphore && s.has_runtime && s.sema_read == 0)
			fprintf(out, ",\"semaphore_value\":%u", s.sema_value);
		else
			fputs(",\"semaphore_value\":null", out);
	}
	if (s.outside)
		o->status = EXIT_INPUT;
	fputs(",\"args\":", out);
	put_json_str(out, p->note.args);
	json_args(out, obj, p);
	if (o->o->check)
		bad = json_check(out, obj, p, &s);
	fputc('}', out);
	return bad;
}

void json_object(struct out *o, struct object *obj)
{
	const struct sdt_elf *f = obj->f;
	int bad = 0;

	for (size_t i = 0; i < f->nprobes; i++) {
		if (object_wanted(o->o, &f->probes[i].note))
			bad |= json_site(o->f, o, obj, &f->probes[i]);
	}
	if (bad && o->status == 0)
		o->status = EXIT_CHECK;
}
