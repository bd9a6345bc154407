// SPDX-License-Identifier: MIT
// hpmcount: runs a command and reports its counts as AIX's hpmcount does (docs/man/hpmcount.1).
#include "hpm_main.h"

int main(int argc, char **argv) { return aix::HpmMain(aix::Tool::kHpmcount, argc, argv); }
