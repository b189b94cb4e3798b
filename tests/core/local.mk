# The ELF core and the note dumper every other test reads probes with.
check_PROGRAMS += tests/tools/sdt-notes
tests_tools_sdt_notes_SOURCES = tests/tools/sdt-notes.c
tests_tools_sdt_notes_LDADD = elfcore/libsdtcore.la
