/* SPDX-License-Identifier: MIT */
#include "contract.h"
int against_main(int argc, char **argv) { (void)argc; (void)argv; return 2; }
