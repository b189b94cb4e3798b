# Shared by the libstapsdt tests that build the library themselves (with a
# sanitizer, or with debug info valgrind can read): its C sources, read
# from the local.mk fragments (mk_sources, tests/lib.sh) so that a file
# added to the library or the core is picked up here too, instead of
# leaving these builds behind.

# LIB_SRCS: libstapsdt's and the ELF core's sources.
LIB_SRCS="$(mk_sources elfcore/local.mk elfcore_libsdtdso_la_SOURCES)
$(mk_sources libstapsdt/local.mk LIBSTAPSDT_SOURCES)"
case "$LIB_SRCS" in
*/elfcore/*.c*/libstapsdt/*.c*) ;;
*) fail "cannot read the library's sources from the local.mk files: $LIB_SRCS" ;;
esac
# What they need to compile, the way the build compiles them.
LIB_CFLAGS="-std=gnu11 -pthread -I$top_srcdir/include -I$top_srcdir/elfcore -I$top_srcdir/libstapsdt -I$top_builddir"
LIB_LIBS="-ldl"
