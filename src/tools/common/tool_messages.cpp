// SPDX-License-Identifier: MIT
#include "tool_messages.h"

#include <stdio.h>

namespace tools {

int UsageError(const char *tool, const std::string &message) {
  fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n", tool, message.c_str(), tool);
  return kUsageExit;
}

std::string VersionText(const char *tool) {
  return std::string(tool) + " (libpmapi) " PMAPI_TOOLS_VERSION "\n";
}

int PrintVersion(const char *tool) {
  const std::string text = VersionText(tool);
  return fwrite(text.data(), 1, text.size(), stdout) == text.size() && fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace tools
