/* SPDX-License-Identifier: MIT */
/* The agent's PCP domain, in PCP's range for agents not registered with it (385-510). PCP's
 * Install and Remove scripts read it from this file, as the agent does. */
#define PMAPI 470
