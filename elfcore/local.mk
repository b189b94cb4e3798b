# The ELF core: one internal library shared by dtrace-gen, libstapsdt and
# the test tools. Not installed. Its part without libelf (libsdtdso: the
# target table, notes, names, specs, the shared-object writer) is all
# libstapsdt takes, so the library cross-builds with a bare toolchain.
noinst_LTLIBRARIES += elfcore/libsdtdso.la
elfcore_libsdtdso_la_SOURCES = \
	elfcore/errmsg.c elfcore/errmsg.h elfcore/em.h \
	elfcore/target.c elfcore/target.h \
	elfcore/note.c elfcore/note.h \
	elfcore/typerec.c elfcore/typetext.c elfcore/typerec.h \
	elfcore/names.c elfcore/names.h \
	elfcore/argspec.c elfcore/argspec.h \
	elfcore/dsowrite.c elfcore/strtab.h elfcore/elfobj.h
if HAVE_LIBELF
noinst_LTLIBRARIES += elfcore/libsdtcore.la
elfcore_libsdtcore_la_SOURCES = elfcore/elfread.c elfcore/elfwrite.c
elfcore_libsdtcore_la_LIBADD = elfcore/libsdtdso.la $(LIBELF_LIBS)
endif

# Struct layouts: the note's parser (libsdtlayout), and reading them from
# DWARF with libdw (libsdtdwarf, only where configure found libdw). For
# sdt-list and dtrace-gen -G: libstapsdt, which takes in the whole core,
# carries none of it and never needs libdw.
if HAVE_LIBELF
noinst_LTLIBRARIES += elfcore/libsdtlayout.la
endif
elfcore_libsdtlayout_la_SOURCES = elfcore/layout.c elfcore/layout.h
elfcore_libsdtlayout_la_LIBADD = $(LIBELF_LIBS)
if HAVE_LIBDW
if HAVE_LIBELF
noinst_LTLIBRARIES += elfcore/libsdtdwarf.la
endif
elfcore_libsdtdwarf_la_SOURCES = elfcore/layoutdw.c elfcore/layoutdw.h
elfcore_libsdtdwarf_la_LIBADD = $(LIBDW_LIBS) $(LIBELF_LIBS)
SDT_LAYOUT_LIBS = elfcore/libsdtdwarf.la elfcore/libsdtlayout.la
else
SDT_LAYOUT_LIBS = elfcore/libsdtlayout.la
endif
