# The header-only product, installed as <sys/sdt.h>.
sysincludedir = $(sdtincludedir)/sys
sysinclude_HEADERS = include/sys/sdt.h include/sys/sdt-config.h
# <usdt.h> (libbpf's single-header USDT API on <sys/sdt.h>), beside sys/:
# the same -I (sdtkit.pc, sdtkit::sdt) reaches both.
sdtinclude_HEADERS = include/usdt.h
# `man sdt.h', `man usdt.h'.
dist_man_MANS += include/sdt.h.3 include/usdt.h.3
