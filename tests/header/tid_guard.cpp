// SPDX-License-Identifier: MIT
// The same guard checks, compiled as C++.
#include "tid_guard.c"
