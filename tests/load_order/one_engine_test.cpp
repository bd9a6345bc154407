// SPDX-License-Identifier: MIT
// One engine in a process that loads every API: pm_*, NetBSD's libpmc, Fuchsia's libperfmon and
// libzx_sampler, and libhpm each count here, then threads start and the process forks. The
// engine's counters (read through libpmapi's private version node) must show one catalog built,
// one fork handler, one wrapper per new thread; and the engine's code must be in one loaded
// object, libpmapi.so, not copied into a compat library beside it.
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <lib/perfmon/cpuperf.h>
#include <lib/perfmon/reader.h>
#include <libhpm.h>
#include <link.h>
#include <pmc_events.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/pmc.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zircon/syscalls-next.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/engine_counts.h"
#include "pmapi.h"
#include "pmapi_select.h"

// Under ThreadSanitizer the program's own threads start without an inherited context when
// libpmapi.so is loaded rather than linked into the program (docs/reliability.md): they still go
// through the one wrapper.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ONE_ENGINE_UNDER_TSAN 1
#endif
#endif
#ifdef ONE_ENGINE_UNDER_TSAN
constexpr bool kThreadsInherit = false;
#else
constexpr bool kThreadsInherit = true;
#endif

namespace {

using pmapi::EngineEvent;
using pmapi::EngineEventCount;

constexpr char kGetppid[] = "syscalls:sys_enter_getppid";

void CallGetppid(int calls) {
  for (int i = 0; i < calls; ++i) syscall(SYS_getppid);
}

// The engine functions a copy would carry: the catalog's builder, the fork handler, the
// thread-start wrappers.
bool IsEngineFunction(const std::string &name) {
  return name == "_ZN5pmapi7Catalog3GetEv" || name == "_ZN5pmapi8Registry10BeforeForkEv" ||
         name.find("RedirectedPthreadCreate") != std::string::npos;
}

// The engine functions `path` defines, from its full symbol table (.symtab, local symbols
// included: a copy hidden by a version script is still there).
std::set<std::string> EngineFunctionsIn(const std::string &path) {
  std::set<std::string> found;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return found;
  struct stat st;
  void *image =
      fstat(fd, &st) == 0 ? mmap(nullptr, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
  close(fd);
  if (image == MAP_FAILED) return found;
  const auto *bytes = static_cast<const char *>(image);
  const auto *header = reinterpret_cast<const ElfW(Ehdr) *>(bytes);
  const auto *sections = reinterpret_cast<const ElfW(Shdr) *>(bytes + header->e_shoff);
  for (int i = 0; i < header->e_shnum; ++i) {
    if (sections[i].sh_type != SHT_SYMTAB) continue;
    const auto *symbols = reinterpret_cast<const ElfW(Sym) *>(bytes + sections[i].sh_offset);
    const char *names = bytes + sections[sections[i].sh_link].sh_offset;
    for (size_t s = 0; s < sections[i].sh_size / sizeof(ElfW(Sym)); ++s) {
      if (symbols[s].st_shndx == SHN_UNDEF || ELF64_ST_TYPE(symbols[s].st_info) != STT_FUNC) {
        continue;
      }
      std::string name = names + symbols[s].st_name;
      if (IsEngineFunction(name)) found.insert(name);
    }
  }
  munmap(image, st.st_size);
  return found;
}

// Every loaded object's file, the executable's included.
std::vector<std::string> LoadedObjects() {
  std::vector<std::string> paths;
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *out) {
        auto *list = static_cast<std::vector<std::string> *>(out);
        list->push_back(info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "/proc/self/exe");
        return 0;
      },
      &paths);
  return paths;
}

std::string ObjectOf(const void *address) {
  Dl_info info;
  return dladdr(address, &info) && info.dli_fname ? info.dli_fname : "";
}

class OneEngine : public ::testing::Test {
 protected:
  void SetUp() override {
    pm_info2_t info;
    pm_groups_info_t groups;
    ASSERT_EQ(pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, &groups, PM_CURRENT),
              0);
    pm_selection_t selection;
    if (pm_select_events(kGetppid, 0, &selection) != 0 || !selection.events[0].countable) {
      GTEST_SKIP() << "no " << kGetppid << " here (tracefs unreadable?)";
    }
    getppid_ = selection.prog;
  }

  // pm_*: this thread's getppid calls, exactly.
  void CountWithPmapi() {
    ASSERT_EQ(pm_set_program_mythread(&getppid_), 0);
    ASSERT_EQ(pm_start_mythread(), 0);
    CallGetppid(300);
    ASSERT_EQ(pm_stop_mythread(), 0);
    pm_data_t data;
    ASSERT_EQ(pm_get_data_mythread(&data), 0);
    EXPECT_EQ(data.accu[0], 300);
    ASSERT_EQ(pm_delete_program_mythread(), 0);
  }

  // libpmc: the process's counter 0 on the same tracepoint.
  void CountWithLibpmc() {
    pmc_counter_cfg cfg = {};
    ASSERT_EQ(pmc_event_lookup(kGetppid, &cfg.event_id), 0);
    ASSERT_EQ(pmc_control(0, PMC_OP_CONFIGURE, &cfg), 0);
    ASSERT_EQ(pmc_control(0, PMC_OP_START, nullptr), 0);
    CallGetppid(200);
    pmc_ctr_t value = 0;
    ASSERT_EQ(pmc_get_info(0, PMC_INFO_COUNTER_VALUE, &value), 0);
    EXPECT_EQ(value, 200u);
    ASSERT_EQ(pmc_control(0, PMC_OP_STOP, nullptr), 0);
  }

  // libperfmon: one PC record every 10 getppid calls of this process.
  void TraceWithLibperfmon() {
    cpuperf_handle_t handle;
    ASSERT_EQ(cpuperf_open(&handle), ZX_OK);
    perfmon_event_id_t getppid;
    ASSERT_EQ(perfmon_lookup_event("tracepoint", kGetppid, &getppid), ZX_OK);
    perfmon_allocation_t allocation = {static_cast<uint32_t>(sysconf(_SC_NPROCESSORS_ONLN)), 4};
    perfmon_config_t config = {};
    config.events[0] = {getppid, 10, PERFMON_FLAG_COLLECT_PC};
    perfmon_target_t me = {getpid(), 0};
    ASSERT_EQ(ioctl_cpuperf_alloc_trace(handle, &allocation), ZX_OK) << cpuperf_last_error(handle);
    ASSERT_EQ(cpuperf_set_target(handle, &me), ZX_OK) << cpuperf_last_error(handle);
    ASSERT_EQ(ioctl_cpuperf_stage_config(handle, &config), ZX_OK) << cpuperf_last_error(handle);
    ASSERT_EQ(ioctl_cpuperf_start(handle), ZX_OK) << cpuperf_last_error(handle);
    CallGetppid(100);
    ASSERT_EQ(ioctl_cpuperf_stop(handle), ZX_OK);
    unsigned pcs = 0;
    for (uint32_t cpu = 0; cpu < allocation.num_buffers; ++cpu) {
      int fd;
      ASSERT_EQ(ioctl_cpuperf_get_buffer_handle(handle, &cpu, &fd), ZX_OK);
      const size_t size = allocation.buffer_size_in_pages * PERFMON_PAGE_SIZE;
      void *data = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
      close(fd);
      ASSERT_NE(data, MAP_FAILED);
      perfmon_reader_t reader;
      perfmon_record_t record;
      if (perfmon_reader_init(&reader, data, size) == ZX_OK) {
        while (perfmon_reader_next(&reader, &record) == ZX_OK) {
          pcs += record.type == PERFMON_RECORD_PC && record.event == getppid;
        }
      }
      munmap(data, size);
    }
    cpuperf_close(handle);
    EXPECT_EQ(pcs, 10u);
  }

  // libzx_sampler: this thread sampled on its CPU time while it works.
  void SampleWithLibzxSampler() {
    zx_sampler_config_t config = {};
    config.period = 1000000;
    config.buffer_size = 1 << 20;
    config.iobuffer_discipline = ZX_IOB_DISCIPLINE_TYPE_NONE;
    zx_handle_t session;
    ASSERT_EQ(zx_sampler_create(ZX_HANDLE_INVALID, 0, &config, &session), ZX_OK)
        << zx_sampler_last_error();
    ASSERT_EQ(zx_sampler_attach(session, static_cast<zx_handle_t>(syscall(SYS_gettid))), ZX_OK)
        << zx_sampler_last_error();
    ASSERT_EQ(zx_sampler_start(session), ZX_OK) << zx_sampler_last_error();
    timespec start, now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    static volatile unsigned long sink;
    do {
      for (int i = 0; i < 10000; ++i) sink = sink * 3 + 1;
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) < 20000000L);
    ASSERT_EQ(zx_sampler_stop(session), ZX_OK);
    zx_sampler_info_t info;
    ASSERT_EQ(zx_sampler_get_info(session, &info), ZX_OK);
    EXPECT_GT(info.samples_written, 0u);
    zx_handle_close(session);
  }

  // libhpm: a section of getppid calls (HPM_EVENT_SET names the tracepoint: the test's
  // environment, tests/load_order/CMakeLists.txt).
  void CountWithLibhpm() {
    hpmInit(0, "one_engine");
    hpmStart(1, "getppid");
    CallGetppid(400);
    hpmStop(1);
    long long values[8] = {0};
    hpmGetCounters(values);
    EXPECT_EQ(values[0], 400);
    hpmTerminate(0);
  }

  pm_prog_t getppid_ = {};
};

TEST_F(OneEngine, EveryApiCountsThroughOneEngine) {
  CountWithPmapi();
  CountWithLibpmc();
  TraceWithLibperfmon();
  SampleWithLibzxSampler();
  CountWithLibhpm();
  if (HasFatalFailure()) return;

  // Threads inherit this thread's program, each through one wrapper: each counts its own calls.
  ASSERT_EQ(pm_set_program_mythread(&getppid_), 0);
  ASSERT_EQ(pm_start_mythread(), 0);
  const unsigned long wrapped_before = EngineEventCount(EngineEvent::kThreadStartWrapped);
  const unsigned long inherited_before = EngineEventCount(EngineEvent::kInheritedThreadStarted);
  constexpr int kThreads = 4;
  pthread_t threads[kThreads];
  long long counted[kThreads] = {};
  for (int i = 0; i < kThreads; ++i) {
    ASSERT_EQ(pthread_create(
                  &threads[i], nullptr,
                  [](void *out) -> void * {
                    CallGetppid(50);
                    pm_data_t data;
                    if (pm_get_data_mythread(&data) == 0)
                      *static_cast<long long *>(out) = data.accu[0];
                    pm_delete_program_mythread();
                    return nullptr;
                  },
                  &counted[i]),
              0);
  }
  for (pthread_t thread : threads) pthread_join(thread, nullptr);
  for (long long count : counted) EXPECT_EQ(count, kThreadsInherit ? 50 : 0);
  EXPECT_EQ(EngineEventCount(EngineEvent::kThreadStartWrapped) - wrapped_before,
            static_cast<unsigned long>(kThreads));
  EXPECT_EQ(EngineEventCount(EngineEvent::kInheritedThreadStarted) - inherited_before,
            static_cast<unsigned long>(kThreadsInherit ? kThreads : 0));
  ASSERT_EQ(pm_delete_program_mythread(), 0);

  // Forks: the one fork handler runs once for each.
  const unsigned long prepared_before = EngineEventCount(EngineEvent::kForkPrepared);
  constexpr int kForks = 3;
  for (int i = 0; i < kForks; ++i) {
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) _exit(0);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_EQ(EngineEventCount(EngineEvent::kForkPrepared) - prepared_before,
            static_cast<unsigned long>(kForks));

  EXPECT_EQ(EngineEventCount(EngineEvent::kCatalogBuilt), 1u);
  EXPECT_EQ(EngineEventCount(EngineEvent::kForkHandlerRegistered), 1u);
}

TEST_F(OneEngine, TheEngineIsInLibpmapiAlone) {
  // Loaded and used: each library's catalog lookups went to the engine.
  ASSERT_GT(pmc_event_count(), 0);
  const std::string libpmapi = ObjectOf(reinterpret_cast<const void *>(&pm_initialize));
  std::map<std::string, std::set<std::string>> holders;  // engine function -> objects
  for (const std::string &object : LoadedObjects()) {
    for (const std::string &function : EngineFunctionsIn(object)) holders[function].insert(object);
  }
  ASSERT_FALSE(holders.empty()) << "no loaded object has a symbol table naming the engine";
  for (const auto &[function, objects] : holders) {
    EXPECT_EQ(objects, std::set<std::string>{libpmapi})
        << function << " is defined in " << objects.size() << " loaded objects";
  }
  // Every API's library is loaded, and each compat library needs libpmapi.so.
  for (const void *entry :
       {reinterpret_cast<const void *>(&pmc_control), reinterpret_cast<const void *>(&cpuperf_open),
        reinterpret_cast<const void *>(&zx_sampler_create),
        reinterpret_cast<const void *>(&hpmInit)}) {
    EXPECT_NE(ObjectOf(entry), libpmapi);
  }
}

}  // namespace
