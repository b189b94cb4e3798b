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
