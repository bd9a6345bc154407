// SPDX-License-Identifier: MIT
#include "output_pattern.h"

#include <stdlib.h>
#include <unistd.h>

#include "launcher_rank.h"

namespace pmcount {
namespace {

bool EndsWith(const std::string &text, const std::string &tail) {
  return text.size() > tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::string LauncherRank() {
  int rank = 0;
  return tools::LauncherRank(&rank) ? std::to_string(rank) : "";
}

std::string ApplyOutputPattern(Options *options) {
  const std::string &pattern = options->output_path;
  if (pattern.empty() || pattern == "-") return "";
  std::string path;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      path += pattern[i];
      continue;
    }
    const char directive = i + 1 < pattern.size() ? pattern[++i] : '\0';
    switch (directive) {
      case '%':
        path += '%';
        break;
      case 'p':
        path += std::to_string(getpid());
        break;
      case 'h': {
        char host[256] = "";
        gethostname(host, sizeof host - 1);
        path += host;
        break;
      }
      case 'r': {
        const std::string rank = LauncherRank();
        if (rank.empty()) {
          return "-o " + pattern + ": %r needs the rank from the launcher, but none of " +
                 tools::LauncherVariables() + " is set (run pmcount under mpirun or srun)";
        }
        path += rank;
        break;
      }
      default:
        return "-o " + pattern + ": unknown directive %" + std::string(1, directive) +
               " (%r rank, %h host, %p process id, %% a percent sign)";
    }
  }
  options->output_path = path;
  if (options->format == Format::kHuman && EndsWith(path, ".csv")) {
    options->format = Format::kCsv;
    options->separator = ",";
  } else if (options->format == Format::kHuman && EndsWith(path, ".json")) {
    options->format = Format::kJson;
  }
  return "";
}

}  // namespace pmcount
