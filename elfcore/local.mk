# The ELF core: one internal library shared by dtrace-gen, libstapsdt and
# the test tools. Not installed.
noinst_LTLIBRARIES += elfcore/libsdtcore.la
elfcore_libsdtcore_la_SOURCES = \
	elfcore/errmsg.c elfcore/errmsg.h elfcore/em.h \
	elfcore/target.c elfcore/target.h \
	elfcore/note.c elfcore/note.h \
	elfcore/typerec.c elfcore/typetext.c elfcore/typerec.h \
	elfcore/layout.c elfcore/layout.h \
	elfcore/names.c elfcore/names.h \
	elfcore/argspec.c elfcore/argspec.h \
	elfcore/elfread.c elfcore/elfwrite.c elfcore/elfobj.h
elfcore_libsdtcore_la_LIBADD = $(LIBELF_LIBS)

# Struct layouts from DWARF (libdw): for sdt-list and dtrace-gen -G only,
# so libstapsdt, which links the core, never needs libdw.
if HAVE_LIBDW
noinst_LTLIBRARIES += elfcore/libsdtdwarf.la
elfcore_libsdtdwarf_la_SOURCES = elfcore/layoutdw.c elfcore/layoutdw.h
elfcore_libsdtdwarf_la_LIBADD = $(LIBDW_LIBS) $(LIBELF_LIBS)
endif
