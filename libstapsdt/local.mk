# libstapsdt: runtime USDT probes (libstapsdt.so.0 and a static archive),
# its public header, pkg-config file and man page.
lib_LTLIBRARIES += libstapsdt/libstapsdt.la
include_HEADERS = libstapsdt/libstapsdt.h
pkgconfig_DATA = libstapsdt/libstapsdt.pc
DISTCLEANFILES += libstapsdt/libstapsdt.pc
dist_man_MANS += libstapsdt/libstapsdt.3
# `man providerInit': one link page (.so) per function and macro of
# libstapsdt.h, all to libstapsdt(3) (tests/docs/man-links.sh keeps the
# list complete).
dist_man_MANS += \
	libstapsdt/man/providerInit.3 \
	libstapsdt/man/providerUseMemfd.3 \
	libstapsdt/man/providerAddProbe.3 \
	libstapsdt/man/providerAddProbeArgs.3 \
	libstapsdt/man/providerLoad.3 \
	libstapsdt/man/providerExtend.3 \
	libstapsdt/man/providerUnload.3 \
	libstapsdt/man/providerDestroy.3 \
	libstapsdt/man/providerErrno.3 \
	libstapsdt/man/probeFire.3 \
	libstapsdt/man/probeIsEnabled.3 \
	libstapsdt/man/probeIsEnabledInline.3 \
	libstapsdt/man/probeSemaphore.3 \
	libstapsdt/man/probeArgType.3 \
	libstapsdt/man/probeSetArgInfo.3 \
	libstapsdt/man/SDT_SEMAPHORE_ENABLED.3

# The sources, without the public header (listed once, above). Tests build
# their sanitizer and cross variants from this list too.
LIBSTAPSDT_SOURCES = \
	libstapsdt/provider.c libstapsdt/object.c libstapsdt/arch.c \
	libstapsdt/loader.c libstapsdt/chunk.c libstapsdt/fire.c \
	libstapsdt/rseq.c
libstapsdt_libstapsdt_la_SOURCES = $(LIBSTAPSDT_SOURCES) \
	libstapsdt/internal.h
libstapsdt_libstapsdt_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libstapsdt
libstapsdt_libstapsdt_la_LIBADD = elfcore/libsdtdso.la \
	-ldl -lpthread
# Never unmapped once loaded: threads' rseq areas keep pointing at its
# critical section's descriptor (rseq.c).
libstapsdt_libstapsdt_la_LDFLAGS = -version-info 0:0:0 -no-undefined \
	-Wl,-z,nodelete
EXTRA_DIST += libstapsdt/libstapsdt.map
if HAVE_VSCRIPT
libstapsdt_libstapsdt_la_LDFLAGS += \
	-Wl,--version-script=$(top_srcdir)/libstapsdt/libstapsdt.map
endif
EXTRA_libstapsdt_libstapsdt_la_DEPENDENCIES = \
	$(top_srcdir)/libstapsdt/libstapsdt.map
