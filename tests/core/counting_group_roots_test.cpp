// SPDX-License-Identifier: MIT
// The context that names a counting group (its creator's for _mygroup, its target's for
// _group/_pgroup) cannot be deleted alone through the thread families: that would leave the
// group's totals unreadable and its counters open with nothing to reach them. Such a delete is
// refused with Pmapi_GroupMember and the group stays whole; a thread that joined the group later
// may still leave it by deleting its own context.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

#include "support/child_process.h"
#include "support/counting.h"
#include "support/counting_fixture.h"

using namespace pmapi_test;

namespace {

class GroupRoots : public GetppidTest {};

TEST_F(GroupRoots, ThirdPartyTargetsContextIsNotDeletedAlone) {
  // The target's own child counts into the group too.
  CallingChild target([] {
    const pid_t grandchild = fork();
    if (grandchild == 0) {
      CallGetppid(1000);
      _exit(0);
    }
    waitpid(grandchild, nullptr, 0);
  });
  ASSERT_TRUE(target.ok());
  const pid_t child = target.pid();
  const int baseline = CountPerfDescriptors();
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL | PM_COUNT);
  ASSERT_EQ(pm_set_program_group(child, child, &prog), 0);
  ASSERT_TRUE(target.Go());

  EXPECT_EQ(pm_delete_program_thread(child, child), Pmapi_GroupMember);
  EXPECT_NE(std::string(pm_strerror("delete", Pmapi_GroupMember)).find("pm_delete_program_group"),
            std::string::npos);
  EXPECT_EQ(pm_delete_program_pthread(child, child, 0), Pmapi_GroupMember);
  pm_data_t data;
  ASSERT_EQ(pm_get_data_group(child, child, &data), 0) << "the group is still whole";
  EXPECT_EQ(data.accu[0], 1000);
  ASSERT_EQ(pm_get_data_thread(child, child, &data), 0) << "and so is the target's own context";
  EXPECT_EQ(pm_delete_program_group(child, child), 0);
  EXPECT_EQ(CountPerfDescriptors(), baseline) << "the group's delete closed everything";
}

TEST_F(GroupRoots, MyGroupCreatorsContextIsNotDeletedAlone) {
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL | PM_COUNT);
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  CallGetppid(40);
  EXPECT_EQ(pm_delete_program_mythread(), Pmapi_GroupMember);
  CallGetppid(2);
  pm_data_t data;
  ASSERT_EQ(pm_get_data_mygroup(&data), 0);
  EXPECT_EQ(data.accu[0], 42);
  EXPECT_EQ(pm_delete_program_mygroup(), 0);
  EXPECT_EQ(pm_get_data_mythread(&data), Pmapi_NoSetProg) << "the group took the context along";
}

TEST_F(GroupRoots, ALaterMemberStillLeavesByDeletingItsOwnContext) {
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL | PM_COUNT);
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  int member_delete = -1;
  std::thread([&] {
    CallGetppid(30);
    member_delete = pm_delete_program_mythread();
    CallGetppid(5);
  }).join();
  EXPECT_EQ(member_delete, 0);
  pm_data_t data;
  ASSERT_EQ(pm_get_data_mygroup(&data), 0);
  EXPECT_EQ(data.accu[0], 0) << "the leaving member's counts are subtracted, later ones too";
  EXPECT_EQ(pm_delete_program_mygroup(), 0);
}

}  // namespace
