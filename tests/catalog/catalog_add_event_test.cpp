// SPDX-License-Identifier: MIT
// pm_catalog_add_event (include/pmapi_catalog.h): a name the catalog has gives its id; a libpfm4
// string with attributes or a tracepoint made after the catalog was built is added under the
// next free id, moving no other id and changing no list; the id programs like any other, and
// counts exactly; bad input gets a clear error; readers on other threads see a consistent
// catalog while events are added.
#include <errno.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <link.h>
#include <pmapi_catalog.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "catalog/catalog.h"
#include "core/tracepoint_anchors.h"
#include "pmapi.h"
#include "support/counting.h"
#include "support/fake_kernel.h"

namespace {

using pmapi::Catalog;
using pmapi::CatalogEvent;
using pmapi_test::InitializeAll;

// A libpfm4 string the catalog names only without its umasks: libpfm4 encodes it on every x86
// machine (a generic perf cache event), though a machine without a PMU cannot count it.
constexpr const char kCacheString[] = "perf::PERF_COUNT_HW_CACHE_L1D:READ:MISS";

std::string Message(int code) { return pm_strerror("pm_catalog_add_event", code); }

TEST(CatalogAddEvent, NeedsInitialization) {
  const int status = pmapi_test::InChild([] {
    int id = -7;
    const int rc = pm_catalog_add_event("cpu-clock", &id);
    _exit(rc == Pmapi_NoInit && id == -7 ? 0 : 1);
  });
  EXPECT_EQ(status, 0);
}

TEST(CatalogAddEvent, BadArgumentsAreRefusedClearly) {
  if (!InitializeAll()) return;
  int id = -7;
  EXPECT_EQ(pm_catalog_add_event(nullptr, &id), Pmapi_InvalidArg);
  EXPECT_NE(Message(Pmapi_InvalidArg).find("NULL"), std::string::npos);
  EXPECT_EQ(pm_catalog_add_event("cpu-clock", nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_catalog_add_event("", &id), Pmapi_InvalidArg);
  EXPECT_NE(Message(Pmapi_InvalidArg).find("empty"), std::string::npos);
  for (const char *bad :
       {"no-such-event", "perf::PERF_COUNT_HW_CACHE_L1D:READ:NOSUCHUMASK",
        "nosuchsubsystem:nosuchtracepoint", "../../../etc:passwd", "cpu/event=0x3c/", "\x01\x02"}) {
    EXPECT_EQ(pm_catalog_add_event(bad, &id), Pmapi_InvalidEvent) << bad;
    const std::string message = Message(Pmapi_InvalidEvent);
    EXPECT_NE(message.find("libpfm4: "), std::string::npos) << message;
  }
  EXPECT_EQ(id, -7) << "written only on success";
}

TEST(CatalogAddEvent, NamesTheCatalogHasKeepTheirIds) {
  if (!InitializeAll()) return;
  const Catalog &catalog = Catalog::Get();
  for (const char *name : {"cpu-clock", "PM_CYC", "perf::PERF_COUNT_SW_TASK_CLOCK",
                           "syscalls:sys_enter_getppid", "syscalls:sys_exit_getppid"}) {
    const CatalogEvent *known = catalog.FindName(name);
    ASSERT_NE(known, nullptr) << name;
    int id = -1;
    ASSERT_EQ(pm_catalog_add_event(name, &id), 0) << name << ": " << Message(Pmapi_InvalidEvent);
    EXPECT_EQ(id, known->id) << name;
  }
  int upper = -1, lower = -1;
  ASSERT_EQ(pm_catalog_add_event("CPU-CLOCK", &upper), 0);
  ASSERT_EQ(pm_catalog_add_event("cpu-clock", &lower), 0);
  EXPECT_EQ(upper, lower) << "names are matched ignoring case, as FindName does";
}

TEST(CatalogAddEvent, NewStringGetsTheNextIdAndMovesNothing) {
  if (!InitializeAll()) return;
  pm_info2_t before_info;
  ASSERT_EQ(
      pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &before_info, nullptr, PM_CURRENT), 0);
  const Catalog &catalog = Catalog::Get();
  std::vector<std::string> before;
  for (const CatalogEvent *event : catalog.InIdOrder()) before.push_back(event->short_name);

  int id = -1;
  ASSERT_EQ(pm_catalog_add_event(kCacheString, &id), 0) << Message(Pmapi_InvalidEvent);
  EXPECT_EQ(id, static_cast<int>(before.size())) << "the id after every other";
  int again = -1;
  ASSERT_EQ(pm_catalog_add_event(kCacheString, &again), 0);
  EXPECT_EQ(again, id) << "adding twice gives the same id";
  ASSERT_EQ(pm_catalog_add_event("PERF::perf_count_hw_cache_l1d:read:miss", &again), 0);
  EXPECT_EQ(again, id);

  const CatalogEvent *added = catalog.FindId(id);
  ASSERT_NE(added, nullptr);
  EXPECT_EQ(added->short_name, kCacheString);
  EXPECT_EQ(added->id, id);
  EXPECT_EQ(catalog.FindName(kCacheString), added);
  EXPECT_TRUE(added->encoded.known);
  EXPECT_EQ(added->encoded.type, static_cast<uint32_t>(PERF_TYPE_HW_CACHE));

  std::vector<const CatalogEvent *> after = catalog.InIdOrder();
  ASSERT_EQ(after.size(), before.size() + 1);
  for (size_t i = 0; i < before.size(); ++i) {
    ASSERT_EQ(after[i]->short_name, before[i]) << "id " << i << " moved";
  }
  EXPECT_EQ(after.back(), added);

  // The lists are what they were: added events are never listed.
  pm_info2_t after_info;
  ASSERT_EQ(
      pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &after_info, nullptr, PM_CURRENT), 0);
  for (int counter = 0; counter < MAX_COUNTERS; ++counter) {
    ASSERT_EQ(after_info.maxevents[counter], before_info.maxevents[counter]);
    EXPECT_LT(before_info.maxevents[counter], id);
  }

  // It programs like any id: counted where there is a PMU, refused by the kernel (not as an
  // unknown id) where there is none.
  pm_prog_t prog = pmapi_test::MakeProgram({id}, PM_USER);
  const int rc = pm_set_program_mythread(&prog);
  EXPECT_TRUE(rc == 0 || rc == Pmapi_NoHardware) << pm_strerror("pm_set_program_mythread", rc);
  if (rc == 0) {
    EXPECT_EQ(pm_delete_program_mythread(), 0);
  }
}

// A function for a uprobe: not inlined, so that every call passes its first instruction.
extern "C" __attribute__((noinline)) void CatalogAddEventProbedFunction() {
  asm volatile("" ::: "memory");
}

// The offset in the executable file of `address`, which a uprobe definition takes.
bool FileOffsetOf(const void *address, uint64_t *offset) {
  struct Search {
    uintptr_t address;
    uint64_t offset;
    bool found;
  } search{reinterpret_cast<uintptr_t>(address), 0, false};
  dl_iterate_phdr(
      [](dl_phdr_info *object, size_t, void *data) {
        Search *s = static_cast<Search *>(data);
        for (int i = 0; i < object->dlpi_phnum; ++i) {
          const ElfW(Phdr) &segment = object->dlpi_phdr[i];
          const uintptr_t start = object->dlpi_addr + segment.p_vaddr;
          if (segment.p_type != PT_LOAD || s->address < start ||
              s->address - start >= segment.p_memsz) {
            continue;
          }
          s->offset = s->address - start + segment.p_offset;
          s->found = true;
          return 1;
        }
        return 0;
      },
      &search);
  *offset = search.offset;
  return search.found;
}

bool AppendTo(const std::string &path, const std::string &line) {
  const int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return false;
  const bool written = write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  close(fd);
  return written;
}

// A uprobe tracepoint on CatalogAddEventProbedFunction, made for the test and removed after it:
// a tracepoint that did not exist when the catalog was built.
class Uprobe {
 public:
  Uprobe() : name_("pmapi_add_test:probe_" + std::to_string(getpid())) {
    uint64_t offset = 0;
    char exe[4096];
    const ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (length <= 0 ||
        !FileOffsetOf(reinterpret_cast<const void *>(&CatalogAddEventProbedFunction), &offset)) {
      return;
    }
    exe[length] = '\0';
    char definition[4200];
    snprintf(definition, sizeof definition, "p:pmapi_add_test/probe_%d %s:0x%llx\n",
             static_cast<int>(getpid()), exe, static_cast<unsigned long long>(offset));
    made_ = AppendTo(kEvents, definition);
  }
  // The kernel refuses to remove a uprobe while a perf event holds it: the test's program (if
  // an assertion left it behind) and the library's anchor (tracepoint_anchors.h) go first.
  ~Uprobe() {
    if (!made_) return;
    pm_delete_program_mythread();
    pmapi::ReleaseTracepointAnchors();
    EXPECT_TRUE(AppendTo(kEvents, "-:pmapi_add_test/probe_" + std::to_string(getpid()) + "\n"))
        << "the uprobe is left behind: " << strerror(errno);
  }
  bool made() const { return made_; }
  const std::string &name() const { return name_; }

 private:
  static constexpr const char *kEvents = "/sys/kernel/tracing/uprobe_events";
  std::string name_;
  bool made_ = false;
};

TEST(CatalogAddEvent, TracepointMadeAfterTheCatalogCountsExactly) {
  if (!InitializeAll()) return;
  const size_t built = Catalog::Get().InIdOrder().size();  // built before the uprobe exists
  Uprobe uprobe;
  if (!uprobe.made()) GTEST_SKIP() << "cannot make a uprobe here (needs root and uprobe_events)";
  ASSERT_EQ(Catalog::Get().FindName(uprobe.name()), nullptr) << "the catalog predates it";
  int id = -1;
  ASSERT_EQ(pm_catalog_add_event(uprobe.name().c_str(), &id), 0) << Message(Pmapi_InvalidEvent);
  EXPECT_GE(id, static_cast<int>(built));
  const CatalogEvent *added = Catalog::Get().FindId(id);
  ASSERT_NE(added, nullptr);
  EXPECT_EQ(added->source, pmapi::EventSource::kTracepoint);

  constexpr int kCalls = 37;
  pm_prog_t prog = pmapi_test::MakeProgram({id}, PM_USER);
  const int set = pm_set_program_mythread(&prog);
  ASSERT_EQ(set, 0) << pm_strerror("pm_set_program_mythread", set);
  ASSERT_EQ(pm_start_mythread(), 0);
  void (*volatile probed)() = &CatalogAddEventProbedFunction;
  for (int i = 0; i < kCalls; ++i) probed();
  ASSERT_EQ(pm_stop_mythread(), 0);
  pm_data_t data;
  ASSERT_EQ(pm_get_data_mythread(&data), 0);
  EXPECT_EQ(data.accu[0], kCalls);
  ASSERT_EQ(pm_delete_program_mythread(), 0);
}

TEST(CatalogAddEvent, AddedTracepointIdCountsExactly) {
  if (!InitializeAll()) return;
  int id = -1;
  ASSERT_EQ(pm_catalog_add_event(pmapi_test::kGetppid, &id), 0) << Message(Pmapi_InvalidEvent);
  pm_prog_t prog = pmapi_test::MakeProgram({id}, PM_USER | PM_KERNEL);
  pm_data_t data;
  ASSERT_TRUE(pmapi_test::CountGetppidOnMyThread(&prog, 1234, &data));
  EXPECT_EQ(data.accu[0], 1234);
  ASSERT_EQ(pm_delete_program_mythread(), 0);
}

// Readers on other threads while events are added: every id they are handed stays the same
// event, and every added id is found, by id and by name, the moment Add returns it. A catalog
// of its own over a faked tracefs, so that there are as many new tracepoints as the test wants.
TEST(CatalogAddEvent, ReadersSeeAConsistentCatalogWhileEventsAreAdded) {
  constexpr int kAdded = 300;
  pmapi_test::FakeKernel kernel;
  pmapi_test::ScopedKernel installed(&kernel);
  kernel.SetFile("/sys/kernel/tracing/available_events", "fake:built\n");
  for (int i = 0; i < kAdded; ++i) {
    kernel.SetFile("/sys/kernel/tracing/events/fake/t" + std::to_string(i) + "/id",
                   std::to_string(5000 + i) + "\n");
  }
  std::unique_ptr<Catalog> catalog = Catalog::Build();
  const int built = static_cast<int>(catalog->InIdOrder().size());
  const CatalogEvent *first = catalog->FindId(0);

  std::atomic<int> published{0};  // ids below built + published are added
  std::atomic<bool> done{false};
  std::atomic<int> wrong{0};
  auto reader = [&] {
    while (!done.load()) {
      const int known = built + published.load();
      for (int id = built; id < known; ++id) {
        const CatalogEvent *event = catalog->FindId(id);
        if (!event || event->id != id || catalog->FindName(event->short_name) != event) {
          wrong.fetch_add(1);
        }
      }
      if (catalog->FindId(0) != first || catalog->FindId(known + kAdded) != nullptr) {
        wrong.fetch_add(1);
      }
      if (catalog->InIdOrder().size() < static_cast<size_t>(known)) wrong.fetch_add(1);
    }
  };
  std::vector<std::thread> readers;
  for (int i = 0; i < 3; ++i) readers.emplace_back(reader);
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  for (int w = 0; w < 2; ++w) {
    writers.emplace_back([&, w] {
      // Both writers add every name, in opposite orders: each name is added once.
      for (int k = 0; k < kAdded; ++k) {
        const int i = w == 0 ? k : kAdded - 1 - k;
        int id = -1;
        pmapi::Status status = catalog->Add("fake:t" + std::to_string(i), &id);
        if (!status.ok() || id < built || id >= built + kAdded) failures.fetch_add(1);
        if (w == 0) published.store(k + 1);
      }
    });
  }
  for (std::thread &writer : writers) writer.join();
  done.store(true);
  for (std::thread &thread : readers) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(catalog->InIdOrder().size(), static_cast<size_t>(built + kAdded))
      << "every name added once";
  perf_event_attr attr{};
  const CatalogEvent *t7 = catalog->FindName("fake:t7");
  ASSERT_NE(t7, nullptr);
  ASSERT_TRUE(catalog->Encode(*t7, &attr).ok());
  EXPECT_EQ(attr.type, static_cast<uint32_t>(PERF_TYPE_TRACEPOINT));
  EXPECT_EQ(attr.config, 5007u);
}

}  // namespace
