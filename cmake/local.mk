# The CMake package: find_package(sdtkit) and find_package(libstapsdt),
# installed under $(libdir)/cmake. The two generated files get the install
# paths at make time, fully expanded (configure leaves them as
# `${prefix}/...', and `make prefix=...' may change them); the package
# moves them when it is found under another prefix (see the .in file).
sdtkitcmakedir = $(libdir)/cmake/sdtkit
libstapsdtcmakedir = $(libdir)/cmake/libstapsdt
nodist_sdtkitcmake_DATA = \
	cmake/sdtkit-config.cmake \
	cmake/sdtkit-config-version.cmake
dist_sdtkitcmake_DATA = cmake/sdtkit-provider.cmake
dist_libstapsdtcmake_DATA = \
	cmake/libstapsdt-config.cmake \
	cmake/libstapsdt-config-version.cmake
EXTRA_DIST += \
	cmake/sdtkit-config.cmake.in \
	cmake/sdtkit-config-version.cmake.in
CLEANFILES += $(nodist_sdtkitcmake_DATA)

cmake_edit = sed \
	-e 's|@prefix[@]|$(prefix)|g' \
	-e 's|@bindir[@]|$(bindir)|g' \
	-e 's|@includedir[@]|$(includedir)|g' \
	-e 's|@sdtincludedir[@]|$(sdtincludedir)|g' \
	-e 's|@libdir[@]|$(libdir)|g' \
	-e 's|@sdtkitcmakedir[@]|$(sdtkitcmakedir)|g' \
	-e 's|@PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g' \
	-e 's|@SIZEOF_VOID_P[@]|$(SIZEOF_VOID_P)|g'

cmake/sdtkit-config.cmake cmake/sdtkit-config-version.cmake: Makefile
	$(AM_V_GEN)$(MKDIR_P) cmake && \
	  $(cmake_edit) $(srcdir)/$@.in >$@.tmp && mv $@.tmp $@
cmake/sdtkit-config.cmake: $(srcdir)/cmake/sdtkit-config.cmake.in
cmake/sdtkit-config-version.cmake: $(srcdir)/cmake/sdtkit-config-version.cmake.in

# The same packages found from <prefix>/share/cmake, which CMake searches
# even for a project with no language enabled (`project(x NONE)'), where it
# does not know the lib/<multiarch> directory: small files that load the
# package from its library directory. libstapsdt's two files work from
# there as they are (they include ../sdtkit/).
sdtkitsharecmakedir = $(datadir)/cmake/sdtkit
libstapsdtsharecmakedir = $(datadir)/cmake/libstapsdt
dist_sdtkitsharecmake_DATA = \
	cmake/share/sdtkit-arch.cmake \
	cmake/share/sdtkit-config.cmake \
	cmake/share/sdtkit-config-version.cmake
libstapsdtsharecmake_DATA = $(dist_libstapsdtcmake_DATA)
