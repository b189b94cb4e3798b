# The ELF core and the note dumper every other test reads probes with.
check_PROGRAMS += tests/tools/sdt-notes
tests_tools_sdt_notes_SOURCES = tests/tools/sdt-notes.c
tests_tools_sdt_notes_LDADD = elfcore/libsdtcore.la

check_PROGRAMS += tests/core/core-unit
tests_core_core_unit_SOURCES = tests/core/core-unit.c tests/tools/check.h
tests_core_core_unit_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/tools
tests_core_core_unit_LDADD = elfcore/libsdtcore.la
TESTS += tests/core/core-unit

check_PROGRAMS += tests/core/layout-unit
tests_core_layout_unit_SOURCES = tests/core/layout-unit.c tests/tools/check.h
tests_core_layout_unit_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/tools
tests_core_layout_unit_LDADD = elfcore/libsdtlayout.la elfcore/libsdtcore.la
TESTS += tests/core/layout-unit
