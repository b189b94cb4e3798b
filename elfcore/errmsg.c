/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>

#include "errmsg.h"

int sdt_errf(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}
