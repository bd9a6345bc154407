// SPDX-License-Identifier: MIT
// The agent's configuration file (agent_config.h).
#include "agent_config.h"

#include <errno.h>

#include <fstream>

namespace pmapi_pcp {
namespace {

std::string Trim(const std::string &s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

}  // namespace

bool ReadAgentConfig(const std::string &path, AgentConfig *config, std::string *why) {
  std::ifstream in(path);
  if (!in) return true;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    if (Trim(line).empty()) continue;
    const size_t equals = line.find('=');
    const std::string key = equals == std::string::npos ? "" : Trim(line.substr(0, equals));
    const std::string value = equals == std::string::npos ? "" : Trim(line.substr(equals + 1));
    if (key == "events") {
      config->events = value;
    } else if (key == "cgroup_root") {
      config->cgroup_root = value;
    } else if (key == "perfevent_lock") {
      config->perfevent_lock = value;
    } else if (key == "job_access" && (value == "owner" || value == "all")) {
      config->jobs_to_owner = value == "owner";
    } else {
      *why = path + ":" + std::to_string(number) +
             ": expected 'events = SPEC', 'cgroup_root = DIRECTORY', 'job_access = owner|all' or " +
             "'perfevent_lock = FILE'";
      return false;
    }
  }
  return true;
}

}  // namespace pmapi_pcp
