# sdt-list: every probe of a binary or a live process, and whether each
# tracer can read it. See sdt-list/sdt-list.h for how the parts fit.
if HAVE_LIBELF
bin_PROGRAMS += sdt-list/sdt-list
endif
sdt_list_sdt_list_SOURCES = \
	sdt-list/sdt-list.h \
	sdt-list/main.c \
	sdt-list/object.c \
	sdt-list/globs.c \
	sdt-list/types.c \
	sdt-list/signature.c \
	sdt-list/summary.c \
	sdt-list/verbose.c \
	sdt-list/json.c \
	sdt-list/scripts.h \
	sdt-list/scripts.c \
	sdt-list/script-bpftrace.c \
	sdt-list/script-perf.c \
	sdt-list/escape.c \
	sdt-list/membuf.c \
	sdt-list/describe.c \
	sdt-list/consumers.h \
	sdt-list/consumers.c \
	sdt-list/consumer-libbpf.c \
	sdt-list/consumer-bcc.c \
	sdt-list/consumer-bpftrace.c \
	sdt-list/consumer-gdb.c \
	sdt-list/consumer-perf.c \
	sdt-list/proc.c \
	sdt-list/inventory.h \
	sdt-list/inventory.c \
	sdt-list/walk.c \
	sdt-list/peek.c \
	sdt-list/host.c \
	sdt-list/layout.c \
	sdt-list/btstruct.c \
	sdt-list/contract.h \
	sdt-list/side.c \
	sdt-list/diff.c \
	sdt-list/against.c \
	sdt-list/btscript.c
sdt_list_sdt_list_LDADD = dtrace-gen/libsdtdparse.la \
	$(SDT_LAYOUT_LIBS) elfcore/libsdtcore.la -lpthread
dist_man_MANS += sdt-list/sdt-list.1
# The inventory's JSON Schema (sdt-list --json DIR... / -a), for agents.
sdtlistdocdir = $(docdir)
sdtlistdoc_DATA = docs/inventory.schema.json
