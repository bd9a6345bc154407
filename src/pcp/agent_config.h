// SPDX-License-Identifier: MIT
// The agent's configuration file ($PCP_SYSCONF_DIR/pmapi/pmapi.conf, /etc/pcp/pmapi/pmapi.conf):
// `key = value` lines, '#' comments. Keys: events (a spec or a group name; empty: the library's
// default), cgroup_root (the directory whose subdirectories are jobs; empty: no jobs),
// job_access (owner: a job's instances only to the owner of its directory and root; all: to
// every client pmcd lets in), perfevent_lock (the lock file whose holder the agent steps aside
// for; empty: PCP's, $PCP_PMDAS_DIR/perfevent/perflock).
#ifndef PMAPI_PCP_AGENT_CONFIG_H
#define PMAPI_PCP_AGENT_CONFIG_H

#include <string>

namespace pmapi_pcp {

struct AgentConfig {
  std::string events;
  std::string cgroup_root;
  bool jobs_to_owner = true;
  std::string perfevent_lock;
};

// Reads `path` into *config. A missing file is the defaults. False, with *why naming the file
// and line, for a line that is not `key = value` or an unknown key.
bool ReadAgentConfig(const std::string &path, AgentConfig *config, std::string *why);

}  // namespace pmapi_pcp

#endif  // PMAPI_PCP_AGENT_CONFIG_H
