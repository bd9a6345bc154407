/* SPDX-License-Identifier: MIT */
/* find_package(pmapi COMPONENTS zx_sampler): zircon/syscalls-next.h from pmapi::zx_sampler. */
#include <zircon/syscalls-next.h>

#include "component_client.h"

int main(void) { return report_resolved("zx_sampler", (void (*)(void))zx_sampler_create); }
