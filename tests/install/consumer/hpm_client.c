/* SPDX-License-Identifier: MIT */
/* find_package(pmapi COMPONENTS hpm): libhpm.h from pmapi::hpm's include directory. */
#include <libhpm.h>

#include "component_client.h"

int main(void) { return report_resolved("hpm", (void (*)(void))hpmStart); }
