// SPDX-License-Identifier: MIT
// Every rule of the controller's state machine and every status it returns, through the C++
// Controller and through the C cpuperf calls alike.
#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>

#include "perfmon_test_helpers.h"

namespace perfmon_test {
namespace {

class StateMachine : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    api_ = OpenApi(GetParam());
    ASSERT_TRUE(api_);
  }
  // A config this machine accepts with no privilege: a software event, counted.
  perfmon_config_t Counting() {
    return Config({{Id("linux:task-clock"), 0, PERFMON_FLAG_COLLECT_USER}});
  }
  std::unique_ptr<Api> api_;
};

TEST_P(StateMachine, OneOpenAtATimeAcrossBothFrontEnds) {
  std::unique_ptr<perfmon::Controller> second;
  EXPECT_EQ(perfmon::Controller::Open(&second), ZX_ERR_ALREADY_BOUND);
  cpuperf_handle_t handle = 0;
  EXPECT_EQ(cpuperf_open(&handle), ZX_ERR_ALREADY_BOUND);
  api_.reset();
  EXPECT_EQ(cpuperf_open(&handle), ZX_OK);
  EXPECT_EQ(cpuperf_close(handle), ZX_OK);
  // A closed handle is no handle, and its number is not reused.
  EXPECT_EQ(ioctl_cpuperf_start(handle), ZX_ERR_BAD_HANDLE);
  EXPECT_EQ(cpuperf_close(handle), ZX_ERR_BAD_HANDLE);
  cpuperf_handle_t next = 0;
  ASSERT_EQ(cpuperf_open(&next), ZX_OK);
  EXPECT_NE(next, handle);
  EXPECT_EQ(ioctl_cpuperf_free_trace(handle), ZX_ERR_BAD_HANDLE);
  EXPECT_EQ(cpuperf_close(next), ZX_OK);
}

TEST_P(StateMachine, NothingWorksBeforeInitialize) {
  perfmon_allocation_t allocation;
  perfmon_config_t config;
  int fd = -1;
  EXPECT_EQ(api_->GetAllocation(&allocation), ZX_ERR_BAD_STATE);
  EXPECT_EQ(api_->GetConfig(&config), ZX_ERR_BAD_STATE);
  EXPECT_EQ(api_->GetBufferHandle(0, &fd), ZX_ERR_BAD_STATE);
  EXPECT_EQ(api_->StageConfig(Counting()), ZX_ERR_BAD_STATE);
  EXPECT_EQ(api_->Start(), ZX_ERR_BAD_STATE);
  EXPECT_FALSE(api_->LastError().empty());
  api_->Stop();  // no-ops, and repeatable
  api_->Stop();
  api_->Terminate();
  api_->Terminate();
  EXPECT_EQ(fd, -1);
}

TEST_P(StateMachine, InitializeChecksItsAllocation) {
  EXPECT_EQ(api_->Initialize({NumCpus() + 1, 1}), ZX_ERR_INVALID_ARGS);
  EXPECT_NE(api_->LastError().find("number of CPUs"), std::string::npos);
  EXPECT_EQ(api_->Initialize({0, 1}), ZX_ERR_INVALID_ARGS);
  EXPECT_EQ(api_->Initialize({NumCpus(), 0}), ZX_ERR_INVALID_ARGS);
  EXPECT_EQ(api_->Initialize({NumCpus(), PERFMON_MAX_BUFFER_PAGES + 1}), ZX_ERR_INVALID_ARGS);
  ASSERT_EQ(api_->Initialize(Allocation(2)), ZX_OK);
  EXPECT_EQ(api_->Initialize(Allocation(2)), ZX_ERR_BAD_STATE);
  perfmon_allocation_t allocation{};
  ASSERT_EQ(api_->GetAllocation(&allocation), ZX_OK);
  EXPECT_EQ(allocation.num_buffers, NumCpus());
  EXPECT_EQ(allocation.buffer_size_in_pages, 2u);
  api_->Terminate();
  EXPECT_EQ(api_->GetAllocation(&allocation), ZX_ERR_BAD_STATE);
  EXPECT_EQ(api_->Initialize(Allocation(1)), ZX_OK);  // again after Terminate
}

TEST_P(StateMachine, StartNeedsAStagedConfigAndAFailedStageLeavesNone) {
  ASSERT_EQ(api_->Initialize(Allocation()), ZX_OK);
  EXPECT_EQ(api_->Start(), ZX_ERR_BAD_STATE);
  ASSERT_EQ(api_->StageConfig(Counting()), ZX_OK);
  perfmon_config_t back{};
  ASSERT_EQ(api_->GetConfig(&back), ZX_OK);
  perfmon_config_t staged = Counting();
  // Verbatim, field by field: a slot's padding after its 16-bit id is nobody's value (a copy
  // may leave it, and clang's ASan build did).
  for (size_t i = 0; i < PERFMON_MAX_NUM_EVENTS; ++i) {
    EXPECT_EQ(back.events[i].event, staged.events[i].event) << i;
    EXPECT_EQ(back.events[i].rate, staged.events[i].rate) << i;
    EXPECT_EQ(back.events[i].flags, staged.events[i].flags) << i;
  }
  EXPECT_EQ(api_->StageConfig(perfmon_config_t{}), ZX_ERR_INVALID_ARGS);
  EXPECT_EQ(api_->GetConfig(&back), ZX_ERR_BAD_STATE);
  EXPECT_EQ(api_->Start(), ZX_ERR_BAD_STATE);
}

TEST_P(StateMachine, StagingRules) {
  ASSERT_EQ(api_->Initialize(Allocation()), ZX_OK);
  perfmon_event_id_t clock = Id("linux:cpu-clock"), task = Id("linux:task-clock");
  ASSERT_NE(clock, 0);
  ASSERT_NE(task, 0);
  struct Case {
    const char *what;
    perfmon_config_t config;
    zx_status_t expected;
  };
  perfmon_config_t hole = Config({{clock, 0, 0}});
  hole.events[2] = {task, 0, 0};
  perfmon_config_t stray_rate = Config({{clock, 0, 0}});
  stray_rate.events[1].rate = 5;  // event 0 ends the list; the rest must be all zero
  const uint32_t tb = PERFMON_FLAG_IS_TIMEBASE;
  const Case cases[] = {
      {"no events", perfmon_config_t{}, ZX_ERR_INVALID_ARGS},
      {"a hole", hole, ZX_ERR_INVALID_ARGS},
      {"a rate after the end", stray_rate, ZX_ERR_INVALID_ARGS},
      {"two timebases", Config({{clock, 1000, tb}, {task, 1000, tb}}), ZX_ERR_INVALID_ARGS},
      {"timebase at rate 0", Config({{clock, 0, tb}}), ZX_ERR_INVALID_ARGS},
      {"PC at rate 0", Config({{clock, 0, PERFMON_FLAG_COLLECT_PC}}), ZX_ERR_INVALID_ARGS},
      {"last branch at rate 0", Config({{clock, 0, PERFMON_FLAG_COLLECT_LAST_BRANCH}}),
       ZX_ERR_INVALID_ARGS},
      {"an event twice", Config({{clock, 0, 0}, {clock, 100, 0}}), ZX_ERR_INVALID_ARGS},
      {"unknown flags", Config({{clock, 0, 0x40}}), ZX_ERR_INVALID_ARGS},
      {"group 0", Config({{PERFMON_MAKE_EVENT_ID(0, 5), 0, 0}}), ZX_ERR_INVALID_ARGS},
      {"no such software event", Config({{PERFMON_MAKE_EVENT_ID(PERFMON_GROUP_LINUX, 99), 0, 0}}),
       ZX_ERR_INVALID_ARGS},
      {"no such fixed event", Config({{PERFMON_MAKE_EVENT_ID(PERFMON_GROUP_FIXED, 9), 0, 0}}),
       ZX_ERR_INVALID_ARGS},
      {"misc (none here)", Config({{PERFMON_MAKE_EVENT_ID(PERFMON_GROUP_MISC, 0), 0, 0}}),
       ZX_ERR_INVALID_ARGS},
      {"a group nobody defines", Config({{PERFMON_MAKE_EVENT_ID(20, 1), 0, 0}}),
       ZX_ERR_INVALID_ARGS},
  };
  for (const Case &c : cases) {
    EXPECT_EQ(api_->StageConfig(c.config), c.expected) << c.what;
    EXPECT_FALSE(api_->LastError().empty()) << c.what;
  }
  // Hardware this machine may not have: NOT_SUPPORTED where it has none, else accepted (a fixed
  // event on a programmable counter where the PMU has no fixed ones).
  perfmon_properties_t props = api_->GetProperties();
  zx_status_t fixed = api_->StageConfig(Config({{Id("fixed:instructions_retired"), 0, 0}}));
  EXPECT_EQ(fixed, props.max_num_fixed_events || props.max_num_programmable_events
                       ? ZX_OK
                       : ZX_ERR_NOT_SUPPORTED);
  zx_status_t lbr = api_->StageConfig(Config({{clock, 100000, PERFMON_FLAG_COLLECT_LAST_BRANCH}}));
  EXPECT_EQ(lbr, (props.flags & PERFMON_PROPERTY_HAS_LAST_BRANCH) ? ZX_OK : ZX_ERR_NOT_SUPPORTED);
  // What is allowed: a timebase with followers, PC on a sampled event, every flag combination.
  EXPECT_EQ(api_->StageConfig(Config({{clock, 0, 0},
                                      {task, 100000, tb | PERFMON_FLAG_COLLECT_PC},
                                      {Id(kGetppid), 1, PERFMON_FLAG_COLLECT_OS}})),
            ZX_OK);
}

TEST_P(StateMachine, WhileActive) {
  ASSERT_EQ(api_->Initialize(Allocation()), ZX_OK);
  ASSERT_EQ(api_->SetTarget({getpid(), 0}), ZX_OK);
  ASSERT_EQ(api_->StageConfig(Counting()), ZX_OK);
  ASSERT_EQ(api_->Start(), ZX_OK) << api_->LastError();
  EXPECT_EQ(api_->Start(), ZX_ERR_BAD_STATE);
  EXPECT_EQ(api_->StageConfig(Counting()), ZX_ERR_BAD_STATE);
  EXPECT_EQ(api_->Initialize(Allocation()), ZX_ERR_BAD_STATE);
  EXPECT_EQ(api_->SetTarget({getpid(), 0}), ZX_ERR_BAD_STATE);
  perfmon_config_t config;
  EXPECT_EQ(api_->GetConfig(&config), ZX_OK);  // readable while running
  api_->Stop();
  api_->Stop();                     // idempotent
  EXPECT_EQ(api_->Start(), ZX_OK);  // the staged config stays staged
  api_->Terminate();                // stops
  EXPECT_EQ(api_->Start(), ZX_ERR_BAD_STATE);
  api_->Terminate();
}

TEST_P(StateMachine, BufferHandles) {
  ASSERT_EQ(api_->Initialize(Allocation(3)), ZX_OK);
  int fd = -1;
  EXPECT_EQ(api_->GetBufferHandle(NumCpus(), &fd), ZX_ERR_INVALID_ARGS);
  for (uint32_t cpu = 0; cpu < NumCpus(); ++cpu) {
    ASSERT_EQ(api_->GetBufferHandle(cpu, &fd), ZX_OK);
    struct stat info;
    ASSERT_EQ(fstat(fd, &info), 0);
    EXPECT_EQ(info.st_size, 3 * 4096);
    // Read-only: a writable shared mapping is refused.
    EXPECT_EQ(mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), MAP_FAILED);
    void *map = mmap(nullptr, 4096, PROT_READ, MAP_SHARED, fd, 0);
    ASSERT_NE(map, MAP_FAILED);
    perfmon_reader_t reader;
    EXPECT_EQ(perfmon_reader_init(&reader, map, 4096), ZX_OK);
    munmap(map, 4096);
    close(fd);
  }
}

TEST_P(StateMachine, BadTargetAndAVanishedOne) {
  EXPECT_EQ(api_->SetTarget({-1, 0}), ZX_ERR_INVALID_ARGS);
  ASSERT_EQ(api_->Initialize(Allocation()), ZX_OK);
  ASSERT_EQ(api_->StageConfig(Counting()), ZX_OK);
  pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);
  ASSERT_EQ(api_->SetTarget({child, 0}), ZX_OK);
  EXPECT_EQ(api_->Start(), ZX_ERR_NOT_FOUND);
  EXPECT_NE(api_->LastError().find("perf_event_open"), std::string::npos) << api_->LastError();
}

INSTANTIATE_TEST_SUITE_P(FrontEnds, StateMachine, ::testing::Values("cpp", "c"));

TEST(CCalls, NullArgumentsAreInvalidNotACrash) {
  cpuperf_handle_t handle = 0;
  EXPECT_EQ(cpuperf_open(nullptr), ZX_ERR_INVALID_ARGS);
  ASSERT_EQ(cpuperf_open(&handle), ZX_OK);
  uint32_t zero = 0;
  int fd;
  EXPECT_EQ(ioctl_cpuperf_get_properties(handle, nullptr), ZX_ERR_INVALID_ARGS);
  EXPECT_EQ(ioctl_cpuperf_alloc_trace(handle, nullptr), ZX_ERR_INVALID_ARGS);
  EXPECT_EQ(ioctl_cpuperf_get_alloc(handle, nullptr), ZX_ERR_INVALID_ARGS);
  EXPECT_EQ(ioctl_cpuperf_stage_config(handle, nullptr), ZX_ERR_INVALID_ARGS);
  EXPECT_EQ(ioctl_cpuperf_get_config(handle, nullptr), ZX_ERR_INVALID_ARGS);
  EXPECT_EQ(ioctl_cpuperf_get_buffer_handle(handle, nullptr, &fd), ZX_ERR_INVALID_ARGS);
  EXPECT_EQ(ioctl_cpuperf_get_buffer_handle(handle, &zero, nullptr), ZX_ERR_INVALID_ARGS);
  EXPECT_EQ(cpuperf_set_target(handle, nullptr), ZX_ERR_INVALID_ARGS);
  EXPECT_EQ(ioctl_cpuperf_get_properties(handle + 1, nullptr), ZX_ERR_INVALID_ARGS);
  perfmon_properties_t props;
  EXPECT_EQ(ioctl_cpuperf_get_properties(handle + 1, &props), ZX_ERR_BAD_HANDLE);
  EXPECT_STREQ(perfmon_status_name(ZX_ERR_ALREADY_BOUND), "ZX_ERR_ALREADY_BOUND");
  EXPECT_STREQ(perfmon_status_name(12345), "ZX_ERR_UNKNOWN");
  EXPECT_EQ(cpuperf_close(handle), ZX_OK);
}

TEST(Properties, SayWhatThisMachineHas) {
  std::unique_ptr<perfmon::Controller> c;
  ASSERT_EQ(perfmon::Controller::Open(&c), ZX_OK);
  perfmon_properties_t props = c->GetProperties();
  EXPECT_EQ(props.api_version, PERFMON_API_VERSION);
  EXPECT_EQ(props.max_num_events, PERFMON_MAX_NUM_EVENTS);
  EXPECT_EQ(props.max_num_misc_events, 0);
  // Where the kernel opens no hardware event, there are no hardware counters to report.
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_HARDWARE;
  attr.config = PERF_COUNT_HW_CPU_CYCLES;
  attr.exclude_kernel = 1;
  attr.disabled = 1;
  int fd = static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
  if (fd < 0) {
    EXPECT_EQ(props.max_num_programmable_events, 0);
    EXPECT_EQ(props.max_num_fixed_events, 0);
    EXPECT_EQ(props.flags & PERFMON_PROPERTY_HAS_LAST_BRANCH, 0u);
  } else {
    close(fd);
    EXPECT_GT(props.max_num_programmable_events, 0);
  }
}

TEST(EventIds, EncodeAsFuchsiaDoes) {
  EXPECT_EQ(Id("fixed:instructions_retired"), 0x1001);
  EXPECT_EQ(Id("fixed:unhalted_core_cycles"), 0x1002);
  EXPECT_EQ(Id("arch:unhalted_core_cycles"), 0x0800);
  EXPECT_EQ(Id("arch:branch_misses_retired"), 0x0806);
  EXPECT_EQ(Id("linux:cpu-clock"), PERFMON_MAKE_EVENT_ID(PERFMON_GROUP_LINUX, 1));
  perfmon_event_id_t getppid = Id(kGetppid);
  ASSERT_NE(getppid, 0);
  EXPECT_GE(PERFMON_EVENT_ID_GROUP(getppid), PERFMON_GROUP_TRACEPOINT);
  char name[128];
  EXPECT_EQ(perfmon_event_name(getppid, name, sizeof name), ZX_OK);
  EXPECT_STREQ(name, kGetppid);
  EXPECT_EQ(perfmon_event_name(0x1001, name, sizeof name), ZX_OK);
  EXPECT_STREQ(name, "fixed:instructions_retired");
  EXPECT_EQ(perfmon_event_name(0x2005, name, sizeof name), ZX_ERR_NOT_FOUND);
  EXPECT_STREQ(name, "0x2005");
  perfmon_event_id_t id;
  EXPECT_EQ(perfmon_lookup_event("tracepoint", "nosuch:tracepoint", &id), ZX_ERR_NOT_FOUND);
  EXPECT_EQ(perfmon_lookup_event("nosuchgroup", "x", &id), ZX_ERR_INVALID_ARGS);
  EXPECT_EQ(perfmon_lookup_event(nullptr, "nocolon", &id), ZX_ERR_INVALID_ARGS);
}

}  // namespace
}  // namespace perfmon_test
