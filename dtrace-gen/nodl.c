/* SPDX-License-Identifier: MIT */
/*
 * A static dtrace-gen links libdwfl (layouts from the DWARF of the objects
 * -G is given), and libdwfl's debuginfod client looks for libdebuginfod
 * with dlopen(). dtrace-gen never asks debuginfod for anything, and a
 * static program cannot load a shared library as it should anyway. The
 * static link wraps dlopen (-Wl,--wrap=dlopen) with this stand-in, which
 * says that nothing can be loaded, so glibc's static dlopen and its
 * link-time warning stay out of the program.
 */
#include <stddef.h>

void *__wrap_dlopen(const char *file, int mode);

void *__wrap_dlopen(const char *file, int mode)
{
	(void)file;
	(void)mode;
	return NULL;
}
