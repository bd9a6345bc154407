/* SPDX-License-Identifier: MIT */
/*
 * Compile-time facts about <pmapi.h> that AIX clients rely on: constant
 * values, struct sizes and member offsets.  Included by every header
 * compile test, in C99, C11, C++11 and C++17, so it may use only what all
 * four accept under -pedantic.
 */
#ifndef PMAPI_TEST_STATIC_CHECKS_H
#define PMAPI_TEST_STATIC_CHECKS_H

#include <stddef.h>

#include <pmapi.h>

#if defined(__cplusplus)
#define PMAPI_CHECK(cond, name) static_assert(cond, #name)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define PMAPI_CHECK(cond, name) _Static_assert(cond, #name)
#else
/* C99 has no static assertion: a negative array size is the portable one. */
#define PMAPI_CHECK(cond, name) typedef char pmapi_check_##name[(cond) ? 1 : -1]
#endif

/* Limits (reference 2.1). */
PMAPI_CHECK(MAX_COUNTERS == 8, max_counters);
PMAPI_CHECK(COUNT_NOTHING == -1, count_nothing);
PMAPI_CHECK(MIN_THRESH_VALUE == 0, min_thresh);
PMAPI_CHECK(MAX_THRESH_VALUE == 63, max_thresh);

/* Filters (2.2). */
PMAPI_CHECK(PM_VERIFIED == 1, pm_verified);
PMAPI_CHECK(PM_UNVERIFIED == 2, pm_unverified);
PMAPI_CHECK(PM_CAVEAT == 4, pm_caveat);
PMAPI_CHECK(PM_GET_GROUPS == 8, pm_get_groups);
PMAPI_CHECK(PM_MAX_FILTER == 4, pm_max_filter);

/* Processor types (2.3). */
PMAPI_CHECK(PM_CURRENT == -1, pm_current);
PMAPI_CHECK(PM_PowerPC604 == 0, pm_ppc604);
PMAPI_CHECK(PM_POWER4 == 6, pm_power4);
PMAPI_CHECK(PM_POWER7 == 15, pm_power7);

/* Mode words (2.4). */
PMAPI_CHECK(PM_PROCTREE == 1, pm_proctree);
PMAPI_CHECK(PM_COUNT == 2, pm_count);
PMAPI_CHECK(PM_USER == 4, pm_user);
PMAPI_CHECK(PM_KERNEL == 8, pm_kernel);
PMAPI_CHECK(PM_PROCESS == 16, pm_process);
PMAPI_CHECK(PM_IS_GROUP == 32, pm_is_group);
PMAPI_CHECK(PM_NO_INHERIT == (1 << 19), pm_no_inherit);

/* Timebase (4). */
PMAPI_CHECK(RTC_POWER == 1, rtc_power);
PMAPI_CHECK(RTC_POWER_PC == 2, rtc_power_pc);
PMAPI_CHECK(TIMEBASE_SZ == 3 * sizeof(int), timebase_sz);

/* Every bitfield union is exactly one int, so `w` and `b` alias. */
PMAPI_CHECK(sizeof(pm_mode_t) == sizeof(int), mode_is_int);
PMAPI_CHECK(sizeof(pm_status_t) == sizeof(int), status_is_int);
PMAPI_CHECK(sizeof(pm_feature_t) == sizeof(int), feature_is_int);
PMAPI_CHECK(sizeof(pm_ginfo_t) == 2 * sizeof(int), ginfo_is_two_ints);

/* Member order (3.2, 3.4): clients memcpy whole structs and index accu[]. */
PMAPI_CHECK(offsetof(pm_prog_t, mode) == 0, prog_mode_first);
PMAPI_CHECK(offsetof(pm_prog_t, events) == sizeof(int), prog_events_second);
PMAPI_CHECK(sizeof(((pm_prog_t *)0)->events) == MAX_COUNTERS * sizeof(int), prog_events_8);
PMAPI_CHECK(offsetof(pm_data_t, ginfo) == 0, data_ginfo_first);
PMAPI_CHECK(sizeof(((pm_data_t *)0)->accu) == MAX_COUNTERS * sizeof(long long), data_accu_8);
PMAPI_CHECK(offsetof(timebasestruct_t, flag) == 0, tb_flag_first);
PMAPI_CHECK(offsetof(timebasestruct_t, tb_high) < offsetof(timebasestruct_t, tb_low),
            tb_high_before_low);

#if defined(__LP64__)
/* Sizes on LP64 Linux (3.11): 4 + 32 + 4 padding + 8, and 8 + 64 + 8. */
PMAPI_CHECK(sizeof(pm_prog_t) == 48, prog_size_lp64);
PMAPI_CHECK(sizeof(pm_data_t) == 80, data_size_lp64);
PMAPI_CHECK(offsetof(pm_prog_t, reserved) == 40, prog_reserved_lp64);
PMAPI_CHECK(offsetof(pm_data_t, accu) == 8, data_accu_lp64);
PMAPI_CHECK(offsetof(pm_data_t, reserved) == 72, data_reserved_lp64);
#endif

/* Lets the suite prove an assertion can fail (see header_checks.cmake). */
#ifdef PMAPI_TEST_BREAK_ON_PURPOSE
PMAPI_CHECK(sizeof(pm_prog_t) == 47, deliberately_false);
#endif

#endif /* PMAPI_TEST_STATIC_CHECKS_H */
