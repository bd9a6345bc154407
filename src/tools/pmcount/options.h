/* SPDX-License-Identifier: MIT */
// pmcount's command line, parsed without touching the machine: a pure function of the
// arguments, so that it can be unit-tested and fuzzed. Whatever needs the machine (do the
// events exist, are the CPUs online) is checked later, still before anything is printed.
#pragma once

#include <string>
#include <vector>

#include "count_options.h"

namespace pmcount {

// pmcount is built on the kit's counting nouns (src/tools/common): its names are pmcount's.
using namespace tools;

// Parses `args` (argv without argv[0]). Returns "" on success, otherwise one sentence saying
// what is wrong, for "pmcount: <sentence>" and a pointer to --help. With --help or --version
// the rest is not validated.
std::string ParseOptions(const std::vector<std::string> &args, Options *options);

// Parses a CPU list such as "0-3,6" into sorted, distinct numbers. Returns "" or what is wrong.
std::string ParseCpuList(const std::string &text, std::vector<int> *cpus);

// The inverse: "0-3,6".
std::string FormatCpuList(const std::vector<int> &cpus);

// The text of --help.
std::string UsageText();

}  // namespace pmcount
