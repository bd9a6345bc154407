/* SPDX-License-Identifier: MIT */
// The main of hpmcount and hpmstat, which differ only in their options and in what they count.
#pragma once

#include "hpm_options.h"

namespace aix {

int HpmMain(Tool tool, int argc, char **argv);

}  // namespace aix
