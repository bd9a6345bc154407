// SPDX-License-Identifier: MIT
#include "hpm_main.h"

#include <pmapi.h>
#include <stdio.h>

#include "event_choice.h"
#include "hpm_run.h"
#include "prepared.h"
#include "tool_messages.h"

namespace aix {
namespace {

constexpr int kFailed = 125;

int UsageError(Tool tool, const std::string &message) {
  return tools::UsageError(ToolName(tool), message);
}

}  // namespace

int HpmMain(Tool tool, int argc, char **argv) {
  HpmOptions options;
  std::string error =
      ParseHpmOptions(tool, std::vector<std::string>(argv + 1, argv + argc), &options);
  if (!error.empty()) return UsageError(tool, error);
  if (options.help) {
    fputs(HpmUsage(tool).c_str(), stdout);
    return 0;
  }
  if (options.version) return tools::PrintVersion(ToolName(tool));
  pm_info2_t info;
  pm_groups_info_t groups = {};
  const int rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT | PM_GET_GROUPS, &info,
                               &groups, PM_CURRENT);
  if (rc != 0) {
    fprintf(stderr, "%s: %s\n", ToolName(tool), pm_strerror("pm_initialize", rc));
    return kFailed;
  }
  EventChoice choice;
  error = ChooseEvents(options, groups, &choice);
  if (!error.empty()) return UsageError(tool, error);
  Prepared prepared;
  error = Prepare(options, choice, &prepared);
  if (!error.empty()) return UsageError(tool, error);
  return tool == Tool::kHpmcount ? RunHpmcount(options, prepared) : RunHpmstat(options, prepared);
}

}  // namespace aix
