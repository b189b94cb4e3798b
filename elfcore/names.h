/* SPDX-License-Identifier: MIT */
/*
 * Names that tools agree on without reading each other's files.
 *
 * A probe's semaphore is found by its symbol: dtrace -h headers declare
 * it, dtrace -G objects define it, libstapsdt's shared objects export it,
 * and tracers that do not read the note look for it. SystemTap names it
 * PROVIDER_PROBE_semaphore (provider and probe as written); headers built
 * with STAP_SDT_V1 use the older PROBE_semaphore. Everyone who names a
 * semaphore calls sdt_semaphore_symbol(), so the rule lives here only.
 */
#ifndef SDT_NAMES_H
#define SDT_NAMES_H

#include <stddef.h>

#define SDT_SEMAPHORE_SUFFIX "_semaphore"

enum sdt_sema_style {
	SDT_SEMA_PROVIDER_PROBE, /* PROVIDER_PROBE_semaphore: the default */
	SDT_SEMA_V1,		 /* PROBE_semaphore: STAP_SDT_V1 */
};

/*
 * Write the semaphore symbol of PROBE of PROVIDER in STYLE into BUF (LEN
 * bytes, NUL-terminated, cut short to fit), like snprintf. Returns the
 * name's full length without the NUL: call with LEN 0 to size a buffer.
 */
size_t sdt_semaphore_symbol(char *buf, size_t len, const char *provider,
			    const char *probe, enum sdt_sema_style style);

#endif
