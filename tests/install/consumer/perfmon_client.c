/* SPDX-License-Identifier: MIT */
/* find_package(pmapi COMPONENTS perfmon): lib/perfmon/cpuperf.h from pmapi::perfmon. */
#include <lib/perfmon/cpuperf.h>

#include "component_client.h"

int main(void) { return report_resolved("perfmon", (void (*)(void))cpuperf_open); }
