/* SPDX-License-Identifier: MIT */
// pmlist's AIX queries (-s, -g, -c, -e, -l, -D, -m, -S, -V) in AIX's text layout, or as CSV
// (-o c) or XML (-o x) with the same fields, from pm_initialize's lists and, for the metric
// formulas the public structures lack, the library's group catalog.
#pragma once

#include <pmapi.h>

#include <string>

#include "options.h"

namespace pmlist {

// Fills `text` with the answer. Returns "" or why there is none (an unknown group, event or
// counter; another processor under -p), for "pmlist: <why>" and exit status 1.
std::string AnswerAixQuery(const Options &options, const pm_info2_t &info,
                           const pm_groups_info_t &groups, std::string *text);

}  // namespace pmlist
