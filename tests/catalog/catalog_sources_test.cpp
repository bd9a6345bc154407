// SPDX-License-Identifier: MIT
// The catalog's source descriptors (src/catalog/event_sources.h): one per EventSource, encoding
// through them, detection, and Catalog::EncodeName, which encodes a name from any source. A
// faked kernel gives a tracefs and a sysfs PMU whose answers the test knows.
#include <errno.h>
#include <gtest/gtest.h>
#include <linux/perf_event.h>

#include <memory>
#include <string>

#include "catalog/catalog.h"
#include "catalog/event_sources.h"
#include "pmapi.h"
#include "support/fake_kernel.h"

namespace {

using pmapi::Catalog;
using pmapi::CatalogEvent;
using pmapi::EventSource;
using pmapi::EventSourceDriver;
using pmapi_test::FakeKernel;
using pmapi_test::ScopedKernel;

constexpr char kTracefs[] = "/sys/kernel/tracing";
constexpr char kPmu[] = "/sys/bus/event_source/devices/fakepmu";

// A tracefs with two tracepoints (ids 4242 and 77) and a PMU "fakepmu" (type 33) with one
// event whose terms spread over config and config1.
void FakeSources(FakeKernel *kernel) {
  kernel->SetFile(std::string(kTracefs) + "/available_events", "fake:first\nfake:second\n");
  kernel->SetFile(std::string(kTracefs) + "/events/fake/first/id", "4242\n");
  kernel->SetFile(std::string(kTracefs) + "/events/fake/second/id", "77\n");
  kernel->SetDirectory("/sys/bus/event_source/devices", {"fakepmu"});
  kernel->SetDirectory(std::string(kPmu) + "/events", {"hits"});
  kernel->SetFile(std::string(kPmu) + "/type", "33\n");
  kernel->SetFile(std::string(kPmu) + "/events/hits", "event=0x3c,flag\n");
  kernel->SetFile(std::string(kPmu) + "/format/event", "config:0-7\n");
  kernel->SetFile(std::string(kPmu) + "/format/flag", "config1:5\n");
}

TEST(catalog_sources, EverySourceHasADescriptorNamedAsPmlistFiltersIt) {
  const struct {
    EventSource kind;
    const char *name;
  } kExpected[] = {{EventSource::kTable, "table"},
                   {EventSource::kPfm, "pmu"},
                   {EventSource::kSoftware, "software"},
                   {EventSource::kSysfsPmu, "sysfs"},
                   {EventSource::kTracepoint, "tracepoint"}};
  for (const auto &expected : kExpected) {
    const EventSourceDriver *driver = pmapi::SourceDriver(expected.kind);
    ASSERT_NE(driver, nullptr) << expected.name;
    EXPECT_STREQ(driver->name, expected.name);
    EXPECT_NE(driver->encode, nullptr) << expected.name;
    EXPECT_NE(driver->detect, nullptr) << expected.name;
  }
  EXPECT_EQ(pmapi::SourceDriver(static_cast<EventSource>(5)), nullptr)
      << "a kind no source has (a corrupt cache) has no descriptor";
}

TEST(catalog_sources, EachEventEncodesThroughItsSourcesDescriptor) {
  FakeKernel kernel;
  FakeSources(&kernel);
  ScopedKernel installed(&kernel);
  std::unique_ptr<Catalog> catalog = Catalog::Build();

  const CatalogEvent *tracepoint = catalog->FindName("fake:first");
  ASSERT_NE(tracepoint, nullptr);
  EXPECT_EQ(tracepoint->source, EventSource::kTracepoint);
  perf_event_attr attr{};
  ASSERT_TRUE(catalog->Encode(*tracepoint, &attr).ok());
  EXPECT_EQ(attr.type, static_cast<uint32_t>(PERF_TYPE_TRACEPOINT));
  EXPECT_EQ(attr.config, 4242u);

  const CatalogEvent *sysfs = catalog->FindName("fakepmu/hits");
  ASSERT_NE(sysfs, nullptr);
  EXPECT_EQ(sysfs->source, EventSource::kSysfsPmu);
  attr = perf_event_attr{};
  ASSERT_TRUE(catalog->Encode(*sysfs, &attr).ok());
  EXPECT_EQ(attr.type, 33u);
  EXPECT_EQ(attr.config, 0x3cu);
  EXPECT_EQ(attr.config1, 1u << 5);

  // The descriptor alone, by the name the source understands, answers the same.
  perf_event_attr direct{};
  ASSERT_TRUE(
      pmapi::SourceDriver(EventSource::kSysfsPmu)->encode("", "fakepmu/hits", &direct).ok());
  EXPECT_EQ(direct.config1, attr.config1);
}

TEST(catalog_sources, EncodeNameReachesEverySourceAndAddsNothing) {
  FakeKernel kernel;
  FakeSources(&kernel);
  ScopedKernel installed(&kernel);
  std::unique_ptr<Catalog> catalog = Catalog::Build();
  const size_t ids = catalog->InIdOrder().size();

  perf_event_attr by_name{}, by_event{};
  ASSERT_TRUE(catalog->EncodeName("task-clock", &by_name).ok());  // a table event
  ASSERT_TRUE(catalog->Encode(*catalog->FindName("task-clock"), &by_event).ok());
  EXPECT_EQ(by_name.type, by_event.type);
  EXPECT_EQ(by_name.config, by_event.config);
  EXPECT_EQ(by_name.type, static_cast<uint32_t>(PERF_TYPE_SOFTWARE));

  by_name = perf_event_attr{};
  ASSERT_TRUE(catalog->EncodeName("fake:second", &by_name).ok());
  EXPECT_EQ(by_name.config, 77u);

  // A tracepoint created after the catalog was built: encoded, yet not given an id.
  kernel.SetFile(std::string(kTracefs) + "/events/fake/third/id", "91\n");
  by_name = perf_event_attr{};
  ASSERT_TRUE(catalog->EncodeName("fake:third", &by_name).ok());
  EXPECT_EQ(by_name.type, static_cast<uint32_t>(PERF_TYPE_TRACEPOINT));
  EXPECT_EQ(by_name.config, 91u);
  EXPECT_EQ(catalog->FindName("fake:third"), nullptr);
  EXPECT_EQ(catalog->InIdOrder().size(), ids);

  pmapi::Status unknown = catalog->EncodeName("no_such_event_anywhere", &by_name);
  EXPECT_EQ(unknown.code(), Pmapi_InvalidEvent);
  EXPECT_NE(unknown.detail().find("no_such_event_anywhere"), std::string::npos) << unknown.detail();
  EXPECT_EQ(catalog->EncodeName("", &by_name).code(), Pmapi_InvalidArg);
}

TEST(catalog_sources, DetectSaysWhyASourceIsAbsent) {
  FakeKernel kernel;
  kernel.FailWith(FakeKernel::Op::kAccess, EACCES, "/sys/kernel/tracing");
  kernel.FailWith(FakeKernel::Op::kAccess, EACCES, "/sys/kernel/debug/tracing");
  kernel.FailWith(FakeKernel::Op::kListDirectory, ENOENT, "/sys/bus/event_source/devices");
  ScopedKernel installed(&kernel);
  const std::string tracefs = pmapi::SourceDriver(EventSource::kTracepoint)->detect();
  EXPECT_NE(tracefs.find("available_events"), std::string::npos) << tracefs;
  const std::string sysfs = pmapi::SourceDriver(EventSource::kSysfsPmu)->detect();
  EXPECT_NE(sysfs.find("/sys/bus/event_source/devices"), std::string::npos) << sysfs;
  EXPECT_EQ(pmapi::SourceDriver(EventSource::kTable)->detect(), "") << "compiled in: always there";

  FakeKernel present;
  FakeSources(&present);
  ScopedKernel reinstalled(&present);
  EXPECT_EQ(pmapi::SourceDriver(EventSource::kTracepoint)->detect(), "");
  EXPECT_EQ(pmapi::SourceDriver(EventSource::kSysfsPmu)->detect(), "");
}

}  // namespace
