/* SPDX-License-Identifier: MIT */
/*
 * sdt-list --script PROG.bt FILE|-p PID: would this bpftrace program
 * attach to this build, and read only arguments its probes have?
 *
 * A script written for one release of a program attaches to the next by
 * provider:name and reads argN by position. bpftrace finds out only when
 * it runs: "No probes to attach", or a value read past the last argument
 * (bpftrace 0.17 refuses that at attach time, older ones read garbage).
 * This reads the program's text the way bpftrace's grammar splits it:
 * at the top level, a list of attach points (`usdt:PATH:PROVIDER:NAME',
 * `usdt:PATH:NAME', `U:...', with `*' wildcards and quoted
 * paths), an optional /predicate/, and a { block }; comments, strings and
 * preprocessor lines are skipped. In each block it notes the highest argN
 * read and any args.NAME, then checks every usdt attach point against the
 * objects of the target: some probe must match, and every probe that
 * matches must have the arguments the block reads.
 *
 * The script's path picks the object it is checked against when it names
 * one the target has (same file, base name or SONAME); a path the target
 * does not have (the script was written for another release) is checked
 * against every object, which is the question this mode answers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "contract.h"

#define SCRIPT_MAX (16u << 20) /* a bpftrace program is kilobytes */
#define MAX_NAMES 16	       /* args.NAME checked per block */

/*
 * One usdt attach point and what its block reads: a few hundred bytes and
 * its fields once (a program may hold tens of thousands).
 */
struct attach {
	unsigned line;
	char *text; /* as written; then path, provider, name, quotes removed */
	const char *path, *provider, *name; /* "" provider: any */
	int quoted;			    /* the path is quoted */
	int max_arg;			    /* highest argN read, -1 none */
	const char *names[MAX_NAMES];	    /* args.NAME (into the text) */
	size_t names_len[MAX_NAMES];
	size_t nnames;
};

struct bt_run {
	const char *script;
	const char *text, *end;
	struct side side;
	unsigned attach_points, problems, notes;
	int nomem; /* an allocation failed: the run is an error */
};

/* ------------------------------------------------------------------ */
/* Reading the program                                                 */

/* Past a string starting at P (its quote); END when unterminated. */
static const char *skip_string(const char *p, const char *end)
{
	char q = *p++;

	while (p < end && *p != q) {
		if (*p == '\\' && p + 1 < end)
			p++;
		p++;
	}
	return p < end ? p + 1 : end;
}

/* Past blanks, newlines (counted), comments and `#' lines at line start. */
static const char *skip_space(const char *p, const char *end, unsigned *line)
{
	int at_start = 1;

	while (p < end) {
		if (*p == '\n') {
			++*line;
			at_start = 1;
			p++;
		} else if (*p == ' ' || *p == '\t' || *p == '\r') {
			p++;
		} else if (at_start && *p == '#') {
			while (p < end && *p != '\n')
				p++;
		} else if (p + 1 < end && p[0] == '/' && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
		} else if (p + 1 < end && p[0] == '/' && p[1] == '*') {
			for (p += 2;
			     p + 1 < end && !(p[0] == '*' && p[1] == '/'); p++)
				*line += *p == '\n';
			p = p + 1 < end ? p + 2 : end;
		} else {
			break;
		}
	}
	return p;
}

static int is_ident(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* One identifier in a block: argN or args.NAME noted in A. */
static void block_ident(struct attach *a, const char *p, const char *q,
			const char *end)
{
	size_t n = (size_t)(q - p);

	if (n > 3 && !strncmp(p, "arg", 3) && p[3] >= '0' && p[3] <= '9') {
		int v = atoi(p + 3);

		for (const char *d = p + 3; d < q; d++) {
			if (*d < '0' || *d > '9')
				return;
		}
		if (v > a->max_arg)
			a->max_arg = v > 99 ? 99 : v;
		return;
	}
	if (n != 4 || strncmp(p, "args", 4))
		return;
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	if (q < end && *q == '.')
		q++;
	else if (q + 1 < end && q[0] == '-' && q[1] == '>')
		q += 2;
	else
		return;
	for (p = q; q < end && is_ident(*q); q++)
		;
	if (q > p && a->nnames < MAX_NAMES) {
		a->names[a->nnames] = p;
		a->names_len[a->nnames++] = (size_t)(q - p);
	}
}

/* The block at P (its `{'): what it reads into A. Returns past its `}'. */
static const char *scan_block(struct attach *a, const char *p, const char *end,
			      unsigned *line)
{
	int depth = 0;

	while (p < end) {
		p = skip_space(p, end, line);
		if (p >= end)
			break;
		if (*p == '"' || *p == '\'') {
			for (const char *s = p, *e = skip_string(p, end); s < e;
			     s++)
				*line += *s == '\n';
			p = skip_string(p, end);
		} else if (*p == '{') {
			depth++;
			p++;
		} else if (*p == '}') {
			p++;
			if (--depth == 0)
				break;
		} else if (is_ident(*p)) {
			const char *q = p;

			while (q < end && is_ident(*q))
				q++;
			block_ident(a, p, q, end);
			p = q;
		} else {
			p++;
		}
	}
	return p;
}

/* One attach point's text: up to a blank, `,' or `{' outside quotes. */
static const char *take_attach(const char *p, const char *end)
{
	/* a predicate follows a blank; a path's `/' is inside */
	while (p < end && !strchr(" \t\r\n,{", *p))
		p = *p == '"' ? skip_string(p, end) : p + 1;
	return p;
}

/*
 * The field at *S (up to `:' outside quotes, quotes removed) into OUT;
 * *S moves past its `:'. Returns whether it had quotes, or -1 at the end.
 */
static int take_field(const char **s, char **out)
{
	const char *p = *s;
	int quoted = 0, any = 0;

	if (!p)
		return -1;
	for (; *p && (quoted || *p != ':'); p++) {
		if (*p == '"') {
			quoted = !quoted;
			any = 1;
			continue;
		}
		*(*out)++ = *p;
	}
	*(*out)++ = '\0';
	*s = *p == ':' ? p + 1 : NULL;
	return any;
}

/*
 * The text [P, Q) is a usdt attach point: A gets it and its fields.
 * Returns 1, 0 when it is not one, -ENOMEM.
 */
static int parse_usdt(struct attach *a, const char *p, const char *q)
{
	size_t len = (size_t)(q - p);
	const char *f[3], *s;
	char *out;
	int n = 0, quoted[3] = { 0 };

	if (len > 5 && !strncmp(p, "usdt:", 5))
		s = p + 5;
	else if (len > 2 && !strncmp(p, "U:", 2))
		s = p + 2;
	else
		return 0;
	/* the text, then each field: at most its length + 1 more each */
	if (!(a->text = malloc(2 * len + 4)))
		return -ENOMEM;
	memcpy(a->text, p, len);
	a->text[len] = '\0';
	s = a->text + (s - p);
	out = a->text + len + 1;
	while (s && n < 3) {
		f[n] = out;
		quoted[n] = take_field(&s, &out);
		n++;
	}
	a->path = a->provider = "";
	if (n == 3) {
		a->path = f[0];
		a->provider = f[1];
	} else if (n == 2) {
		a->path = f[0];
	}
	a->quoted = n > 1 && quoted[0];
	a->name = f[n - 1];
	return 1;
}

/* ------------------------------------------------------------------ */
/* Checking one attach point                                           */

static void problem(struct bt_run *r, const struct attach *a, const char *obj)
{
	r->problems++;
	fprintf(stdout, "%s:%u: ", r->script, a->line);
	put_text(stdout, a->text);
	if (obj) {
		fputs(" in ", stdout);
		put_text(stdout, obj);
	}
	fputs(": ", stdout);
}

/*
 * PATTERN matches S, `*' matching any run of bytes: bpftrace's only
 * wildcard in usdt attach points (0.17 refuses a `?' as a syntax error).
 */
static int star_match(const char *pattern, const char *s)
{
	const char *star = NULL, *resume = NULL;

	while (*s) {
		if (*pattern == '*') {
			star = pattern++;
			resume = s;
		} else if (*pattern == *s) {
			pattern++;
			s++;
		} else if (star) {
			pattern = star + 1;
			s = ++resume;
		} else {
			return 0;
		}
	}
	while (*pattern == '*')
		pattern++;
	return !*pattern;
}

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The script's PATH names object SO of the target. */
static int names_object(const char *path, const struct side_object *so)
{
	char real[4096];

	if (!*path)
		return 1;
	if (star_match(path, so->name) || !strcmp(path, so->obj.attach))
		return 1;
	if (realpath(path, real) && !strcmp(real, so->obj.attach))
		return 1;
	if (!strcmp(base_of(path), base_of(so->name)))
		return 1;
	return so->soname[0] && !strcmp(base_of(path), so->soname);
}

static int has_arg_name(const struct group_sig *gs, const char *n, size_t len)
{
	for (unsigned i = 0; i < gs->sig.nargs; i++) {
		const char *an = gs->sig.args[i].name;

		if (an && strlen(an) == len && !strncmp(an, n, len))
			return 1;
	}
	return 0;
}

/* Probe G of SO matches A: does it have what A's block reads? */
static void check_probe(struct bt_run *r, const struct attach *a,
			const struct side_object *so, const struct group *g)
{
	const struct sdt_note *n = &group_probe(&so->obj, g)->note;
	struct group_sig gs;

	group_signature(&so->obj, g, &gs);
	if (a->max_arg >= 0 && (unsigned)a->max_arg >= gs.min_nargs) {
		problem(r, a, so->name);
		fprintf(stdout,
			"reads arg%d past the last argument: ", a->max_arg);
		put_text(stdout, n->provider);
		fputc(':', stdout);
		put_text(stdout, n->name);
		fprintf(stdout, " has %u\n", gs.min_nargs);
	}
	for (size_t i = 0; i < a->nnames; i++) {
		if (!gs.sig.rec ||
		    has_arg_name(&gs, a->names[i], a->names_len[i]))
			continue;
		problem(r, a, so->name);
		fprintf(stdout, "reads args.%.*s: ", (int)a->names_len[i],
			a->names[i]);
		put_text(stdout, n->provider);
		fputc(':', stdout);
		put_text(stdout, n->name);
		fputs(" has no argument of that name\n", stdout);
	}
}

/*
 * bpftrace 0.17 reads a USDT argument only where the machine passes a
 * function's arguments in registers (arg0..arg5 on x86_64): past that it
 * refuses the whole program ("x86_64 doesn't support arg6"), whichever
 * probe it is for. Said once per attach point.
 */
static void check_max_args(struct bt_run *r, const struct attach *a,
			   const struct side_object *so)
{
	unsigned max = bpftrace_max_args(&so->f.target);

	if (!max || a->max_arg < 0 || (unsigned)a->max_arg < max)
		return;
	problem(r, a, NULL);
	fprintf(stdout,
		"reads arg%d: bpftrace 0.17 reads arg0 to arg%u on %s and "
		"refuses the program\n",
		a->max_arg, max - 1, sdt_target_name(&so->f.target));
}

/* A's probes in SO; returns how many matched. */
static size_t check_in(struct bt_run *r, const struct attach *a,
		       const struct side_object *so)
{
	size_t matched = 0;

	for (size_t i = 0; i < so->obj.ngroups; i++) {
		const struct group *g = &so->obj.groups[i];
		const struct sdt_note *n = &group_probe(&so->obj, g)->note;

		if ((a->provider[0] && !star_match(a->provider, n->provider)) ||
		    !star_match(a->name, n->name))
			continue;
		if (!matched++)
			check_max_args(r, a, so);
		check_probe(r, a, so, g);
	}
	return matched;
}

/*
 * What bpftrace's grammar refuses in an attach point's path written
 * without quotes, as measured with each release on Debian (the test
 * tests/sdt-list/bt-paths.sh holds the installed one to it): a syntax
 * error, so the whole program never runs. Blanks, control bytes, `,' and
 * `{' end the attach point in every release. 0.17 also refuses a `+'
 * before `+', `-', `/' or `#' (`libstdc++.so.6'), and a `:' even quoted.
 */
static const struct bt_path_rule {
	const char *version;
	const char *chars;	/* refused anywhere in the path */
	const char *after_plus; /* refused right after a `+' */
	int ascii;		/* refuses bytes past 0x7e */
} bt_path_rules[] = {
	{ "0.17", "!$%&'(),:;<=>?@^`{|}~", "+-/#", 1 },
	{ "0.23", "!$%&'(),:;<=>?@^`{|}~", "", 1 },
	{ "0.27", "$,:@{", "", 0 },
};

/* Where RULE refuses the unquoted PATH (the bytes at the point), or NULL. */
static const char *path_refused(const struct bt_path_rule *rule,
				const char *path)
{
	for (const char *p = path; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c <= ' ' || c == 0x7f || (rule->ascii && c > 0x7e) ||
		    strchr(rule->chars, c))
			return p;
		if (c == '+' && p[1] && strchr(rule->after_plus, p[1]))
			return p;
	}
	return NULL;
}

/*
 * The releases whose grammar refuses A's path: a problem naming them and
 * the quoted form. Returns whether any does.
 */
static int check_path_grammar(struct bt_run *r, const struct attach *a)
{
	const char *at = NULL;
	char versions[64] = "", bad[3] = "";
	size_t n = 0;

	for (size_t i = 0; i < sizeof(bt_path_rules) / sizeof(*bt_path_rules);
	     i++) {
		const char *p =
			a->quoted ? NULL
				  : path_refused(&bt_path_rules[i], a->path);

		/* 0.17 reads a quoted `:' as the field's end all the same */
		if (a->quoted && i == 0 && strchr(a->path, ':'))
			p = strchr(a->path, ':');
		if (!p)
			continue;
		if (!at)
			at = p;
		n += (size_t)snprintf(versions + n, sizeof(versions) - n,
				      "%s%s", n ? ", " : "",
				      bt_path_rules[i].version);
	}
	if (!at)
		return 0;
	bad[0] = *at;
	bad[1] = *at == '+' ? at[1] : '\0';
	problem(r, a, NULL);
	fprintf(stdout, "bpftrace %s cannot parse the path at `", versions);
	put_text(stdout, bad);
	if (a->quoted) {
		fputs("' even quoted: attach through a link to it whose path "
		      "has no `:'\n",
		      stdout);
		return 1;
	}
	fputs("' (a syntax error): quote it, usdt:\"", stdout);
	put_text(stdout, a->path);
	fputs("\":", stdout);
	if (a->provider[0]) {
		put_text(stdout, a->provider);
		fputc(':', stdout);
	}
	put_text(stdout, a->name);
	fputc('\n', stdout);
	return 1;
}

static void check_attach(struct bt_run *r, const struct attach *a)
{
	size_t named = 0, matched = 0;

	r->attach_points++;
	if (check_path_grammar(r, a))
		return;
	if (strpbrk(a->provider, "?[") || strpbrk(a->name, "?[")) {
		problem(r, a, NULL);
		fputs("bpftrace's only wildcard is `*': `?' and `[' are a "
		      "syntax error\n",
		      stdout);
		return;
	}
	for (size_t i = 0; i < r->side.n; i++) {
		if (names_object(a->path, r->side.objs[i])) {
			named++;
			matched += check_in(r, a, r->side.objs[i]);
		}
	}
	/* Written for another build: the question is whether this one has it.
	 */
	for (size_t i = 0; !named && i < r->side.n; i++)
		matched += check_in(r, a, r->side.objs[i]);
	if (matched)
		return;
	problem(r, a, r->side.name);
	fputs("would not attach: no probe ", stdout);
	if (a->provider[0]) {
		put_text(stdout, a->provider);
		fputc(':', stdout);
	}
	put_text(stdout, a->name);
	fputs(" here\n", stdout);
}

/* ------------------------------------------------------------------ */
/* The program, top level                                              */

static int grow_list(struct attach **list, size_t *cap)
{
	size_t ncap = *cap ? 2 * *cap : 16;
	struct attach *grown = realloc(*list, ncap * sizeof(**list));

	if (!grown)
		return -ENOMEM;
	*list = grown;
	*cap = ncap;
	return 0;
}

/* The attach points before a block at P; the block; returns past it. */
static const char *check_clause(struct bt_run *r, const char *p, unsigned *line)
{
	struct attach *list = NULL;
	size_t n = 0, cap = 0;

	while (p < r->end && *p != '{' && !r->nomem) {
		unsigned at = *line;
		const char *q = take_attach(p, r->end);
		int k;

		if (q == p) {
			p++; /* a predicate, `=' of a config: not ours */
			continue;
		}
		if (n == cap && grow_list(&list, &cap) < 0) {
			r->nomem = 1;
			break;
		}
		memset(&list[n], 0, sizeof(list[n]));
		list[n].line = at;
		list[n].max_arg = -1;
		k = parse_usdt(&list[n], p, q);
		if (k < 0) {
			r->nomem = 1;
			break;
		}
		n += (size_t)k;
		p = q;
		p = skip_space(p, r->end, line);
		if (p < r->end && *p == ',')
			p++;
		p = skip_space(p, r->end, line);
		if (p < r->end && *p == '/') {
			/* the predicate: up to the block */
			while (p < r->end && *p != '{') {
				*line += *p == '\n';
				p = *p == '"' ? skip_string(p, r->end) : p + 1;
			}
		}
	}
	if (p < r->end && !r->nomem) {
		struct attach reads = { .max_arg = -1 };

		p = scan_block(&reads, p, r->end, line);
		for (size_t i = 0; i < n; i++) {
			list[i].max_arg = reads.max_arg;
			memcpy(list[i].names, reads.names, sizeof(reads.names));
			memcpy(list[i].names_len, reads.names_len,
			       sizeof(reads.names_len));
			list[i].nnames = reads.nnames;
			check_attach(r, &list[i]);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(list[i].text);
	free(list);
	return p;
}

static void check_program(struct bt_run *r)
{
	const char *p = r->text;
	unsigned line = 1;

	while (!r->nomem && (p = skip_space(p, r->end, &line)) < r->end)
		p = check_clause(r, p, &line);
}

static void btscript_usage(FILE *out)
{
	fputs("usage: sdt-list --script PROG.bt FILE|-p PID\n"
	      "Check each usdt probe the bpftrace program attaches to against\n"
	      "FILE or the process: some probe must match (wildcards too), "
	      "with\n"
	      "every argument (argN, args.NAME) the program reads. Exit: 0 "
	      "all\n"
	      "attach, 1 some would not or reads past the last argument, 2 an\n"
	      "input could not be read.\n",
	      out);
}

int btscript_main(int argc, char **argv)
{
	struct bt_run r = { 0 };
	int i = 1, status = 0, have_side = 0;
	size_t len = 0;
	char *text = NULL, err[256];

	for (int k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "-h") || !strcmp(argv[k], "--help")) {
			btscript_usage(stdout);
			return 0;
		}
	}
	while (i < argc && status == 0) {
		const char *a = argv[i];

		if (!strcmp(a, "--script") && i + 1 < argc && !r.script) {
			r.script = argv[i + 1];
			i += 2;
		} else if (have_side || (a[0] == '-' && a[1] != 'p' &&
					 strncmp(a, "--pid", 5))) {
			fputs("sdt-list: --script: unexpected `", stderr);
			put_text(stderr, a);
			fputs("'\n", stderr);
			status = EXIT_INPUT;
		} else {
			have_side = 1;
			status = side_open_arg(&r.side, argc, argv, &i);
		}
	}
	if (status)
		goto out;
	if (!r.script || !have_side) {
		btscript_usage(stderr);
		status = EXIT_INPUT;
		goto out;
	}
	text = read_text_input(r.script, SCRIPT_MAX, &len, err, sizeof(err));
	if (!text) {
		fputs("sdt-list: ", stderr);
		put_text(stderr, r.script);
		fprintf(stderr, ": %s\n", err);
		status = EXIT_INPUT;
		goto out;
	}
	r.text = text;
	r.end = text + len;
	check_program(&r);
	if (r.nomem) {
		fputs("sdt-list: ", stderr);
		put_text(stderr, r.script);
		fputs(": out of memory: the program is not checked\n", stderr);
		status = EXIT_INPUT;
		goto out;
	}
	if (!r.attach_points)
		printf("%s: no usdt probe in the program\n", r.script);
	else
		printf("%s: %u usdt attach point%s, %u problem%s\n", r.script,
		       r.attach_points, r.attach_points == 1 ? "" : "s",
		       r.problems, r.problems == 1 ? "" : "s");
	status = r.problems ? EXIT_CHECK : r.side.warning[0] ? EXIT_INPUT : 0;
out:
	if (have_side)
		side_close(&r.side);
	free(text);
	return status;
}
