/* SPDX-License-Identifier: MIT */
/* What every component client does: take the address of one of the component's calls, which
   makes the loader resolve it against the installed library when the client starts (a data
   reference is bound at load time, not lazily), and say so. */
#ifndef PMAPI_INSTALL_CONSUMER_COMPONENT_CLIENT_H_
#define PMAPI_INSTALL_CONSUMER_COMPONENT_CLIENT_H_

#include <stdio.h>

static int report_resolved(const char *component, void (*volatile call)(void)) {
  if (!call) {
    fprintf(stderr, "%s: the call did not resolve\n", component);
    return 1;
  }
  printf("%s: ok\n", component);
  return 0;
}

#endif
