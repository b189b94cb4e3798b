/* SPDX-License-Identifier: MIT */
/*
 * Where a provider's shared object lives, how it is loaded, published,
 * retired and finally closed (internal.h tells the concurrency story).
 *
 * Placement. A memfd by default: nothing on disk, and tracers find it
 * through /proc/PID/fd as long as the descriptor stays open (bpftrace -p
 * was seen to miss a memfd object whose descriptor had been closed). We
 * dlopen it as /proc/PID/fd/N, not /proc/self/fd/N: debuggers open the
 * names in the link map from their own process. A file instead when asked (or
 * when memfd or /proc is missing): in a fresh 0700 directory made by mkdtemp()
 * under $XDG_RUNTIME_DIR, $TMPDIR or /tmp, skipping read-only and noexec
 * mounts, created O_EXCL|O_NOFOLLOW; removed on unload, destroy, a failed load
 * and at exit (a destructor walks the registry).
 *
 * Retiring. An unloaded object stays mapped until providerDestroy(), but
 * tracers must stop seeing it: its file is removed, or its memfd number is
 * pointed at /dev/null. The number stays taken on purpose: glibc finds an
 * already-loaded object by the name it was opened under, so a new memfd
 * reusing N would be mistaken for the retired /proc/PID/fd/N.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "elfobj.h"
#include "internal.h"

const volatile unsigned short sdt_idle_semaphore;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sdt_provider *placed; /* providers with a file on disk */
static unsigned long load_count;    /* makes memfd names unique */

void sdt_registry_lock(void)
{
	pthread_mutex_lock(&registry_lock);
}

void sdt_registry_unlock(void)
{
	pthread_mutex_unlock(&registry_lock);
}

static void placed_add(struct sdt_provider *p)
{
	p->next_placed = placed;
	placed = p;
}

static void placed_remove(struct sdt_provider *p)
{
	for (struct sdt_provider **pp = &placed; *pp; pp = &(*pp)->next_placed)
		if (*pp == p) {
			*pp = p->next_placed;
			p->next_placed = NULL;
			return;
		}
}

static void remove_file(const char *path, char **dir)
{
	if (path)
		unlink(path);
	if (*dir) {
		rmdir(*dir);
		free(*dir);
		*dir = NULL;
	}
}

/* At exit (or when we are unloaded): no file of ours stays behind. */
__attribute__((destructor)) static void remove_placed_files(void)
{
	sdt_registry_lock();
	for (struct sdt_provider *p = placed; p; p = p->next_placed)
		remove_file(p->pub._filename, &p->dir);
	placed = NULL;
	sdt_registry_unlock();
}

static int usable_dir(const char *base)
{
	struct statvfs st;

	if (!base || base[0] != '/')
		return 0;
	if (statvfs(base, &st) < 0)
		return 0;
	return !(st.f_flag & (ST_NOEXEC | ST_RDONLY));
}

static char *make_private_dir(void)
{
	const char *bases[] = {secure_getenv("XDG_RUNTIME_DIR"),
			       secure_getenv("TMPDIR"), "/tmp"};

	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		char *dir;

		if (!usable_dir(bases[i]))
			continue;
		if (asprintf(&dir, "%s/libstapsdt-XXXXXX", bases[i]) < 0)
			return NULL;
		if (mkdtemp(dir))
			return dir;
		free(dir);
	}
	return NULL;
}

/* A memfd for P's object, and the path dlopen() takes it by; or -1. */
static int place_memfd(struct sdt_provider *p, char **path)
{
	char name[SDT_NAME_MAX + 48];
	int fd;

	/* Asked once: /proc does not come and go under a running program. */
	static int have_proc = -1;

	if (__atomic_load_n(&have_proc, __ATOMIC_RELAXED) < 0)
		__atomic_store_n(&have_proc, access("/proc/self/fd", X_OK) == 0,
				 __ATOMIC_RELAXED);
	if (!__atomic_load_n(&have_proc, __ATOMIC_RELAXED))
		return -1;
	snprintf(name, sizeof(name), "libstapsdt-%s-%lu", p->pub.name,
		 ++load_count);
	fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (asprintf(path, "/proc/%ld/fd/%d", (long)getpid(), fd) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int place_file(struct sdt_provider *p, char **path)
{
	SDTProvider_t *pub = &p->pub;
	int fd;

	p->dir = make_private_dir();
	if (!p->dir)
		return sdt_set_error(
		    pub, tmpCreationError,
		    "libstapsdt: provider '%s': no directory "
		    "for its object: $XDG_RUNTIME_DIR, $TMPDIR "
		    "and /tmp are all missing, read-only, "
		    "noexec or full; point TMPDIR at a "
		    "writable, exec-mounted directory",
		    pub->name);
	if (asprintf(path, "%s/libstapsdt-%s.so", p->dir, pub->name) < 0) {
		*path = NULL;
		remove_file(NULL, &p->dir);
		return sdt_set_error(pub, outOfMemoryError,
				     "libstapsdt: provider '%s': out of memory",
				     pub->name);
	}
	fd = open(*path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0) {
		int err = errno;

		sdt_set_error(pub, tmpCreationError,
			      "libstapsdt: provider '%s': cannot create %s: %s",
			      pub->name, *path, strerror(err));
		remove_file(NULL, &p->dir);
		free(*path);
		*path = NULL;
		return -1;
	}
	return fd;
}

/* The load base of HANDLE, checked against where we expect probe 0. */
static int object_base(struct sdt_provider *p, void *handle, const char *path,
		       const struct sdt_dso_layout *layout, uintptr_t *base)
{
	struct link_map *lm = NULL;
	SDTProbeList_t *first = p->pub.probes;

	if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) < 0 || !lm)
		return sdt_set_error(&p->pub, symbolLoadingError,
				     "libstapsdt: provider '%s': no link map "
				     "for %s: %s",
				     p->pub.name, path, dlerror());
	*base = (uintptr_t)lm->l_addr;
	if (first) {
		unsigned idx = sdt_node_of(&first->probe)->index;
		void *sym = dlsym(handle, first->probe.name);
		uintptr_t want =
		    *base + layout->stub_addr + idx * layout->stub_stride;

		if ((uintptr_t)sym != want)
			return sdt_set_error(
			    &p->pub, symbolLoadingError,
			    "libstapsdt: provider '%s': stub '%s' of %s is "
			    "at %p, not where its layout puts it (%#lx)",
			    p->pub.name, first->probe.name, path, sym,
			    (unsigned long)want);
	}
	return 0;
}

static void publish(struct sdt_provider *p, uintptr_t base,
		    const struct sdt_dso_layout *layout)
{
	for (SDTProbeList_t *l = p->pub.probes; l; l = l->next) {
		struct sdt_probe_node *n = sdt_node_of(&l->probe);
		uintptr_t stub =
		    base + layout->stub_addr + n->index * layout->stub_stride;
		uintptr_t sema = base + layout->sema_addr + 2 * n->index;

		__atomic_store_n(&n->pub._semaphore,
				 (const volatile unsigned short *)sema,
				 __ATOMIC_RELEASE);
		__atomic_store_n(&l->probe._fire, (void *)stub,
				 __ATOMIC_RELEASE);
	}
}

int sdt_load(struct sdt_provider *p)
{
	SDTProvider_t *pub = &p->pub;
	struct sdt_dso_layout layout;
	struct sdt_target host;
	char *path = NULL;
	void *handle = NULL;
	uintptr_t base = 0;
	int fd = -1, memfd = 0;
	/* Allocated now so that unloading cannot fail for want of memory. */
	struct sdt_retired *r;

	if (p->loaded)
		return sdt_set_error(pub, providerStateError,
				     "libstapsdt: provider '%s' is already "
				     "loaded: call providerUnload() first",
				     pub->name);
	r = calloc(1, sizeof(*r));
	if (!r)
		return sdt_set_error(pub, outOfMemoryError,
				     "libstapsdt: provider '%s': out of memory",
				     pub->name);
	if (pub->_use_memfd == memfd_enabled) {
		fd = place_memfd(p, &path);
		memfd = fd >= 0;
	}
	if (fd < 0)
		fd = place_file(p, &path);
	if (fd < 0) {
		free(r);
		return -1;
	}
	sdt_target_host(&host);
	if (sdt_object_write(pub, &host, fd, &layout) < 0)
		goto fail;
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		sdt_set_error(pub, sharedLibraryOpenError,
			      "libstapsdt: provider '%s': cannot load its "
			      "object %s: %s",
			      pub->name, path, dlerror());
		goto fail;
	}
	if (object_base(p, handle, path, &layout, &base) < 0)
		goto fail;
	publish(p, base, &layout);
	if (!memfd) {
		close(fd);
		fd = -1;
		placed_add(p);
	}
	free(pub->_filename);
	pub->_filename = path;
	pub->_handle = handle;
	pub->_memfd = fd;
	p->live = r;
	p->loaded = 1;
	return 0;
fail:
	/* Nothing was published: the object may go at once. */
	if (handle)
		dlclose(handle);
	if (!memfd)
		remove_file(path, &p->dir);
	close(fd);
	free(path);
	free(r);
	return -1;
}

/* Keep memfd number FD taken, but by something no tracer looks into. */
static int hide_memfd(int fd)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (null < 0)
		null = memfd_create("libstapsdt-retired", MFD_CLOEXEC);
	if (null < 0 || dup3(null, fd, O_CLOEXEC) < 0) {
		if (null >= 0)
			close(null);
		return -1;
	}
	close(null);
	return 0;
}

int sdt_unload(struct sdt_provider *p)
{
	SDTProvider_t *pub = &p->pub;
	struct sdt_retired *r;

	if (!p->loaded)
		return 0;
	r = p->live;
	p->live = NULL;
	for (SDTProbeList_t *l = pub->probes; l; l = l->next) {
		struct sdt_probe_node *n = sdt_node_of(&l->probe);

		__atomic_store_n(&l->probe._fire, NULL, __ATOMIC_RELEASE);
		__atomic_store_n(&n->pub._semaphore, &sdt_idle_semaphore,
				 __ATOMIC_RELEASE);
	}
	r->handle = pub->_handle;
	r->fd = pub->_memfd;
	if (r->fd >= 0 && hide_memfd(r->fd) < 0) {
		/* Better a visible dead object than a reused number. */
		sdt_set_error(pub, sharedLibraryCloseError,
			      "libstapsdt: provider '%s': cannot hide memfd %d "
			      "from tracers: %s",
			      pub->name, r->fd, strerror(errno));
	}
	if (!(r->fd >= 0)) {
		placed_remove(p);
		remove_file(pub->_filename, &p->dir);
	}
	r->next = p->retired;
	p->retired = r;
	free(pub->_filename);
	pub->_filename = NULL;
	pub->_handle = NULL;
	pub->_memfd = -1;
	p->loaded = 0;
	return 0;
}

void sdt_release(struct sdt_provider *p)
{
	struct sdt_retired *r, *next;

	sdt_unload(p);
	for (r = p->retired; r; r = next) {
		next = r->next;
		if (r->handle && dlclose(r->handle) != 0)
			sdt_set_error(&p->pub, sharedLibraryCloseError,
				      "libstapsdt: provider '%s': dlclose: %s",
				      p->pub.name, dlerror());
		if (r->fd >= 0)
			close(r->fd);
		free(r);
	}
	p->retired = NULL;
}
