/* SPDX-License-Identifier: MIT */
/*
 * Run-time check of the bitfield layouts.  AIX code ORs PM_* constants into
 * `w` and reads `b.*` (and the other way round), so on every byte order each
 * field must sit at the bit AIX gives it (reference 3.1, 3.3, 3.6, 3.7).
 * Bitfield reads through a union are not constant expressions, hence a
 * program.  Exits non-zero and names every mismatch.  Valid C and C++.
 */
#include <stdio.h>

#include <pmapi.h>

static int failures = 0;

static void expect(int ok, const char *what) {
  if (!ok) {
    printf("FAIL: %s\n", what);
    ++failures;
  }
}

/* Sets one field alone from a zero word and checks the word's value. */
#define FIELD_IS_BITS(type, field, value, expected_w)                          \
  do {                                                                         \
    type u;                                                                    \
    u.w = 0;                                                                   \
    u.b.field = (value);                                                       \
    expect((unsigned)u.w == (unsigned)(expected_w), #type "." #field " bits"); \
  } while (0)

/* Sets the word to one constant and checks exactly that field reads back. */
#define CONSTANT_IS_FIELD(constant, field)                     \
  do {                                                         \
    pm_mode_t m;                                               \
    m.w = (constant);                                          \
    expect(m.b.field == 1, #constant " sets b." #field);       \
    m.b.field = 0;                                             \
    expect(m.w == 0, #constant " sets nothing but b." #field); \
  } while (0)

static void mode_word(void) {
  CONSTANT_IS_FIELD(PM_PROCTREE, proctree);
  CONSTANT_IS_FIELD(PM_COUNT, count);
  CONSTANT_IS_FIELD(PM_USER, user);
  CONSTANT_IS_FIELD(PM_KERNEL, kernel);
  CONSTANT_IS_FIELD(PM_PROCESS, process);
  CONSTANT_IS_FIELD(PM_IS_GROUP, is_group);
  CONSTANT_IS_FIELD(PM_NO_INHERIT, no_inherit);

  FIELD_IS_BITS(pm_mode_t, proctree, 1, 1u << 0);
  FIELD_IS_BITS(pm_mode_t, count, 1, 1u << 1);
  FIELD_IS_BITS(pm_mode_t, user, 1, 1u << 2);
  FIELD_IS_BITS(pm_mode_t, kernel, 1, 1u << 3);
  FIELD_IS_BITS(pm_mode_t, process, 1, 1u << 4);
  FIELD_IS_BITS(pm_mode_t, is_group, 1, 1u << 5);
  FIELD_IS_BITS(pm_mode_t, no_inherit, 1, 1u << 19);
  FIELD_IS_BITS(pm_mode_t, wpar_all, 1, 1u << 20);
  FIELD_IS_BITS(pm_mode_t, nointerrupt, 1, 1u << 21);
  FIELD_IS_BITS(pm_mode_t, thresh_hres, 1, 1u << 22);
  FIELD_IS_BITS(pm_mode_t, hypervisor, 1, 1u << 23);
  FIELD_IS_BITS(pm_mode_t, runlatch, 1, 1u << 24);
  FIELD_IS_BITS(pm_mode_t, thresh_res, 1, 1u << 25);
  FIELD_IS_BITS(pm_mode_t, threshold, 1, 1u << 26);
  FIELD_IS_BITS(pm_mode_t, threshold, MAX_THRESH_VALUE, 0x3fu << 26);

  /* The documented idiom from real clients. */
  {
    pm_mode_t m;
    m.w = 0;
    m.w |= PM_USER;
    m.w |= PM_PROCESS;
    expect(m.b.user == 1 && m.b.process == 1 && m.b.kernel == 0 && m.b.count == 0,
           "w |= PM_USER | PM_PROCESS reads back as user+process");
  }
}

static void group_info(void) {
  pm_ginfo_t g;
  g.flags.w = 0;
  g.flags.b.consistent = 1;
  expect(g.flags.w == 1 << 0, "pm_ginfo_t consistent is bit 0");
  g.flags.w = 0;
  g.flags.b.process = 1;
  expect(g.flags.w == 1 << 1, "pm_ginfo_t process is bit 1");
  g.flags.w = 0;
  g.flags.b.direct = 1;
  expect(g.flags.w == 1 << 2, "pm_ginfo_t direct is bit 2");
}

static void status_word(void) {
  FIELD_IS_BITS(pm_status_t, unverified, 1, 1u << 31);
  FIELD_IS_BITS(pm_status_t, verified, 1, 1u << 30);
  FIELD_IS_BITS(pm_status_t, caveat, 1, 1u << 29);
  FIELD_IS_BITS(pm_status_t, broken, 1, 1u << 28);
  FIELD_IS_BITS(pm_status_t, group_only, 1, 1u << 15);
  FIELD_IS_BITS(pm_status_t, threshold, 1, 1u << 14);
  FIELD_IS_BITS(pm_status_t, shared, 1, 1u << 13);
  FIELD_IS_BITS(pm_status_t, support_mode, 1, 1u << 12);
  FIELD_IS_BITS(pm_status_t, overflow, 1, 1u << 11);
  FIELD_IS_BITS(pm_status_t, marked, 1, 1u << 10);
  FIELD_IS_BITS(pm_status_t, sharedchip, 1, 1u << 9);
}

static void feature_word(void) {
  FIELD_IS_BITS(pm_feature_t, hypervisor, 1, 1u << 0);
  FIELD_IS_BITS(pm_feature_t, runlatch, 1, 1u << 1);
  FIELD_IS_BITS(pm_feature_t, purr, 1, 1u << 2);
  FIELD_IS_BITS(pm_feature_t, spurr, 1, 1u << 3);
  FIELD_IS_BITS(pm_feature_t, compatibility, 1, 1u << 4);
}

int main(void) {
  mode_word();
  group_info();
  status_word();
  feature_word();
  if (failures) {
    printf("%d bitfield layout check(s) failed\n", failures);
    return 1;
  }
  printf("all bitfield layout checks passed\n");
  return 0;
}
