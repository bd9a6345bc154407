// SPDX-License-Identifier: MIT
// The same layout checks, compiled as C++.
#include "bits_run.c"
