/* SPDX-License-Identifier: MIT */
/* find_package(pmapi COMPONENTS mpi): pmapi_mpi.h, and MPI through pmapi::mpi. */
#include <pmapi_mpi.h>

#include "component_client.h"

int main(void) { return report_resolved("mpi", (void (*)(void))pm_mpi_region_begin); }
