/* SPDX-License-Identifier: MIT */
/*
 * Where a provider's shared object lives, how it is loaded, published and
 * given back (internal.h tells the concurrency story).
 *
 * Placement. A memfd by default: nothing on disk, and tracers find it
 * through /proc/PID/fd as long as the descriptor stays open (bpftrace -p
 * was seen to miss a memfd object whose descriptor had been closed). We
 * dlopen it as /proc/PID/fd/N, not /proc/self/fd/N: debuggers open the
 * names in the link map from their own process. A file instead when asked
 * (or when memfd or /proc is missing): in a fresh 0700 directory made by
 * mkdtemp() under $XDG_RUNTIME_DIR, $TMPDIR or /tmp, skipping read-only and
 * noexec mounts, created O_EXCL|O_NOFOLLOW; removed on unload, destroy, a
 * failed load and at exit (a destructor walks the registry).
 *
 * Extending. providerExtend() never moves what is loaded: the probes
 * added since the last load or extend get slots in a chunk, an object
 * written with room for probes to come (chunk.c says how tracers see them
 * appear), placed and dlopened like the load's object; a new chunk only
 * when the newest is full. Tracers attached to older probes keep their
 * uprobes (same file, same offsets, same semaphores), and the cost is that
 * of the new probes only. The provider keeps its objects in a list (struct
 * sdt_loaded), newest first; the load's, the oldest, is also the one the
 * public fields _handle, _filename and _memfd name. A file chunk keeps its
 * descriptor open while it has room, to add notes without opening a path.
 *
 * Unloading gives back everything the load and the extends took, at once:
 * the mappings (dlclose), the memfds or the files and their directories,
 * the descriptors, the registry entry. So nothing grows over load/unload
 * cycles, and tracers and sdt-list stop seeing the objects. Before the
 * dlclose, unload waits for one grace period (grace_wait()): fires that
 * read the old pointers finish.
 *
 * fork(). The registry lock is taken around fork (pthread_atfork), so a
 * child never inherits it held. Files belong to the process that placed
 * them (each object records its placer): a child never removes its
 * parent's (at unload or exit), and a parent that forked leaves its files
 * at exit, for a daemonized child that still maps them; only an explicit
 * unload or destroy removes them then. A child that extends an inherited
 * provider places, and later removes, its own objects only.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
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

/*
 * Readers (the fire paths' marks, struct sdt_reader) and the grace period.
 * A thread registers on its first fire and leaves the list when it exits.
 * Unload stores NULL into the probes, then membarrier() makes every thread
 * of the process pass a full barrier: a thread not inside a mark at that
 * point can only enter one that reads the NULL. Those inside are waited
 * for until they are seen outside.
 */
__thread struct sdt_reader sdt_reader_self
	__attribute__((tls_model("initial-exec")));
static pthread_mutex_t readers_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sdt_reader *readers;
static pthread_key_t reader_key;
static pthread_once_t reader_once = PTHREAD_ONCE_INIT;
/* -1 unknown, 0 none, 1 registered: for the marks, for rseq (rseq.c) */
static int membarrier_state = -1, membarrier_rseq_state = -1;

static void reader_unlink(struct sdt_reader *r)
{
	for (struct sdt_reader **pp = &readers; *pp; pp = &(*pp)->next)
		if (*pp == r) {
			*pp = r->next;
			return;
		}
}

/* Thread exit: its TLS goes away, so it leaves the list first. */
static void reader_exit(void *arg)
{
	struct sdt_reader *r = arg;

	pthread_mutex_lock(&readers_lock);
	reader_unlink(r);
	pthread_mutex_unlock(&readers_lock);
	/* A later fire in another destructor registers again. */
	__atomic_store_n(&r->word, SDT_READER_NEW, __ATOMIC_RELAXED);
}

static int reader_key_made;

static void reader_key_create(void)
{
	reader_key_made = pthread_key_create(&reader_key, reader_exit) == 0;
}

unsigned long sdt_reader_register(void)
{
	struct sdt_reader *r = &sdt_reader_self;

	pthread_once(&reader_once, reader_key_create);
	pthread_mutex_lock(&readers_lock);
	r->next = readers;
	readers = r;
	__atomic_store_n(&r->word, SDT_READER_OUT, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&readers_lock);
	pthread_setspecific(reader_key, r);
	return SDT_READER_OUT;
}

/* membarrier(CMD) after registering for it (REGISTER) once: 0 or -1. */
static int membarrier_call(int *state, int reg, int cmd)
{
	if (*state < 0)
		*state = syscall(__NR_membarrier, reg, 0, 0) == 0;
	return *state && syscall(__NR_membarrier, cmd, 0, 0) == 0 ? 0 : -1;
}

/*
 * probeIsEnabled() as an rseq critical section (rseq.c): a thread inside
 * it when membarrier() interrupts it starts it over, reading the probe
 * again. The flag is read after the first membarrier(), which a thread
 * that set it and then entered the section has passed.
 */
static int rseq_restart(void)
{
#ifdef SDT_RSEQ_READER
	if (__atomic_load_n(&sdt_rseq_used, __ATOMIC_RELAXED))
		return membarrier_call(
			&membarrier_rseq_state,
			MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ,
			MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ);
#endif
	return 0;
}

/* Returns 0 once no fire can touch what was unpublished; -1 if unknown. */
static int grace_wait(void)
{
	if (membarrier_call(&membarrier_state,
			    MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED,
			    MEMBARRIER_CMD_PRIVATE_EXPEDITED) < 0 ||
	    rseq_restart() < 0)
		return -1;
	pthread_mutex_lock(&readers_lock);
	for (struct sdt_reader *r = readers; r; r = r->next) {
		/* A busy thread is out often: look a few times per yield. */
		for (int i = 0; r != &sdt_reader_self &&
				__atomic_load_n(&r->word, __ATOMIC_ACQUIRE) ==
					SDT_READER_IN;
		     i++)
			if (i % 64 == 63)
				sched_yield();
	}
	pthread_mutex_unlock(&readers_lock);
	return 0;
}

/*
 * The registry's list of providers with files is this process's: after a
 * fork the child starts an empty one, and a provider it inherited joins it
 * only when the child places a file of its own (placed_in says whose list
 * holds the provider).
 */
static void placed_add(struct sdt_provider *p)
{
	if (p->placed_in == (long)getpid())
		return;
	p->placed_in = (long)getpid();
	p->next_placed = placed;
	placed = p;
}

static void placed_remove(struct sdt_provider *p)
{
	if (p->placed_in != (long)getpid())
		return;
	p->placed_in = 0;
	for (struct sdt_provider **pp = &placed; *pp; pp = &(*pp)->next_placed)
		if (*pp == p) {
			*pp = p->next_placed;
			p->next_placed = NULL;
			return;
		}
}

/* O's file and private directory, if this process placed them. */
static void remove_file(struct sdt_loaded *o)
{
	if (o->dir && o->owner == (long)getpid()) {
		if (o->path)
			unlink(o->path);
		rmdir(o->dir);
	}
	free(o->dir);
	o->dir = NULL;
}

/*
 * At exit (or when we are unloaded): no file of ours stays behind, and no
 * thread runs reader_exit() after our code may be gone.
 */
__attribute__((destructor)) static void remove_placed_files(void)
{
	sdt_registry_lock();
	for (struct sdt_provider *p = placed; p; p = p->next_placed)
		for (struct sdt_loaded *o = p->objects; o; o = o->next)
			if (!o->shared)
				remove_file(o);
	placed = NULL;
	sdt_registry_unlock();
	if (reader_key_made)
		pthread_key_delete(reader_key);
}

static void fork_prepare(void)
{
	pthread_mutex_lock(&registry_lock);
	pthread_mutex_lock(&readers_lock);
}

/* The parent's files may now be mapped by a child too: not removed at exit. */
static void fork_parent(void)
{
	for (struct sdt_provider *p = placed; p; p = p->next_placed)
		for (struct sdt_loaded *o = p->objects; o; o = o->next)
			o->shared = 1;
	pthread_mutex_unlock(&readers_lock);
	pthread_mutex_unlock(&registry_lock);
}

/*
 * The child has one thread, the list of placed files is the parent's (its
 * objects keep `owner' = the parent, so it never removes them), and its
 * membarrier registration is asked again.
 */
static void fork_child(void)
{
	struct sdt_reader *self = &sdt_reader_self;

	placed = NULL;
	readers = NULL;
	if (__atomic_load_n(&self->word, __ATOMIC_RELAXED)) {
		self->next = NULL;
		readers = self;
	}
	membarrier_state = membarrier_rseq_state = -1;
	pthread_mutex_unlock(&readers_lock);
	pthread_mutex_unlock(&registry_lock);
}

__attribute__((constructor)) static void install_fork_handlers(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
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
	const char *bases[] = { secure_getenv("XDG_RUNTIME_DIR"),
				secure_getenv("TMPDIR"), "/tmp" };

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
	char name[SDT_PROVIDER_NAME_MAX + 48];
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

/* "DIR/libstapsdt-NAME.so", with any '/' of the name as '_'. */
static char *file_path(const char *dir, const char *name)
{
	char *path, *s;

	if (asprintf(&path, "%s/libstapsdt-%s.so", dir, name) < 0)
		return NULL;
	for (s = path + strlen(dir) + 1; *s; s++)
		if (*s == '/')
			*s = '_';
	return path;
}

/* A file for object O of P, in a private directory of its own; or -1. */
static int place_file(struct sdt_provider *p, struct sdt_loaded *o)
{
	SDTProvider_t *pub = &p->pub;
	int fd;

	o->owner = (long)getpid();
	o->dir = make_private_dir();
	if (!o->dir)
		return sdt_set_error(
			pub, tmpCreationError,
			"libstapsdt: provider '%s': no directory "
			"for its object: $XDG_RUNTIME_DIR, $TMPDIR "
			"and /tmp are all missing, read-only, "
			"noexec or full; point TMPDIR at a "
			"writable, exec-mounted directory",
			pub->name);
	o->path = file_path(o->dir, pub->name);
	if (!o->path) {
		remove_file(o);
		return sdt_set_error(pub, outOfMemoryError,
				     "libstapsdt: provider '%s': out of memory",
				     pub->name);
	}
	fd = open(o->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0) {
		int err = errno;

		sdt_set_error(pub, tmpCreationError,
			      "libstapsdt: provider '%s': cannot create %s: %s",
			      pub->name, o->path, strerror(err));
		/* The directory is ours alone: whatever is there can go. */
		remove_file(o);
		free(o->path);
		o->path = NULL;
		return -1;
	}
	return fd;
}

/* dlopen()s O, with its load base in O->base; 0, or -1 (error set). */
static int open_loaded(struct sdt_provider *p, struct sdt_loaded *o)
{
	struct link_map *lm = NULL;

	o->handle = dlopen(o->path, RTLD_NOW | RTLD_LOCAL);
	if (!o->handle)
		return sdt_set_error(&p->pub, sharedLibraryOpenError,
				     "libstapsdt: provider '%s': cannot load "
				     "its object %s: %s",
				     p->pub.name, o->path, dlerror());
	if (dlinfo(o->handle, RTLD_DI_LINKMAP, &lm) < 0 || !lm)
		return sdt_set_error(&p->pub, symbolLoadingError,
				     "libstapsdt: provider '%s': no link map "
				     "for %s: %s",
				     p->pub.name, o->path, dlerror());
	o->base = (uintptr_t)lm->l_addr;
	return 0;
}

/*
 * O's load base checked against where OBJ puts the probes: the first
 * stub's symbol (a repeated name's carries `:N', object.c) must be where
 * the layout says.
 */
static int object_base(struct sdt_provider *p, struct sdt_loaded *o,
		       const struct sdt_object *obj)
{
	const SDTProbe_t *first;
	char sym[SDT_PROBE_NAME_MAX + sizeof(":4294967295")];
	uintptr_t at;

	if (!obj->nprobes)
		return 0;
	first = obj->probes[0];
	if (sdt_node_of(first)->ordinal)
		snprintf(sym, sizeof(sym), "%s:%u", first->name,
			 sdt_node_of(first)->ordinal);
	else
		snprintf(sym, sizeof(sym), "%s", first->name);
	at = (uintptr_t)dlsym(o->handle, sym);
	if (at != o->base + obj->layout.stub_addr)
		return sdt_set_error(
			&p->pub, symbolLoadingError,
			"libstapsdt: provider '%s': stub '%s' of %s is "
			"at %#lx, not where its layout puts it",
			p->pub.name, sym, o->path, (unsigned long)at);
	return 0;
}

void sdt_publish(SDTProbe_t *probe, uintptr_t stub, uintptr_t sema)
{
	__atomic_store_n(&sdt_node_of(probe)->pub._semaphore,
			 (const volatile unsigned short *)sema,
			 __ATOMIC_RELEASE);
	__atomic_store_n(&sdt_node_of(probe)->stub, (const void *)stub,
			 __ATOMIC_RELEASE);
	__atomic_store_n(&probe->_fire, (void *)stub, __ATOMIC_RELEASE);
}

static void publish(uintptr_t base, const struct sdt_object *obj)
{
	const struct sdt_dso_layout *lay = &obj->layout;

	for (size_t i = 0; i < obj->nprobes; i++)
		sdt_publish(obj->probes[i],
			    base + lay->stub_addr + i * lay->stub_stride,
			    base + lay->sema_addr + 2 * i);
}

/*
 * A place for object O of P (memfd, else file): the descriptor to write
 * it to, or -1 with the error set. A memfd's stays open in O->fd.
 */
static int place(struct sdt_provider *p, struct sdt_loaded *o)
{
	if (p->pub._use_memfd == memfd_enabled) {
		o->fd = place_memfd(p, &o->path);
		if (o->fd >= 0)
			return o->fd;
	}
	return place_file(p, o);
}

/* Writes O (the COUNT newest probes), opens it and publishes them. */
static int open_object(struct sdt_provider *p, struct sdt_loaded *o, int fd,
		       size_t count)
{
	SDTProvider_t *pub = &p->pub;
	struct sdt_object obj;
	struct sdt_target host;
	int ret = -1;

	sdt_target_host(&host);
	if (sdt_object_write(pub, &host, fd, count, &obj) < 0)
		return -1;
	if (open_loaded(p, o) == 0 && object_base(p, o, &obj) == 0) {
		publish(o->base, &obj);
		ret = 0;
	}
	free(obj.probes);
	return ret;
}

/* Object O, whose descriptor is FD, goes: nothing of it was published. */
static void discard(struct sdt_loaded *o, int fd)
{
	if (o->handle)
		dlclose(o->handle);
	remove_file(o);
	close(fd);
	free(o->path);
	free(o->chunk);
	free(o);
}

/*
 * One more object for P with its COUNT newest probes, published; 0, or -1
 * with the error set and nothing of it left.
 */
static int add_object(struct sdt_provider *p, size_t count)
{
	struct sdt_loaded *o = calloc(1, sizeof(*o));
	int fd;

	if (!o)
		return sdt_set_error(&p->pub, outOfMemoryError,
				     "libstapsdt: provider '%s': out of memory",
				     p->pub.name);
	o->fd = -1;
	fd = place(p, o);
	if (fd < 0) {
		free(o);
		return -1;
	}
	if (open_object(p, o, fd, count) < 0) {
		discard(o, fd);
		return -1;
	}
	if (o->dir) {
		close(fd);
		placed_add(p);
	}
	o->next = p->objects;
	p->objects = o;
	p->nlive += count;
	return 0;
}

/* A chunk of P with room for SLOTS probes, loaded, newest of P's objects. */
static struct sdt_loaded *add_chunk(struct sdt_provider *p, size_t slots)
{
	struct sdt_loaded *o = calloc(1, sizeof(*o));
	int fd = -1;

	if (!o || !(o->chunk = calloc(1, sizeof(*o->chunk)))) {
		free(o);
		sdt_set_error(&p->pub, outOfMemoryError,
			      "libstapsdt: provider '%s': out of memory",
			      p->pub.name);
		return NULL;
	}
	o->fd = -1;
	o->chunk->wfd = -1;
	fd = place(p, o);
	if (fd < 0 || sdt_chunk_write(&p->pub, fd, slots, o->chunk) < 0 ||
	    open_loaded(p, o) < 0) {
		if (fd >= 0)
			discard(o, fd);
		else {
			free(o->chunk);
			free(o);
		}
		return NULL;
	}
	o->chunk->wfd = fd;
	if (o->dir)
		placed_add(p);
	o->next = p->objects;
	p->objects = o;
	return o;
}

/* Chunk sizes: CHUNK_FIRST slots, doubling up to CHUNK_MAX (chunk.c). */
#define CHUNK_FIRST 64
#define CHUNK_MAX 4096

/* No more probes go into O: a file's descriptor is given back. */
static void seal_chunk(struct sdt_loaded *o)
{
	struct sdt_chunk *c = o->chunk;

	if (c->wfd >= 0 && c->wfd != o->fd)
		close(c->wfd);
	c->wfd = -1;
}

/*
 * The newest chunk of P when this process may add to it and it has room,
 * else a new one, for at least WANT probes; NULL with the error set.
 */
static struct sdt_loaded *chunk_with_room(struct sdt_provider *p, size_t want)
{
	struct sdt_loaded *o = p->objects;
	size_t slots = CHUNK_FIRST;

	if (o && o->chunk) {
		struct sdt_chunk *c = o->chunk;

		if (c->wfd >= 0 && c->owner == (long)getpid() &&
		    c->used < c->layout.slots)
			return o;
		slots = c->layout.slots < CHUNK_MAX / 2 ? 2 * c->layout.slots
							: CHUNK_MAX;
	}
	return add_chunk(p, want > slots ? want : slots);
}

/*
 * The COUNT probes added since the last load or extend (the first COUNT
 * of P's list, newest first) into chunks, oldest first, so that the
 * published ones stay the oldest nlive even when a step fails.
 */
static int grow(struct sdt_provider *p, size_t count)
{
	SDTProbe_t **probes = malloc(count * sizeof(*probes));
	SDTProbeList_t *l = p->pub.probes;
	int ret = 0;

	if (!probes)
		return sdt_set_error(&p->pub, outOfMemoryError,
				     "libstapsdt: provider '%s': out of memory "
				     "for %zu probes",
				     p->pub.name, count);
	for (size_t i = 0; i < count; i++, l = l->next)
		probes[i] = &l->probe;
	while (count && ret == 0) {
		struct sdt_loaded *o = chunk_with_room(p, count);
		struct sdt_chunk *c = o ? o->chunk : NULL;
		size_t room = c ? c->layout.slots - c->used : 0;
		size_t n = count < room ? count : room;

		if (!o || sdt_chunk_add(&p->pub, c, o->base, probes + count - n,
					n) < 0) {
			ret = -1;
			break;
		}
		count -= n;
		p->nlive += n;
		if (c->used == c->layout.slots)
			seal_chunk(o);
	}
	free(probes);
	return ret;
}

int sdt_load(struct sdt_provider *p)
{
	SDTProvider_t *pub = &p->pub;

	if (p->loaded) {
		sdt_clear_error(pub);
		return 0;
	}
	if (add_object(p, p->nprobes) < 0)
		return -1;
	pub->_filename = p->objects->path;
	pub->_handle = p->objects->handle;
	pub->_memfd = p->objects->fd;
	p->loaded = 1;
	sdt_clear_error(pub);
	return 0;
}

int sdt_extend(struct sdt_provider *p)
{
	if (!p->loaded)
		return sdt_load(p);
	if (p->nlive < p->nprobes && grow(p, p->nprobes - p->nlive) < 0)
		return -1;
	sdt_clear_error(&p->pub);
	return 0;
}

struct find_object {
	uintptr_t base;
	const char *name;
	int found;
};

static int match_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct find_object *f = arg;

	(void)size;
	if (info->dlpi_addr == f->base && info->dlpi_name &&
	    strcmp(info->dlpi_name, f->name) == 0)
		f->found = 1;
	return f->found;
}

/*
 * dlclose() object O of P; -1 with sharedLibraryCloseError when that fails
 * or when someone else closed the load's object, the one whose handle is
 * public (_handle), already: dlclose() on a closed handle reads freed
 * memory, so we look for that object first. The extends' handles are ours
 * alone.
 */
static int close_object(struct sdt_provider *p, struct sdt_loaded *o)
{
	SDTProvider_t *pub = &p->pub;
	struct find_object f = { o->base, o->path, 0 };

	if (o->handle == pub->_handle) {
		dl_iterate_phdr(match_object, &f);
		if (!f.found)
			return sdt_set_error(
				pub, sharedLibraryCloseError,
				"libstapsdt: provider '%s': its object %s "
				"was closed behind the library's back "
				"(dlclose of _handle)",
				pub->name, o->path);
	}
	if (dlclose(o->handle) != 0)
		return sdt_set_error(pub, sharedLibraryCloseError,
				     "libstapsdt: provider '%s': dlclose of "
				     "%s: %s",
				     pub->name, o->path, dlerror());
	return 0;
}

/* Keep memfd number FD taken, but by something no tracer looks into. */
static int hide_memfd(int fd)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (null < 0 || dup3(null, fd, O_CLOEXEC) < 0) {
		if (null >= 0)
			close(null);
		return -1;
	}
	close(null);
	return 0;
}

/*
 * No membarrier (seccomp, an old kernel): no grace period can be proved,
 * so object O stays mapped until providerDestroy(), hidden from tracers;
 * its memfd number stays taken, as glibc would take a new memfd reusing it
 * for the retired /proc/PID/fd/N. O joins P's retired list (1), or, when
 * its memfd cannot be hidden, is left mapped for good (-1, error set).
 */
static int retire(struct sdt_provider *p, struct sdt_loaded *o)
{
	if (o->chunk) {
		seal_chunk(o);
		free(o->chunk);
		o->chunk = NULL;
	}
	if (o->fd >= 0 && hide_memfd(o->fd) < 0)
		return sdt_set_error(&p->pub, sharedLibraryCloseError,
				     "libstapsdt: provider '%s': cannot retire "
				     "its object %s: %s",
				     p->pub.name, o->path, strerror(errno));
	remove_file(o);
	free(o->path);
	o->path = NULL;
	o->next = p->retired;
	p->retired = o;
	return 1;
}

/*
 * Gives back unpublished object O: its mapping (or, with KEEP, keeps it
 * retired), its memfd or file. Returns 0, or -1 with the error set.
 */
static int drop_object(struct sdt_provider *p, struct sdt_loaded *o, int keep)
{
	int ret = keep ? retire(p, o) : close_object(p, o);

	if (ret > 0)
		return 0;
	if (o->chunk)
		seal_chunk(o);
	remove_file(o);
	if (o->fd >= 0)
		close(o->fd);
	free(o->path);
	free(o->chunk);
	free(o);
	return ret;
}

int sdt_unload(struct sdt_provider *p)
{
	SDTProvider_t *pub = &p->pub;
	struct sdt_loaded *o, *next;
	int keep, ret = 0;

	if (!p->loaded)
		return 0;
	for (SDTProbeList_t *l = pub->probes; l; l = l->next) {
		__atomic_store_n(&l->probe._fire, NULL, __ATOMIC_RELEASE);
		__atomic_store_n(&sdt_node_of(&l->probe)->pub._semaphore,
				 &sdt_idle_semaphore, __ATOMIC_RELEASE);
		__atomic_store_n(&sdt_node_of(&l->probe)->stub,
				 (const void *)sdt_unloaded_stub,
				 __ATOMIC_RELEASE);
	}
	/* One grace period covers every object of the provider. */
	keep = grace_wait() != 0;
	for (o = p->objects; o; o = next) {
		next = o->next;
		if (drop_object(p, o, keep) < 0)
			ret = -1;
	}
	placed_remove(p);
	p->objects = NULL;
	p->nlive = 0;
	pub->_filename = NULL;
	pub->_handle = NULL;
	pub->_memfd = -1;
	p->loaded = 0;
	if (ret == 0)
		sdt_clear_error(pub);
	return ret;
}

void sdt_release(struct sdt_provider *p)
{
	struct sdt_loaded *r, *next;

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
