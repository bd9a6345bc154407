/* SPDX-License-Identifier: MIT */
/* Fuchsia's status type and the codes the perfmon controller returns, with Fuchsia's
 * names and values, so that code written against <zircon/types.h> reads the same. */
#ifndef LIBPMAPI_COMPAT_FUCHSIA_PERFMON_STATUS_H_
#define LIBPMAPI_COMPAT_FUCHSIA_PERFMON_STATUS_H_

#include <stdint.h>

#ifndef ZX_OK
typedef int32_t zx_status_t;
#define ZX_OK 0
#define ZX_ERR_INTERNAL (-1)
#define ZX_ERR_NOT_SUPPORTED (-2)
#define ZX_ERR_NO_RESOURCES (-3)
#define ZX_ERR_NO_MEMORY (-4)
#define ZX_ERR_INVALID_ARGS (-10)
#define ZX_ERR_BAD_HANDLE (-11)
#define ZX_ERR_OUT_OF_RANGE (-14)
#define ZX_ERR_BUFFER_TOO_SMALL (-15)
#define ZX_ERR_BAD_STATE (-20)
#define ZX_ERR_TIMED_OUT (-21)
#define ZX_ERR_NOT_FOUND (-25)
#define ZX_ERR_ALREADY_BOUND (-27)
#define ZX_ERR_ACCESS_DENIED (-30)
#define ZX_ERR_IO (-40)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* "ZX_ERR_BAD_STATE" for -20; "ZX_ERR_UNKNOWN" for a code not listed above. */
const char *perfmon_status_name(zx_status_t status);

#ifdef __cplusplus
}
#endif

#endif
