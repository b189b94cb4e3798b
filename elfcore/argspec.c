/* SPDX-License-Identifier: MIT */
#include "argspec.h"
