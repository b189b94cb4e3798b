/* SPDX-License-Identifier: MIT */
#include "note.h"
