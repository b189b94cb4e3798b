/* SPDX-License-Identifier: MIT */
/*
 * ELF constants an older <elf.h> may lack, defined once for the core and
 * its users, with the values of the ELF specifications that assign them.
 */
#ifndef SDT_EM_H
#define SDT_EM_H

#include <elf.h>

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

#endif
