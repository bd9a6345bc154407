/* SPDX-License-Identifier: MIT */
// pmcost's command line.
#pragma once

#include <string>
#include <vector>

// -n's most: a row keeps each call's time (8 bytes) until it is summarized, 8 GB at this many.
constexpr long kMaxIterations = 1000000000;

struct Options {
  long iterations = 10000;
  // Catalog short names, one per counter.
  std::vector<std::string> events = {"task-clock", "page-faults", "context-switches",
                                     "cpu-migrations"};
  bool help = false;
  bool version = false;
};

// Parses argv; on a bad argument prints the usage error to stderr and returns false.
bool ParseOptions(int argc, char **argv, Options *options);
void PrintUsage(const char *program);
