/* SPDX-License-Identifier: MIT */
/*
 * Struct layouts from DWARF, through elfutils' libdwfl and libdw.
 *
 * libdwfl finds the DWARF where a debugger would: in the file itself,
 * else in its separate debug file, by build ID
 * (DEBUG_DIR/.build-id/xx/yyyy.debug) or by .gnu_debuglink (beside the
 * file, in its .debug/, under DEBUG_DIR); it also applies a relocatable
 * object's relocations to its DWARF, which dtrace-gen -G reads. The
 * layout is written as a descriptor (layout.h), the same strings a file
 * carries in its layout notes.
 *
 * Kept apart from the rest of the core: libstapsdt links the core and has
 * no use for libdw.
 */
#ifndef SDT_LAYOUTDW_H
#define SDT_LAYOUTDW_H

#include "layout.h"

struct sdt_dwarf;

/*
 * The DWARF for the ELF file PATH (when FD >= 0, its bytes are read from
 * FD, and PATH only says where a debug link is looked for), or for its
 * separate debug file under DEBUG_DIR (NULL: /usr/lib/debug). Returns 0,
 * -ENOENT when there is none, -ENOMEM. Only regular files are read,
 * opened without blocking; a debug link is followed only by a name
 * without `/'. When one was refused, WHY (WHY_SIZE bytes, may be NULL)
 * says which and why; else it is "".
 */
int sdt_dwarf_open(const char *path, int fd, const char *debug_dir,
		   struct sdt_dwarf **out, char *why, size_t why_size);
void sdt_dwarf_close(struct sdt_dwarf *d);

/* The file the DWARF was read from. */
const char *sdt_dwarf_file(const struct sdt_dwarf *d);

/*
 * The layout of NAME (`struct order', `union u', `order_t') as a
 * descriptor appended to B. 0; -ENOENT when the DWARF does not define
 * it; -EINVAL when NAME is no struct or union (a typedef of int);
 * -ENOMEM.
 */
int sdt_dwarf_layout(struct sdt_dwarf *d, const char *name,
		     struct sdt_strbuf *b);

#endif
