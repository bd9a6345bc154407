/* SPDX-License-Identifier: MIT */
// The synthetic machines of tests/topology/machines/: hwloc XML files (as `lstopo --of xml`
// writes them) that Topology::LoadFromXml or HWLOC_XMLFILE load in place of this machine.
#pragma once

#include <stdlib.h>

#include <string>

namespace pmapi_test {

inline std::string TopologyMachine(const char *name) {
  std::string source;
  if (const char *dir = getenv("PMAPI_SOURCE_DIR")) {
    source = dir;
  } else {
    source = __FILE__;  // .../tests/support/topology_machines.h
    source = source.substr(0, source.rfind("/tests/"));
  }
  return source + "/tests/topology/machines/" + name;
}

}  // namespace pmapi_test
