// SPDX-License-Identifier: MIT
// The catalog built against a faked kernel: no tracefs, no hardware PMU, no privilege, and a
// made-up sysfs PMU whose format spreads an event over config and config1.
#include <errno.h>
#include <gtest/gtest.h>
#include <linux/perf_event.h>

#include <string>

#include "catalog/catalog.h"
#include "pmapi.h"
#include "support/fake_kernel.h"

namespace {

using pmapi::Catalog;
using pmapi::CatalogEvent;
using pmapi::EventSource;
using pmapi::EventStatus;
using namespace pmapi_test;

size_t CountSource(const Catalog &catalog, EventSource source) {
  size_t count = 0;
  for (const CatalogEvent &event : catalog.events()) count += event.source == source;
  return count;
}

TEST(catalog_fake_kernel, UnreadableTracefsMeansNoTracepoints) {
  FakeKernel kernel;
  kernel.FailWith(FakeKernel::Op::kReadFile, EACCES, "/sys/kernel/tracing");
  kernel.FailWith(FakeKernel::Op::kReadFile, EACCES, "/sys/kernel/debug/tracing");
  kernel.FailWith(FakeKernel::Op::kListDirectory, EACCES, "/sys/kernel/tracing");
  kernel.FailWith(FakeKernel::Op::kListDirectory, EACCES, "/sys/kernel/debug/tracing");
  ScopedKernel installed(&kernel);
  std::unique_ptr<Catalog> catalog = Catalog::Build();
  EXPECT_EQ(CountSource(*catalog, EventSource::kTracepoint), 0u);
  EXPECT_EQ(catalog->FindName("syscalls:sys_enter_getppid"), nullptr);
  EXPECT_NE(catalog->FindName("PM_CYC"), nullptr) << "the rest of the catalog is unaffected";
  EXPECT_GT(kernel.Calls(FakeKernel::Op::kReadFile), 0);
}

TEST(catalog_fake_kernel, NoHardwarePmuMakesHardwareUnverifiedAndSaysSo) {
  FakeKernel kernel;
  kernel.SetPerfEventOpenHook([](const perf_event_attr &attr) {
    bool hardware = attr.type == PERF_TYPE_HARDWARE || attr.type == PERF_TYPE_HW_CACHE ||
                    attr.type == PERF_TYPE_RAW;
    return hardware ? ENOENT : 0;
  });
  ScopedKernel installed(&kernel);
  std::unique_ptr<Catalog> catalog = Catalog::Build();
  const CatalogEvent *cycles = catalog->FindName("PM_CYC");
  ASSERT_NE(cycles, nullptr);
  EXPECT_EQ(cycles->status, EventStatus::kUnverified);
  EXPECT_NE(cycles->description.find("(not countable here: the kernel has no hardware PMU for it)"),
            std::string::npos)
      << cycles->description;
  const CatalogEvent *task_clock = catalog->FindName("task-clock");
  ASSERT_NE(task_clock, nullptr);
  EXPECT_EQ(task_clock->status, EventStatus::kVerified);
}

TEST(catalog_fake_kernel, AcceptedHardwareMakesExactVerifiedAndApproximateCaveat) {
  // Pretend every event opens: the kernel is handed a software event instead.
  struct AlwaysOpens : FakeKernel {
    int PerfEventOpen(const perf_event_attr &attr, pid_t pid, int cpu, int group_fd) override {
      perf_event_attr software = attr;
      software.type = PERF_TYPE_SOFTWARE;
      software.config = PERF_COUNT_SW_TASK_CLOCK;
      return FakeKernel::PerfEventOpen(software, pid, cpu, group_fd);
    }
  } opens;
  ScopedKernel installed(&opens);
  std::unique_ptr<Catalog> catalog = Catalog::Build();
  EXPECT_EQ(catalog->FindName("PM_CYC")->status, EventStatus::kVerified);
  EXPECT_EQ(catalog->FindName("PM_DTLB_MISS")->status, EventStatus::kCaveat);
  EXPECT_EQ(catalog->FindName("PM_CYC")->description.find("not countable"), std::string::npos);
}

TEST(catalog_fake_kernel, PrivilegeRefusalIsExplained) {
  FakeKernel kernel;
  kernel.FailWith(FakeKernel::Op::kPerfEventOpen, EACCES);
  ScopedKernel installed(&kernel);
  std::unique_ptr<Catalog> catalog = Catalog::Build();
  const CatalogEvent *task_clock = catalog->FindName("task-clock");
  ASSERT_NE(task_clock, nullptr);
  EXPECT_EQ(task_clock->status, EventStatus::kUnverified);
  EXPECT_NE(task_clock->description.find("lack of privilege"), std::string::npos)
      << task_clock->description;
}

TEST(catalog_fake_kernel, SysfsPmuTermsArePlacedByFormat) {
  const std::string pmu = "/sys/bus/event_source/devices/fakepmu";
  FakeKernel kernel;
  kernel.SetDirectory("/sys/bus/event_source/devices", {"fakepmu"});
  kernel.SetDirectory(pmu + "/events", {"widget", "widget.unit", "gadget"});
  kernel.SetFile(pmu + "/type", "42\n");
  kernel.SetFile(pmu + "/events/widget", "event=0x3c,umask=0x5,edge\n");
  kernel.SetFile(pmu + "/events/gadget", "event=0x1\n");
  kernel.SetFile(pmu + "/format/event", "config:0-7\n");
  kernel.SetFile(pmu + "/format/umask", "config1:0-1,8-9\n");
  kernel.SetFile(pmu + "/format/edge", "config2:18\n");
  kernel.SetPerfEventOpenHook(
      [](const perf_event_attr &attr) { return attr.type == 42 ? ENOENT : 0; });
  ScopedKernel installed(&kernel);
  std::unique_ptr<Catalog> catalog = Catalog::Build();
  const CatalogEvent *widget = catalog->FindName("fakepmu/widget");
  ASSERT_NE(widget, nullptr);
  EXPECT_EQ(catalog->FindName("fakepmu/widget.unit"), nullptr) << ".unit describes an event";
  ASSERT_NE(catalog->FindName("fakepmu/gadget"), nullptr);
  EXPECT_EQ(widget->status, EventStatus::kUnverified);
  perf_event_attr attr{};
  pmapi::Status status = catalog->Encode(*widget, &attr);
  ASSERT_TRUE(status.ok()) << status.detail();
  EXPECT_EQ(attr.type, 42u);
  EXPECT_EQ(attr.config, 0x3cu);
  EXPECT_EQ(attr.config1, 0x101u) << "umask 0b101: bit 0 -> 0, bit 2 -> 8";
  EXPECT_EQ(attr.config2, 1ULL << 18);
  // Ids follow sorted names: gadget before widget.
  EXPECT_EQ(catalog->FindName("fakepmu/gadget")->id + 1, widget->id);
}

TEST(catalog_fake_kernel, TracepointEncodingFailsCleanlyWhenIdUnreadable) {
  FakeKernel kernel;
  kernel.SetFile("/sys/kernel/tracing/available_events", "fake:one\nfake:two\nnot-a-tracepoint\n");
  ScopedKernel installed(&kernel);
  std::unique_ptr<Catalog> catalog = Catalog::Build();
  const CatalogEvent *one = catalog->FindName("fake:one");
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(catalog->FindName("fake:two")->id, one->id + 1);
  EXPECT_EQ(catalog->FindName("not-a-tracepoint"), nullptr);
  kernel.SetFile("/sys/kernel/tracing/events/fake/one/id", "1234\n");
  perf_event_attr attr{};
  ASSERT_TRUE(catalog->Encode(*one, &attr).ok());
  EXPECT_EQ(attr.type, static_cast<uint32_t>(PERF_TYPE_TRACEPOINT));
  EXPECT_EQ(attr.config, 1234u);
  pmapi::Status status = catalog->Encode(*catalog->FindName("fake:two"), &attr);
  EXPECT_EQ(status.code(), Pmapi_InvalidEvent);
  EXPECT_NE(status.detail().find("events/fake/two/id"), std::string::npos) << status.detail();
}

}  // namespace
