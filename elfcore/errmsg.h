/* SPDX-License-Identifier: MIT */
/* Internal to the core: how every function fills its caller's ERR buffer. */
#ifndef SDT_ERRMSG_H
#define SDT_ERRMSG_H

#include <stddef.h>

/* Format a message into ERR (may be NULL) and return CODE. */
int sdt_errf(char *err, size_t errlen, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
