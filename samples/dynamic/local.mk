# samples/dynamic: a toy JIT declaring probes from a config at run time,
# and a toy runtime growing its provider with providerExtend().
check_PROGRAMS += samples/dynamic/jit samples/dynamic/grow
samples_dynamic_jit_SOURCES = samples/dynamic/jit.c
samples_dynamic_jit_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libstapsdt
samples_dynamic_jit_LDADD = libstapsdt/libstapsdt.la
EXTRA_DIST += samples/dynamic/README samples/dynamic/probes.conf
samples_dynamic_grow_SOURCES = samples/dynamic/grow.c
samples_dynamic_grow_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libstapsdt
samples_dynamic_grow_LDADD = libstapsdt/libstapsdt.la
