# dtrace-gen: SystemTap's `dtrace -h/-G', read properly and written
# atomically. One file per stage; see dtrace-gen/dtrace-gen.h.
# The .d reader (lexer, parser, diagnostics, -C) is a convenience library
# of its own: sdt-list --against reads provider files with the very same
# parser, never a copy.
if HAVE_LIBELF
noinst_LTLIBRARIES += dtrace-gen/libsdtdparse.la
endif
dtrace_gen_libsdtdparse_la_SOURCES = \
	dtrace-gen/dtrace-gen.h \
	dtrace-gen/cpp.c \
	dtrace-gen/lexer.c \
	dtrace-gen/parser.c \
	dtrace-gen/diag.c \
	dtrace-gen/buf.c
if HAVE_LIBELF
bin_PROGRAMS += dtrace-gen/dtrace-gen
endif
dtrace_gen_dtrace_gen_SOURCES = \
	dtrace-gen/main.c \
	dtrace-gen/header.c \
	dtrace-gen/object.c \
	dtrace-gen/output.c \
	dtrace-gen/layout.c
dtrace_gen_dtrace_gen_LDADD = dtrace-gen/libsdtdparse.la \
	$(SDT_LAYOUT_LIBS) elfcore/libsdtcore.la
if STATIC_DTRACE_GEN
dtrace_gen_dtrace_gen_SOURCES += dtrace-gen/nodl.c
dtrace_gen_dtrace_gen_LDFLAGS = -all-static -Wl,--wrap=dlopen
dtrace_gen_dtrace_gen_LDADD += $(LIBDW_STATIC_EXTRA) -lz
endif
dist_man_MANS += dtrace-gen/dtrace-gen.1

# `make install' also installs it as `dtrace' (configure
# --disable-dtrace-alias turns that off). Prerequisite-only hook rules, so
# other fragments can hang their own on the same hooks.
# Its page goes with it: without the alias, `man dtrace' stays SystemTap's.
if DTRACE_ALIAS
install-exec-hook: install-dtrace-alias
uninstall-hook: uninstall-dtrace-alias
man_MANS += dtrace-gen/dtrace.1
endif
EXTRA_DIST += dtrace-gen/dtrace.1

install-dtrace-alias:
	cd '$(DESTDIR)$(bindir)' && rm -f 'dtrace$(EXEEXT)' && \
	  { ln -s 'dtrace-gen$(EXEEXT)' 'dtrace$(EXEEXT)' 2>/dev/null || \
	    cp -p 'dtrace-gen$(EXEEXT)' 'dtrace$(EXEEXT)'; }

uninstall-dtrace-alias:
	rm -f '$(DESTDIR)$(bindir)/dtrace$(EXEEXT)'

.PHONY: install-dtrace-alias uninstall-dtrace-alias
