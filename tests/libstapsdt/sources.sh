# Shared by the libstapsdt tests that build the library themselves (with a
# sanitizer, or with debug info valgrind can read): its C sources, read
# from the local.mk fragments so that a file added to the library or the
# core is picked up here too, instead of leaving these builds behind.

# mk_sources FRAGMENT VAR: the .c files of VAR in FRAGMENT (both from the
# top source dir), as paths under $top_srcdir.
mk_sources() {
	awk -v var="$2" -v dir="$top_srcdir" '
	!on && $0 ~ "^" var "[ \t]*[+]?=" { on = 1; sub(/^[^=]*=/, "") }
	on {
		more = sub(/\\[ \t]*$/, "")
		n = split($0, w, /[ \t]+/)
		for (i = 1; i <= n; i++)
			if (w[i] ~ /\.c$/) print dir "/" w[i]
		if (!more) on = 0
	}' "$top_srcdir/$1"
}

# LIB_SRCS: libstapsdt's and the ELF core's sources.
LIB_SRCS="$(mk_sources elfcore/local.mk elfcore_libsdtcore_la_SOURCES)
$(mk_sources libstapsdt/local.mk LIBSTAPSDT_SOURCES)"
case "$LIB_SRCS" in
*/elfcore/*.c*/libstapsdt/*.c*) ;;
*) fail "cannot read the library's sources from the local.mk files: $LIB_SRCS" ;;
esac
# What they need to compile, the way the build compiles them.
LIB_CFLAGS="-std=gnu11 -pthread -I$top_srcdir/include -I$top_srcdir/elfcore -I$top_srcdir/libstapsdt -I$top_builddir"
LIB_LIBS="-lelf -ldl"
