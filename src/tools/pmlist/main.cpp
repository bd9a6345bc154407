// SPDX-License-Identifier: MIT
// pmlist: what this machine can count through the AIX pmapi calls (docs/pmlist.1).
#include <pmapi.h>
#include <pmapi_settings.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "aix_query.h"
#include "listing.h"
#include "no_match.h"
#include "options.h"
#include "printing.h"
#include "text_wrap.h"
#include "tool_messages.h"

namespace pmlist {
namespace {

bool WriteAll(const std::string &text) {
  return fwrite(text.data(), 1, text.size(), stdout) == text.size() && fflush(stdout) == 0;
}

int NothingFound(const std::string &why) {
  fprintf(stderr, "pmlist: %s\n", why.c_str());
  return 1;
}

// Descriptions wrap on a terminal only: a pipe or a file gets one line per event.
size_t TerminalWrapWidth(const Options &options) {
  const bool terminal = isatty(STDOUT_FILENO);
  winsize size{};
  const int columns = terminal && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 ? size.ws_col : 0;
  return WrapWidth(terminal, options.no_wrap, getenv("COLUMNS"), columns);
}

int Main(int argc, char **argv) {
  Options options;
  const std::string error = ParseOptions(std::vector<std::string>(argv + 1, argv + argc), &options);
  if (!error.empty()) return tools::UsageError("pmlist", error);
  if (options.help) return WriteAll(UsageText()) ? 0 : 1;
  if (options.version) return tools::PrintVersion("pmlist");

  // pmlist shows every tracepoint, not only those pm_initialize lists by default; listing them
  // all moves no id (docs/catalog.md, "Event ids"). A value the user set is kept.
  const char *listed = "";
  if (pm_get_setting("PMAPI_LIST_TRACEPOINTS", &listed) == 0 && !*listed) {
    pm_set_setting("PMAPI_LIST_TRACEPOINTS", "*");
  }
  // The status filter is pm_initialize's own: the lists it returns are exactly what a pmapi
  // program may use under that filter.
  pm_info2_t info;
  pm_groups_info_t groups = {};
  const bool want_groups = options.groups || options.aix != AixQuery::kNone;
  const int rc = pm_initialize(options.status_filter | (want_groups ? PM_GET_GROUPS : 0), &info,
                               &groups, PM_CURRENT);
  if (rc != 0) {
    fprintf(stderr, "pmlist: %s\n", pm_strerror("pm_initialize", rc));
    return 1;
  }
  std::string text;
  if (options.aix != AixQuery::kNone) {
    const std::string why = AnswerAixQuery(options, info, groups, &text);
    if (!why.empty()) {
      fprintf(stderr, "pmlist: %s\n", why.c_str());
      return 1;
    }
    return WriteAll(text) ? 0 : 1;
  }
  // A search that finds nothing says why, with the closest names, and fails as grep does:
  // nothing on standard output, exit status 1.
  if (options.groups) {
    std::vector<GroupRow> rows = ListGroups(options, info, groups);
    if (rows.empty() && !options.pattern.empty()) return NothingFound(NoGroupMatches(options));
    text = options.json ? GroupJson(info.proc_name, rows) : GroupTable(rows);
  } else {
    std::vector<EventRow> rows = ListEvents(options, info);
    if (rows.empty() && !options.pattern.empty()) return NothingFound(NoEventMatches(options));
    text = options.json ? EventJson(info.proc_name, rows, options.verbose)
                        : EventTable(rows, options.verbose, TerminalWrapWidth(options));
  }
  if (!options.json) text = "processor: " + std::string(info.proc_name) + "\n" + text;
  return WriteAll(text) ? 0 : 1;
}

}  // namespace
}  // namespace pmlist

int main(int argc, char **argv) { return pmlist::Main(argc, argv); }
