// SPDX-License-Identifier: MIT
// pm_select_events (include/pmapi_select.h): every spec form becomes the program it names and
// that program counts; the default set follows whether cycles count here; a refused spec says
// which name and why, with the closest names; bad arguments get a clear error.
#include <gtest/gtest.h>
#include <pmapi_select.h>
#include <unistd.h>

#include <string>

#include "support/counting.h"

namespace {

using pmapi_test::CountGetppidOnMyThread;
using pmapi_test::InitializeAll;

pm_selection_t Select(const char *spec, int flags = 0, int expected = 0) {
  pm_selection_t s;
  EXPECT_EQ(pm_select_events(spec, flags, &s), expected) << (spec ? spec : "NULL") << ": " << s.why;
  return s;
}

TEST(SelectEvents, NeedsInitialization) {
  const int status = pmapi_test::InChild([] {
    pm_selection_t s;
    _exit(pm_select_events("task-clock", 0, &s) == Pmapi_NoInit && s.nevents == 0 ? 0 : 1);
  });
  EXPECT_EQ(status, 0);
}

TEST(SelectEvents, BadArgumentsAreRefusedClearly) {
  if (!InitializeAll()) return;
  EXPECT_EQ(pm_select_events("task-clock", 0, nullptr), Pmapi_InvalidArg);
  pm_selection_t s;
  EXPECT_EQ(pm_select_events("task-clock", 0x100, &s), Pmapi_InvalidArg);
  EXPECT_STREQ(s.why, "flags has bits no PM_SELECT_* names");
}

// A tracepoint's program counts exactly: ten getppid calls are ten counts.
TEST(SelectEvents, ATracepointProgramCountsExactly) {
  if (!InitializeAll()) return;
  pm_selection_t s = Select("syscalls:sys_enter_getppid");
  ASSERT_EQ(s.nevents, 1);
  EXPECT_STREQ(s.events[0].name, "syscalls:sys_enter_getppid");
  EXPECT_EQ(s.prog.events[0], s.events[0].event_id);
  EXPECT_EQ(s.prog.events[1], COUNT_NOTHING);
  EXPECT_EQ(s.group_id, -1);
  pm_data_t data;
  ASSERT_TRUE(CountGetppidOnMyThread(&s.prog, 10, &data));
  EXPECT_EQ(data.accu[0], 10);
  pm_delete_program_mythread();
}

TEST(SelectEvents, SpecForms) {
  if (!InitializeAll()) return;
  // perf's generic name, an id (shown as its event's name), modifiers, a libpfm4 string with
  // umasks the catalog adds, blanks around names with PM_SELECT_BLANKS.
  const pm_selection_t named = Select("task-clock,PM_CYC");
  ASSERT_EQ(named.nevents, 2);
  const pm_selection_t alias = Select("cycles");
  EXPECT_EQ(alias.events[0].event_id, named.events[1].event_id);
  EXPECT_STREQ(alias.events[0].name, "cycles");
  const std::string id = std::to_string(named.events[0].event_id);
  const pm_selection_t by_id = Select((id + ":u").c_str());
  EXPECT_STREQ(by_id.events[0].name, "task-clock:u");
  EXPECT_TRUE(by_id.events[0].has_mode && by_id.events[0].user && !by_id.events[0].kernel);
  EXPECT_FALSE(named.events[0].has_mode);
  const pm_selection_t pfm = Select("perf::PERF_COUNT_HW_CACHE_L1D:READ:MISS:k");
  EXPECT_STREQ(pfm.events[0].name, "perf::PERF_COUNT_HW_CACHE_L1D:READ:MISS:k");
  EXPECT_TRUE(pfm.events[0].has_mode && !pfm.events[0].user && pfm.events[0].kernel);
  const pm_selection_t blanks = Select(" task-clock \n page-faults,", PM_SELECT_BLANKS);
  ASSERT_EQ(blanks.nevents, 2);
  EXPECT_STREQ(blanks.events[1].name, "page-faults");
}

TEST(SelectEvents, AGroupAloneProgramsTheGroup) {
  if (!InitializeAll()) return;
  const pm_selection_t s = Select("pm_sw_basic");
  ASSERT_GE(s.group_id, 0);
  EXPECT_STREQ(s.group_name, "pm_sw_basic");
  EXPECT_TRUE(s.prog.mode.b.is_group);
  EXPECT_EQ(s.prog.events[0], s.group_id);
  ASSERT_EQ(s.nevents, 4);
  EXPECT_STREQ(s.events[3].name, "page-faults");
  const std::string number = std::to_string(s.group_id);
  EXPECT_EQ(Select(number.c_str(), PM_SELECT_GROUP_NUMBERS).group_id, s.group_id);
  EXPECT_EQ(Select(number.c_str(), PM_SELECT_GROUP).group_id, s.group_id);
  const pm_selection_t user = Select("pm_sw_basic:u");  // modifiers apply to every member
  ASSERT_EQ(user.group_id, s.group_id);
  EXPECT_TRUE(user.events[3].has_mode && user.events[3].user && !user.events[3].kernel);
  pm_prog_t prog = s.prog;
  EXPECT_EQ(pm_set_program_mythread(&prog), 0);
  pm_delete_program_mythread();
}

// pm_basic where cycles count, else pm_sw_basic with a note; NULL and "" alike.
TEST(SelectEvents, TheDefaultSetFollowsWhetherCyclesCount) {
  if (!InitializeAll()) return;
  const bool cycles_count = Select("PM_CYC").events[0].countable;
  for (const char *spec : {static_cast<const char *>(nullptr), ""}) {
    const pm_selection_t s = Select(spec);
    EXPECT_TRUE(s.is_default);
    EXPECT_STREQ(s.group_name, cycles_count ? "pm_basic" : "pm_sw_basic");
    EXPECT_EQ(std::string(s.note).find(": counting software events") != std::string::npos,
              !cycles_count)
        << s.note;
    const pm_selection_t wide = Select(spec, PM_SELECT_WIDE_DEFAULT);
    EXPECT_EQ(wide.nevents, cycles_count ? 8 : 4);
    EXPECT_EQ(wide.group_id >= 0, !cycles_count);
  }
}

TEST(SelectEvents, RefusalsSayWhichNameAndWhy) {
  if (!InitializeAll()) return;
  pm_selection_t s = Select("task-clock,task-clok", 0, Pmapi_InvalidEvent);
  EXPECT_EQ(s.refusal, PM_SELECT_UNKNOWN_EVENT);
  EXPECT_STREQ(s.refused, "task-clok");
  ASSERT_GE(s.nsuggestions, 1);
  EXPECT_STREQ(s.suggestions[0], "task-clock");
  EXPECT_EQ(std::string(s.why).rfind("unknown event 'task-clok'; did you mean task-clock", 0), 0u)
      << s.why;
  EXPECT_EQ(s.nevents, 0);  // nothing half-chosen
  EXPECT_EQ(std::string(pm_strerror("x", Pmapi_InvalidEvent)).find(s.why) != std::string::npos,
            true);

  s = Select("pm_sw_basic,task-clock", 0, Pmapi_InvalidEvent);
  EXPECT_EQ(s.refusal, PM_SELECT_GROUP_IN_LIST);
  EXPECT_STREQ(s.why,
               "'pm_sw_basic' is a group, and a group cannot be combined with other events; name "
               "the group alone or list its events (task-clock,context-switches,cpu-migrations,"
               "page-faults)");
  const std::string number = std::to_string(Select("pm_sw_basic").group_id);
  s = Select(("task-clock " + number).c_str(), PM_SELECT_GROUP_NUMBERS | PM_SELECT_BLANKS,
             Pmapi_InvalidEvent);
  EXPECT_EQ(std::string(s.why).rfind("'" + number + "' is the group pm_sw_basic, and", 0), 0u)
      << s.why;

  s = Select("task-clock,page-faults,task-clock", 0, Pmapi_InvalidEvent);
  EXPECT_EQ(s.refusal, PM_SELECT_REPEATED);
  EXPECT_STREQ(s.why, "event 'task-clock' is given twice");
  s = Select("a,b,c,d,e,f,g,h,i", 0, Pmapi_InvalidEvent);
  EXPECT_EQ(s.refusal, PM_SELECT_TOO_MANY);
  EXPECT_STREQ(s.why, "9 events given; one pmapi program counts at most 8 together");
  s = Select("task-clock,,page-faults", 0, Pmapi_InvalidEvent);
  EXPECT_EQ(s.refusal, PM_SELECT_SYNTAX);
  s = Select("pm_sw_basc", PM_SELECT_GROUP, Pmapi_InvalidGroup);
  EXPECT_EQ(s.refusal, PM_SELECT_UNKNOWN_GROUP);
  EXPECT_STREQ(s.suggestions[0], "pm_sw_basic");
  EXPECT_EQ(std::string(s.why).rfind("unknown group 'pm_sw_basc'; did you mean pm_sw_basic", 0), 0u)
      << s.why;
  s = Select("99999999", PM_SELECT_GROUP_NUMBERS, Pmapi_InvalidGroup);
  EXPECT_STREQ(s.why, "no group has the number 99999999");
  s = Select("99999999", 0, Pmapi_InvalidEvent);
  EXPECT_STREQ(s.why, "no event has the id 99999999 here (pmlist lists the ids)");
  // A wildcard is pmcount's and pmlist's, not a program's: said so, with no look-alike names.
  s = Select("task-clock,page-fau*", 0, Pmapi_InvalidEvent);
  EXPECT_EQ(s.refusal, PM_SELECT_UNKNOWN_EVENT);
  EXPECT_STREQ(s.why,
               "unknown event 'page-fau*': a pmapi program takes event names, not patterns; "
               "pmcount -e expands them, and pmlist 'page-fau*' lists the events one matches");
  EXPECT_EQ(s.nsuggestions, 0);
}

}  // namespace
