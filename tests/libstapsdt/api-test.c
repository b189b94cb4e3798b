/* SPDX-License-Identifier: MIT */
/*
 * libstapsdt without a tracer: every validation error (code and message),
 * the state rules (no probes added to a loaded provider, no double load),
 * what load and unload do to the public fields, file placement and its
 * cleanup (also after a load that failed half way), and the extensions.
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
#include <sys/stat.h>
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
	char longname[200];

	CHECK(p && p->errno == noError && p->error == NULL);
	CHECK(strcmp(p->name, "myprov") == 0 && p->probes == NULL);
	CHECK(!providerAddProbe(p, "", 0));
	expect_error(p, invalidNameError, "empty");
	CHECK(!providerAddProbe(p, "a-b", 0));
	expect_error(p, invalidNameError, "a-b");
	CHECK(!providerAddProbe(p, "9lives", 0));
	expect_error(p, invalidNameError, "digit");
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CHECK(!providerAddProbe(p, longname, 0));
	expect_error(p, invalidNameError, "longer");
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
	CHECK(providerAddProbe(p, "twice", 0) != NULL);
	CHECK(!providerAddProbe(p, "twice", 1, int8));
	expect_error(p, duplicateProbeError, "twice");
	/* Still found among many (the name index grows several times). */
	for (int i = 0; i < 3000; i++) {
		char name[16];

		snprintf(name, sizeof(name), "many%d", i);
		CHECK(providerAddProbe(p, name, 0) != NULL);
	}
	CHECK(!providerAddProbe(p, "twice", 0) && !providerAddProbe(p, "many0", 0) &&
	      !providerAddProbe(p, "many2999", 0) && !providerAddProbe(p, "many1234", 0));
	expect_error(p, duplicateProbeError, "many1234");
	CHECK(providerAddProbe(p, "many3000", 0) != NULL);
	CHECK(providerUseMemfd(p, (MemFDOption_t)7) == 0);
	expect_error(p, invalidArgumentError, "memfd option 7");
	providerDestroy(p);

	/* A bad provider name: reported at once and again by the load. */
	p = providerInit("my.prov");
	CHECK(p != NULL);
	expect_error(p, invalidNameError, "my.prov");
	CHECK(providerAddProbe(p, "ok", 0) != NULL);
	CHECK(providerLoad(p) == -1);
	expect_error(p, invalidNameError, "my.prov");
	providerDestroy(p);
	CHECK(providerInit(NULL) == NULL);
	providerDestroy(NULL);
}

static void test_lifecycle(void)
{
	SDTProvider_t *p = providerInit("life");
	SDTProbe_t *p0 = providerAddProbe(p, "p0", 0);
	SDTProbe_t *p12 =
	    providerAddProbe(p, "p12", 12, int8, uint8, int16, uint16, int32,
			     uint32, int64, uint64, int8, int16, int32, int64);

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
#endif
	CHECK(!probeIsEnabled(p0) && !probeIsEnabled(p12));
	CHECK(!probeIsEnabledInline(p12) && *probeSemaphore(p12) == 0);
	CHECK(!SDT_SEMAPHORE_ENABLED(probeSemaphore(p0)));
	probeFire(p0);
	probeFire(p12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);

	CHECK(!providerAddProbe(p, "late", 0));
	expect_error(p, providerStateError, "providerUnload");
	CHECK(providerLoad(p) == -1);
	expect_error(p, providerStateError, "already loaded");
	CHECK(providerUseMemfd(p, memfd_disabled) == 0);
	expect_error(p, providerStateError, "placement");

	CHECK(providerUnload(p) == 0);
	CHECK(p0->_fire == NULL && p->_handle == NULL && p->_memfd == -1);
	probeFire(p12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
	CHECK(!probeIsEnabled(p12));
	CHECK(providerUnload(p) == 0);

	/* Unloaded: probes may be added and the provider loaded again. */
	CHECK(providerAddProbe(p, "late", 1, uint64) != NULL);
	CHECK(providerLoad(p) == 0);
	CHECK(p0->_fire != NULL);
	/* Destroy unloads first. */
	providerDestroy(p);
}

static void test_clash(const char *tmp)
{
	SDTProvider_t *p = providerInit("cl");

	providerUseMemfd(p, memfd_disabled);
	CHECK(providerAddProbe(p, "x", 0) != NULL);
	CHECK(providerAddProbe(p, "cl_x_semaphore", 0) != NULL);
	CHECK(providerLoad(p) == -1);
	expect_error(p, duplicateProbeError, "cl_x_semaphore");
	/* The failed load left nothing behind. */
	if (tmp)
		CHECK(entries(tmp) == 0);
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

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	/* Placement checks need a private, empty TMPDIR and no other base. */
	unsetenv("XDG_RUNTIME_DIR");
	if (tmp && entries(tmp) != 0)
		tmp = NULL;
	test_validation();
	test_lifecycle();
	test_clash(tmp);
	if (tmp)
		test_file_mode(tmp);
	else
		printf("# placement checks skipped: TMPDIR is not an empty "
		       "directory\n");
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
