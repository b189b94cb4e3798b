# The ELF core: one internal library shared by dtrace-gen, libstapsdt and
# the test tools. Not installed.
noinst_LTLIBRARIES += elfcore/libsdtcore.la
elfcore_libsdtcore_la_SOURCES = \
	elfcore/errmsg.c elfcore/errmsg.h elfcore/em.h \
	elfcore/target.c elfcore/target.h \
	elfcore/note.c elfcore/note.h \
	elfcore/typerec.c elfcore/typetext.c elfcore/typerec.h \
	elfcore/names.c elfcore/names.h \
	elfcore/argspec.c elfcore/argspec.h \
	elfcore/elfread.c elfcore/elfwrite.c elfcore/elfobj.h
elfcore_libsdtcore_la_LIBADD = $(LIBELF_LIBS)

# Struct layouts: the note's parser (libsdtlayout), and reading them from
# DWARF with libdw (libsdtdwarf, only where configure found libdw). For
# sdt-list and dtrace-gen -G: libstapsdt, which takes in the whole core,
# carries none of it and never needs libdw.
noinst_LTLIBRARIES += elfcore/libsdtlayout.la
elfcore_libsdtlayout_la_SOURCES = elfcore/layout.c elfcore/layout.h
elfcore_libsdtlayout_la_LIBADD = $(LIBELF_LIBS)
if HAVE_LIBDW
noinst_LTLIBRARIES += elfcore/libsdtdwarf.la
elfcore_libsdtdwarf_la_SOURCES = elfcore/layoutdw.c elfcore/layoutdw.h
elfcore_libsdtdwarf_la_LIBADD = $(LIBDW_LIBS) $(LIBELF_LIBS)
SDT_LAYOUT_LIBS = elfcore/libsdtdwarf.la elfcore/libsdtlayout.la
else
SDT_LAYOUT_LIBS = elfcore/libsdtlayout.la
endif
