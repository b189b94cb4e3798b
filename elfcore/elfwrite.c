/* SPDX-License-Identifier: MIT */
#include "elfobj.h"
