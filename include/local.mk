# The header-only product, installed as <sys/sdt.h>.
sysincludedir = $(sdtincludedir)/sys
sysinclude_HEADERS = include/sys/sdt.h include/sys/sdt-config.h
# `man sdt.h'.
dist_man_MANS += include/sdt.h.3
