/* SPDX-License-Identifier: MIT */
/* find_package(pmapi COMPONENTS pmc): <sys/pmc.h> from pmapi::pmc's include directory. */
#include <sys/pmc.h>

#include "component_client.h"

int main(void) { return report_resolved("pmc", (void (*)(void))pmc_get_info); }
