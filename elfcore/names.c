/* SPDX-License-Identifier: MIT */
/*
 * The semaphore naming rule (names.h). Written with memcpy, not snprintf:
 * libstapsdt names every probe's semaphore on each provider load.
 */
#include <string.h>

#include "names.h"

/* Append S (N bytes) at *AT in BUF as far as LEN allows; *AT moves on. */
static void put(char *buf, size_t len, size_t *at, const char *s, size_t n)
{
	if (*at < len) {
		size_t room = len - *at;

		memcpy(buf + *at, s, n < room ? n : room);
	}
	*at += n;
}

size_t sdt_semaphore_symbol(char *buf, size_t len, const char *provider,
			    const char *probe, enum sdt_sema_style style)
{
	static const char suffix[] = SDT_SEMAPHORE_SUFFIX;
	size_t at = 0;

	if (style != SDT_SEMA_V1) {
		put(buf, len, &at, provider, strlen(provider));
		put(buf, len, &at, "_", 1);
	}
	put(buf, len, &at, probe, strlen(probe));
	put(buf, len, &at, suffix, sizeof(suffix) - 1);
	if (len)
		buf[at < len ? at : len - 1] = '\0';
	return at;
}
