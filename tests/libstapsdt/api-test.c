/* SPDX-License-Identifier: MIT */
/*
 * libstapsdt without a tracer: every validation error (code and message),
 * the names the public library accepts, repeated probe names, the state
 * rules it follows (double load and unload are no-ops, probes added while
 * loaded wait for the next load, errors clear on success),
 * what load and unload do to the public fields, file placement and its
 * cleanup (also after a load that failed half way), and the extensions
 * (argument types: probeSetArgInfo()'s checks and the records it loads;
 * providerExtend(): its state rules, what it leaves alone, its names, a
 * failed extend, its files and a forked child's).
 * Run by make check directly and under valgrind (valgrind.sh).
 *
 * Needs TMPDIR pointing at an empty private directory for the placement
 * checks (the shell wrapper gives one); skips them otherwise.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libstapsdt.h"

static int failures;

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__,          \
				__LINE__, #cond);                              \
			failures++;                                            \
		}                                                              \
	} while (0)

/* The last call failed with CODE and a message mentioning WORD. */
static void expect_error(SDTProvider_t *p, SDTError_t code, const char *word)
{
	if (p->errno != code || !p->error || !strstr(p->error, word)) {
		fprintf(stderr,
			"FAIL: expected error %d mentioning '%s', got %d: %s\n",
			code, word, p->errno, p->error ? p->error : "(null)");
		failures++;
	} else {
		printf("ok: %s\n", p->error);
	}
}

static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void test_validation(void)
{
	SDTProvider_t *p = providerInit("myprov");
	char longname[300];

	CHECK(p && p->errno == noError && p->error == NULL);
	CHECK(strcmp(p->name, "myprov") == 0 && p->probes == NULL);
	CHECK(!providerAddProbe(p, "", 0));
	expect_error(p, invalidNameError, "empty");
	CHECK(!providerAddProbe(p, "a b", 0));
	expect_error(p, invalidNameError, "blank");
	CHECK(!providerAddProbe(p, "tab\there", 0));
	expect_error(p, invalidNameError, "control");
	CHECK(!providerAddProbe(p, "a:b", 0));
	expect_error(p, invalidNameError, "':'");
	CHECK(!providerAddProbe(p, NULL, 0));
	expect_error(p, invalidNameError, "empty");
	memset(longname, 'x', 256);
	longname[256] = '\0';
	CHECK(!providerAddProbe(p, longname, 0));
	expect_error(p, invalidNameError, "too long");
	/* What the public library accepts and tracers attach to. */
	longname[255] = '\0';
	CHECK(providerAddProbe(p, longname, 0) != NULL);
	CHECK(p->errno == noError && p->error == NULL);
	CHECK(providerAddProbe(p, "a-b", 0) &&
	      providerAddProbe(p, "9lives", 0) &&
	      providerAddProbe(p, "probe.x", 0) &&
	      providerAddProbe(p, "caf\xc3\xa9", 0));
	CHECK(!providerAddProbe(p, "neg", -1));
	expect_error(p, invalidArgumentError, "-1 arguments");
	CHECK(!providerAddProbe(p, "many", 13, int8, int8, int8, int8, int8,
				int8, int8, int8, int8, int8, int8, int8,
				int8));
	expect_error(p, invalidArgumentError, "13 arguments");
	CHECK(!providerAddProbe(p, "badtype", 2, int32, 3));
	expect_error(p, invalidArgumentError, "argument 2");
	CHECK(!providerAddProbe(p, "notype", 1, noarg));
	expect_error(p, invalidArgumentError, "argument 1");
	CHECK(!providerAddProbeArgs(p, "nullarr", 2, NULL));
	expect_error(p, invalidArgumentError, "no types");
	CHECK(providerUseMemfd(p, (MemFDOption_t)7) == 0);
	expect_error(p, invalidArgumentError, "memfd option 7");
	/* A success clears the last error. */
	CHECK(providerAddProbe(p, "after", 0) != NULL);
	CHECK(p->errno == noError && p->error == NULL);
	providerDestroy(p);
	CHECK(providerInit(NULL) == NULL);
	providerDestroy(NULL);
}

/* Provider names: the public library's, its length limit and code. */
static void test_provider_names(void)
{
	const char *good[] = { "my-app", "my.app", "9lives", "a/b", NULL };
	char longname[202];
	SDTProvider_t *p;

	for (int i = 0; good[i]; i++) {
		p = providerInit(good[i]);
		CHECK(providerAddProbe(p, "probe-1", 1, int32) != NULL);
		CHECK(providerLoad(p) == 0);
		CHECK(p->errno == noError && p->error == NULL);
		providerDestroy(p);
	}
	memset(longname, 'p', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	p = providerInit(longname);
	CHECK(p != NULL && p->errno == noError);
	CHECK(providerLoad(p) == -1);
	expect_error(p, tmpCreationError, "201 characters");
	providerDestroy(p);
	p = providerInit("a:b");
	CHECK(providerLoad(p) == -1);
	expect_error(p, invalidNameError, "':'");
	providerDestroy(p);
}

/* A repeated name: one probe for tracers, one stub per call. */
static void test_repeats(void)
{
	SDTProvider_t *p = providerInit("rep");
	SDTProbe_t *a = providerAddProbe(p, "twice", 0);
	SDTProbe_t *b = providerAddProbe(p, "twice", 1, int8);

	CHECK(a && b && a != b);
	/* Still found among many (the name index grows several times). */
	for (int i = 0; i < 3000; i++) {
		char name[16];

		snprintf(name, sizeof(name), "many%d", i % 1500);
		CHECK(providerAddProbe(p, name, 0) != NULL);
	}
	CHECK(providerLoad(p) == 0);
	CHECK(a->_fire && b->_fire && a->_fire != b->_fire);
	probeFire(a);
	probeFire(b, 1);
	providerDestroy(p);
}

/* The loaded object's bytes (memfd placement), malloc()ed, or NULL. */
static char *object_bytes(const SDTProvider_t *p, size_t *size)
{
	char path[64], *buf = NULL;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", p->_memfd);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n)) &&
	    fread(buf, 1, (size_t)n, f) == (size_t)n)
		*size = (size_t)n;
	else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* How often the LEN bytes at WANT occur in the loaded object. */
static int occurrences(const SDTProvider_t *p, const char *want, size_t len)
{
	size_t size = 0;
	char *obj = object_bytes(p, &size), *at;
	int n = 0;

	CHECK(obj != NULL);
	for (at = obj;
	     obj && (at = memmem(at, size - (size_t)(at - obj), want, len));
	     at++)
		n++;
	free(obj);
	return n;
}

/* A record's descriptor, as docs/typed-probes.md spells it. */
#define DESC(s) (s), sizeof(s)

/* probeSetArgInfo(): validation, copies, and the records a load writes. */
static void test_arg_info(void)
{
	SDTProvider_t *p = providerInit("typed");
	SDTProbe_t *req = providerAddProbe(p, "req", 2, uint64, int32);
	SDTProbe_t *half = providerAddProbe(p, "half", 2, uint64, int32);
	SDTProbe_t *rep1 = providerAddProbe(p, "rep", 1, uint64);
	SDTProbe_t *rep2 = providerAddProbe(p, "rep", 1, uint64);
	SDTProbe_t *none = providerAddProbe(p, "none", 0);
	char type[] = "char*const  *", name[] = "argv", big[300];

	CHECK(probeSetArgInfo(NULL, 0, "int", "x") == -1);
	CHECK(probeSetArgInfo(req, 2, "int", "x") == -1);
	expect_error(p, invalidArgumentError, "index 2");
	CHECK(probeSetArgInfo(req, -1, "int", "x") == -1);
	expect_error(p, invalidArgumentError, "index -1");
	CHECK(probeSetArgInfo(none, 0, "int", "x") == -1);
	expect_error(p, invalidArgumentError, "it has 0");
	CHECK(probeSetArgInfo(req, 0, NULL, "x") == -1);
	expect_error(p, invalidArgumentError, "is missing");
	CHECK(probeSetArgInfo(req, 0, " ", "x") == -1);
	expect_error(p, invalidArgumentError, "names no type");
	CHECK(probeSetArgInfo(req, 0, "int; x", "x") == -1);
	expect_error(p, invalidArgumentError, "no C type has");
	CHECK(probeSetArgInfo(req, 0, "char\n*", "x") == -1);
	expect_error(p, invalidArgumentError, "no C type has");
	CHECK(probeSetArgInfo(req, 0, "int (*)(void", "x") == -1);
	expect_error(p, invalidArgumentError, "unpaired");
	CHECK(probeSetArgInfo(req, 0, "int [16)", "x") == -1);
	expect_error(p, invalidArgumentError, "unpaired");
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	CHECK(probeSetArgInfo(req, 0, big, "x") == -1);
	expect_error(p, invalidArgumentError, "too long");
	CHECK(probeSetArgInfo(req, 0, "int", big) == -1);
	expect_error(p, invalidNameError, "too long");
	CHECK(probeSetArgInfo(req, 0, "int", "9lives") == -1);
	expect_error(p, invalidNameError, "digit");
	CHECK(probeSetArgInfo(req, 0, "int", "a-b") == -1);
	expect_error(p, invalidNameError, "C identifier");

	/* Normalized, copied (the caller's buffers change), errors cleared;
	 * set twice, the last one counts. */
	CHECK(probeSetArgInfo(req, 0, "int", "first") == 0);
	CHECK(probeSetArgInfo(req, 0, type, name) == 0);
	CHECK(p->errno == noError && p->error == NULL);
	memset(type, 'x', sizeof(type) - 1);
	memset(name, 'y', sizeof(name) - 1);
	CHECK(probeSetArgInfo(req, 1, "int (*)( void*,int )", NULL) == 0);
	/* One argument of two: no record for half. */
	CHECK(probeSetArgInfo(half, 0, "const char *", "s") == 0);
	CHECK(probeSetArgInfo(rep1, 0, "const char *", "one") == 0);
	CHECK(probeSetArgInfo(rep2, 0, "long", "two") == 0);
	CHECK(providerLoad(p) == 0);
	CHECK(occurrences(p, DESC("typed\0req\0002\0char *const *\0argv\0"
				  "int (*)(void *, int)\0")) == 1);
	CHECK(occurrences(p, DESC("typed\0half\0")) == 0);
	/* One record per probe, in the order they were added: rep1's, its
	 * padding, then rep2's note header (little-endian: x86_64, aarch64). */
	CHECK(occurrences(p, DESC("typed\0rep\0001\0const char *\0one\0"
				  "\0\0\0\007\0\0\0\025\0\0\0\001\0\0\0"
				  "sdtkit\0\0typed\0rep\0001\0long")) == 1);
	CHECK(occurrences(p, DESC("typed\0rep\0001\0long\0two\0")) == 1);
	CHECK(occurrences(p, DESC("sdtkit\0")) == 3);

	/* Set while loaded: the object is unchanged until the next load. */
	CHECK(probeSetArgInfo(half, 1, "int", "n") == 0);
	CHECK(occurrences(p, DESC("typed\0half\0")) == 0);
	CHECK(providerUnload(p) == 0 && providerLoad(p) == 0);
	CHECK(occurrences(p, DESC("typed\0half\0002\0const char *\0s\0int\0n\0"
				  "")) == 1);
	providerDestroy(p);

	/* Without any: no section, no record. */
	p = providerInit("plain");
	CHECK(providerAddProbe(p, "x", 1, int32) != NULL);
	CHECK(providerLoad(p) == 0);
	CHECK(occurrences(p, DESC(".note.sdtkit")) == 0);
	providerDestroy(p);
}

static void test_lifecycle(void)
{
	SDTProvider_t *p = providerInit("life");
	SDTProbe_t *p0 = providerAddProbe(p, "p0", 0);
	SDTProbe_t *p12 = providerAddProbe(p, "p12", 12, int8, uint8, int16,
					   uint16, int32, uint32, int64, uint64,
					   int8, int16, int32, int64);

	SDTProbe_t *late;
	void *handle;

	CHECK(p0 && p12);
	CHECK(p12->argCount == 12 && p12->argFmt[0] == int8 &&
	      p12->argFmt[5] == uint32);
	CHECK(probeArgType(p12, 6) == int64 && probeArgType(p12, 11) == int64);
	CHECK(probeArgType(p12, 12) == noarg && probeArgType(p0, 0) == noarg);
	CHECK(p->probes && &p->probes->probe == p12 &&
	      &p->probes->next->probe == p0);
	CHECK(p0->provider == p && p0->_fire == NULL);
	/* Not loaded: firing and checking are no-ops. */
	probeFire(p0);
	CHECK(!probeIsEnabled(p12) && !probeIsEnabledInline(p12));
	CHECK(*probeSemaphore(p12) == 0);
	CHECK(providerUnload(p) == 0);

	CHECK(providerLoad(p) == 0);
	CHECK(p->errno == noError);
	CHECK(p0->_fire && p12->_fire && p->_handle);
	CHECK(p->_memfd >= 0 && p->_filename);
#if defined(__x86_64__)
	/* The check a Go binding makes by itself on an idle probe. */
	CHECK((*(uint8_t *)p0->_fire & 0x90) == 0x90);
	CHECK(*(uint8_t *)p0->_fire == 0x90);
#endif
	CHECK(!probeIsEnabled(p0) && !probeIsEnabled(p12));
	CHECK(!probeIsEnabledInline(p12) && *probeSemaphore(p12) == 0);
	CHECK(!SDT_SEMAPHORE_ENABLED(probeSemaphore(p0)));
	probeFire(p0);
	probeFire(p12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);

	/* Added while loaded: takes effect at the next load. */
	late = providerAddProbe(p, "late", 1, uint64);
	CHECK(late && late->_fire == NULL);
	probeFire(late, 1);
	handle = p->_handle;
	CHECK(providerLoad(p) == 0 && p->_handle == handle);
	CHECK(providerUseMemfd(p, memfd_disabled) == 0);
	expect_error(p, providerStateError, "placement");
	CHECK(providerLoad(p) == 0 && p->errno == noError && !p->error);

	CHECK(providerUnload(p) == 0);
	CHECK(p0->_fire == NULL && p->_handle == NULL && p->_memfd == -1);
	probeFire(p12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
	CHECK(!probeIsEnabled(p12));
	CHECK(providerUnload(p) == 0);

	CHECK(providerLoad(p) == 0);
	CHECK(p0->_fire != NULL && late->_fire != NULL);
	/* Destroy unloads first. */
	providerDestroy(p);
}

/* Stub and semaphore symbols never clash: refused when added. */
static void test_clash(void)
{
	SDTProvider_t *p = providerInit("cl");

	CHECK(providerAddProbe(p, "x", 0) != NULL);
	CHECK(!providerAddProbe(p, "cl_x_semaphore", 0));
	expect_error(p, duplicateProbeError, "cl_x_semaphore");
	CHECK(providerAddProbe(p, "cl_y_semaphore", 0) != NULL);
	CHECK(!providerAddProbe(p, "y", 0));
	expect_error(p, duplicateProbeError, "'y'");
	CHECK(providerLoad(p) == 0);
	providerDestroy(p);
}

static void test_file_mode(const char *tmp)
{
	SDTProvider_t *p = providerInit("filemode");
	struct stat st;
	char dir[4096];

	CHECK(providerUseMemfd(p, memfd_disabled) == 1);
	CHECK(providerAddProbe(p, "hit", 1, int32) != NULL);
	CHECK(providerLoad(p) == 0);
	CHECK(p->_memfd == -1 && p->_filename);
	printf("file mode object: %s\n", p->_filename);
	CHECK(strncmp(p->_filename, tmp, strlen(tmp)) == 0);
	CHECK(stat(p->_filename, &st) == 0 && S_ISREG(st.st_mode));
	snprintf(dir, sizeof(dir), "%s", p->_filename);
	*strrchr(dir, '/') = '\0';
	CHECK(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700);
	CHECK(providerUnload(p) == 0);
	CHECK(stat(dir, &st) == -1 && entries(tmp) == 0);
	/* Destroying a loaded file-mode provider removes its file too. */
	CHECK(providerLoad(p) == 0);
	CHECK(entries(tmp) == 1);
	providerDestroy(p);
	CHECK(entries(tmp) == 0);
}

/* Mappings of provider PROV's objects (two per object), or -1. */
static int object_maps(const char *prov)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096], want[64];
	int n = 0;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "libstapsdt-%s", prov);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, want) != NULL;
	fclose(f);
	return n;
}

/*
 * providerExtend(): loads what is not loaded, adds only what is new, into
 * an object with room for more (64 probes first), and leaves every loaded
 * probe and the public fields alone.
 */
static void test_extend(void)
{
	SDTProvider_t *p = providerInit("ext");
	SDTProbe_t *a = providerAddProbe(p, "a", 1, int64), *b, *c, *a2;
	const volatile unsigned short *sema_a;
	void *fire_a, *handle;
	struct rlimit rl;

	CHECK(providerExtend(NULL) == -1);
	/* Not loaded: it loads. */
	CHECK(providerExtend(p) == 0 && p->_handle && a->_fire);
	CHECK(p->errno == noError && p->error == NULL);
	CHECK(object_maps("ext") == 2);
	fire_a = a->_fire;
	sema_a = probeSemaphore(a);
	handle = p->_handle;
	/* Nothing new: nothing done. */
	CHECK(providerExtend(p) == 0 && object_maps("ext") == 2);
	/* b goes into an object with room; a and the public fields stay. */
	b = providerAddProbe(p, "b", 2, int32, uint8);
	CHECK(b && !b->_fire);
	CHECK(providerExtend(p) == 0 && b->_fire && object_maps("ext") == 4);
	CHECK(a->_fire == fire_a && probeSemaphore(a) == sema_a);
	CHECK(p->_handle == handle && probeSemaphore(b) != sema_a);
	probeFire(a, 1);
	probeFire(b, 2, 3);
	/* providerLoad() keeps the public rule: loaded, it does nothing. */
	c = providerAddProbe(p, "c", 0);
	CHECK(providerLoad(p) == 0 && c && !c->_fire);
	/* c fills the next slot of b's object: no mapping more. */
	CHECK(providerExtend(p) == 0 && c->_fire && object_maps("ext") == 4);
	CHECK((char *)c->_fire > (char *)b->_fire);
	/* A name again: another site, as in one load. */
	a2 = providerAddProbe(p, "a", 1, int64);
	CHECK(providerExtend(p) == 0 && a2->_fire && a2->_fire != a->_fire);
	CHECK(a->_fire == fire_a && object_maps("ext") == 4);
	/* The 64 slots filled (b, c, a2 and 61 more) in one extend. */
	for (int i = 0; i < 61; i++) {
		char name[16];

		snprintf(name, sizeof(name), "fill%d", i);
		CHECK(providerAddProbe(p, name, 1, uint64) != NULL);
	}
	CHECK(providerExtend(p) == 0 && object_maps("ext") == 4);
	/* The semaphore symbol rule holds across additions. */
	CHECK(!providerAddProbe(p, "ext_b_semaphore", 0));
	expect_error(p, duplicateProbeError, "ext_b_semaphore");
	/*
	 * A failed extend (a full object, and no descriptor for the next)
	 * leaves the provider as it was; the next one adds.
	 */
	c = providerAddProbe(p, "late", 0);
	CHECK(getrlimit(RLIMIT_NOFILE, &rl) == 0);
	{
		struct rlimit low = { 0, rl.rlim_max };

		CHECK(setrlimit(RLIMIT_NOFILE, &low) == 0);
		CHECK(providerExtend(p) == -1);
		CHECK(setrlimit(RLIMIT_NOFILE, &rl) == 0);
	}
	expect_error(p, tmpCreationError, "ext");
	CHECK(!c->_fire && a->_fire == fire_a && object_maps("ext") == 4);
	CHECK(providerExtend(p) == 0 && c->_fire && p->errno == noError);
	CHECK(object_maps("ext") == 6);
	/* Unload unpublishes all and gives back every object. */
	CHECK(providerUnload(p) == 0 && object_maps("ext") == 0);
	CHECK(!a->_fire && !b->_fire && !c->_fire && !a2->_fire);
	CHECK(!p->_handle && !p->_filename && p->_memfd == -1);
	CHECK(*probeSemaphore(b) == 0);
	/* The next load puts every probe into one object. */
	CHECK(providerExtend(p) == 0 && object_maps("ext") == 2);
	CHECK(a->_fire && b->_fire && c->_fire && a2->_fire);
	providerDestroy(p);
	CHECK(object_maps("ext") == 0);
}

/* File placement: one private directory per object; forks as for loads. */
static void test_extend_files(const char *tmp)
{
	SDTProvider_t *p = providerInit("extfile");
	pid_t pid;
	int status = -1;

	providerUseMemfd(p, memfd_disabled);
	providerAddProbe(p, "a", 0);
	CHECK(providerLoad(p) == 0 && entries(tmp) == 1);
	providerAddProbe(p, "b", 0);
	CHECK(providerExtend(p) == 0 && entries(tmp) == 2);
	/* A child's extend is its own: it removes its file, not ours. */
	pid = fork();
	if (pid == 0) {
		if (!providerAddProbe(p, "child", 0) ||
		    providerExtend(p) != 0 || entries(tmp) != 3)
			_exit(1);
		exit(0);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && status == 0);
	CHECK(entries(tmp) == 2);
	CHECK(providerUnload(p) == 0 && entries(tmp) == 0);
	CHECK(providerExtend(p) == 0 && entries(tmp) == 1);
	providerAddProbe(p, "c", 0);
	CHECK(providerExtend(p) == 0 && entries(tmp) == 2);
	providerDestroy(p);
	CHECK(entries(tmp) == 0);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	/* Placement checks need a private, empty TMPDIR and no other base. */
	unsetenv("XDG_RUNTIME_DIR");
	if (tmp && entries(tmp) != 0)
		tmp = NULL;
	test_validation();
	test_provider_names();
	test_repeats();
	test_lifecycle();
	test_clash();
	test_arg_info();
	test_extend();
	if (tmp) {
		test_file_mode(tmp);
		test_extend_files(tmp);
	} else
		printf("# placement checks skipped: TMPDIR is not an empty "
		       "directory\n");
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
