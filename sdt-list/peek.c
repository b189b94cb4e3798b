/* SPDX-License-Identifier: MIT */
/*
 * Which of a directory's files are ELF: their first bytes, read by a few
 * threads at once.
 *
 * A tree like /usr holds some hundred thousand files and a few thousand
 * objects. Telling them apart costs an open and a read of each file's
 * first page; from a cold page cache every one of those waits on the
 * disk, one after the other, and the walk is no faster than readelf.
 * Disks answer many requests at once, so the files of a directory are
 * opened and peeked at by a small pool of threads (the caller's among
 * them) while the walk itself, its order, its checks and everything it
 * prints stay in one thread: the pool only opens, reads four bytes and
 * stats. Small directories are done in the caller's thread alone, where
 * waking the pool would cost more than it saves.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inventory.h"

/* Fewer files than this are peeked at in the caller's thread. */
#define PEEK_BATCH_MIN 16

struct peek {
	pthread_t *threads;
	unsigned nthreads;
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	/* the batch, under lock */
	unsigned long gen;
	int stop;
	int dfd;
	struct peek_item *items;
	size_t n;
	atomic_size_t next;
	size_t finished; /* items done */
	unsigned active; /* workers inside the batch */
};

/* One file: open without following or blocking, peek, stat if ELF. */
static void peek_one(int dfd, struct peek_item *it)
{
	int fd = openat(dfd, it->name,
			O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK |
				O_NOCTTY);

	it->fd = -1;
	it->err = 0;
	if (fd < 0) {
		/* Gone, or a link or FIFO swapped in since: passed over. */
		if (errno != ENOENT && errno != ELOOP)
			it->err = errno;
		return;
	}
	if (!inv_elf_magic(fd) || fstat(fd, &it->st) < 0 ||
	    !S_ISREG(it->st.st_mode)) {
		close(fd);
		return;
	}
	it->fd = fd;
}

/* Take items until none is left; how many this thread did. */
static size_t drain(struct peek *pk, int dfd, struct peek_item *items, size_t n)
{
	size_t did = 0, i;

	while ((i = atomic_fetch_add(&pk->next, 1)) < n) {
		peek_one(dfd, &items[i]);
		did++;
	}
	return did;
}

static void *worker(void *arg)
{
	struct peek *pk = arg;
	unsigned long seen = 0;

	pthread_mutex_lock(&pk->lock);
	for (;;) {
		while (!pk->stop && pk->gen == seen)
			pthread_cond_wait(&pk->work, &pk->lock);
		if (pk->stop)
			break;
		seen = pk->gen;
		int dfd = pk->dfd;
		struct peek_item *items = pk->items;
		size_t n = pk->n;

		pk->active++;
		pthread_mutex_unlock(&pk->lock);
		size_t did = drain(pk, dfd, items, n);
		pthread_mutex_lock(&pk->lock);
		pk->finished += did;
		pk->active--;
		pthread_cond_signal(&pk->done);
	}
	pthread_mutex_unlock(&pk->lock);
	return NULL;
}

struct peek *peek_start(unsigned nthreads)
{
	struct peek *pk = calloc(1, sizeof(*pk));

	if (!pk)
		return NULL;
	pthread_mutex_init(&pk->lock, NULL);
	pthread_cond_init(&pk->work, NULL);
	pthread_cond_init(&pk->done, NULL);
	pk->threads = calloc(nthreads, sizeof(*pk->threads));
	for (unsigned i = 0; pk->threads && i < nthreads; i++) {
		if (pthread_create(&pk->threads[i], NULL, worker, pk))
			break; /* fewer threads: slower, not wrong */
		pk->nthreads++;
	}
	return pk;
}

void peek_stop(struct peek *pk)
{
	if (!pk)
		return;
	pthread_mutex_lock(&pk->lock);
	pk->stop = 1;
	pthread_cond_broadcast(&pk->work);
	pthread_mutex_unlock(&pk->lock);
	for (unsigned i = 0; i < pk->nthreads; i++)
		pthread_join(pk->threads[i], NULL);
	pthread_mutex_destroy(&pk->lock);
	pthread_cond_destroy(&pk->work);
	pthread_cond_destroy(&pk->done);
	free(pk->threads);
	free(pk);
}

void peek_batch(struct peek *pk, int dfd, struct peek_item *items, size_t n)
{
	size_t did;

	if (!pk || !pk->nthreads || n < PEEK_BATCH_MIN) {
		for (size_t i = 0; i < n; i++)
			peek_one(dfd, &items[i]);
		return;
	}
	pthread_mutex_lock(&pk->lock);
	/* A late worker may still hold the last batch's items: wait. */
	while (pk->active)
		pthread_cond_wait(&pk->done, &pk->lock);
	pk->dfd = dfd;
	pk->items = items;
	pk->n = n;
	pk->finished = 0;
	atomic_store(&pk->next, 0);
	pk->gen++;
	pthread_cond_broadcast(&pk->work);
	pthread_mutex_unlock(&pk->lock);
	did = drain(pk, dfd, items, n);
	pthread_mutex_lock(&pk->lock);
	pk->finished += did;
	/* Every item done, and no worker still inside: ITEMS are ours. */
	while (pk->finished < n || pk->active)
		pthread_cond_wait(&pk->done, &pk->lock);
	pthread_mutex_unlock(&pk->lock);
}
