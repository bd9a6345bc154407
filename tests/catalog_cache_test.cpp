// The on-disk catalog cache: a hit restores exactly what the sources gave without asking them
// again; any change of a key fact misses; a damaged, foreign or unwritable cache is ignored and
// never breaks the catalog; where the cache lives and how it is switched off.
#include <errno.h>
#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/catalog_cache.h"
#include "catalog/catalog_cache_file.h"
#include "catalog/catalog_cache_key.h"
#include "catalog/catalog_contents.h"
#include "catalog/hash64.h"
#include "catalog/table_loader.h"
#include "pmapi.h"
#include "support/fake_kernel.h"

namespace {

using pmapi::Catalog;
using pmapi::CatalogEvent;
using pmapi::EventSource;
using pmapi::EventStatus;
using pmapi_test::FakeKernel;
using pmapi_test::ScopedKernel;

constexpr const char *kAvailableEvents = "/sys/kernel/tracing/available_events";
constexpr const char *kBootId = "/proc/sys/kernel/random/boot_id";

std::string ReadAll(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteAll(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

std::vector<std::string> Files(const std::string &dir) {
  std::vector<std::string> names;
  pmapi::RealKernel().ListDirectory(dir, &names);
  return names;
}

// Every test gets its own cache directory (and a parent, to see it created) and a kernel
// double that serves a small, fixed tracefs so that the catalog is quick and deterministic.
class CatalogCache : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/pmapi-cache-test-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    root_ = pattern;
    dir_ = root_ + "/cache/libpmapi";
    kernel_.SetFile(kAvailableEvents, "fake:one\nfake:two\n");
    kernel_.SetFile("/sys/kernel/tracing/events/fake/one/id", "4242\n");
  }
  void TearDown() override {
    std::string command = "rm -rf '" + root_ + "'";
    ASSERT_EQ(system(command.c_str()), 0);
  }

  std::unique_ptr<Catalog> Build() { return Catalog::BuildCached(dir_); }
  std::string CacheFile() { return pmapi::CatalogCachePath(dir_, pmapi::ComputeCatalogCacheKey()); }

  std::string root_;
  std::string dir_;
  FakeKernel kernel_;
  ScopedKernel installed_{&kernel_};
};

void ExpectSameCatalog(const Catalog &expected, const Catalog &actual) {
  ASSERT_EQ(expected.events().size(), actual.events().size());
  EXPECT_EQ(expected.proc_name(), actual.proc_name());
  std::vector<const CatalogEvent *> a = expected.InIdOrder(), b = actual.InIdOrder();
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i]->id, b[i]->id);
    EXPECT_EQ(a[i]->short_name, b[i]->short_name);
    EXPECT_EQ(a[i]->long_name, b[i]->long_name);
    EXPECT_EQ(a[i]->description, b[i]->description);
    EXPECT_EQ(a[i]->encoding, b[i]->encoding);
    EXPECT_EQ(a[i]->source, b[i]->source);
    EXPECT_EQ(a[i]->status, b[i]->status) << a[i]->short_name;
    EXPECT_EQ(a[i]->encoded.known, b[i]->encoded.known);
    EXPECT_EQ(actual.FindId(b[i]->id), b[i]);
  }
}

TEST_F(CatalogCache, MissBuildsAndStoresThenHitRestoresTheSameCatalog) {
  std::unique_ptr<Catalog> built = Build();
  EXPECT_FALSE(built->from_cache());
  ASSERT_TRUE(built->load_status().ok()) << built->load_status().detail();
  EXPECT_EQ(Files(dir_).size(), 1u) << "one file, no temporary left behind";
  struct stat info;
  ASSERT_EQ(stat(dir_.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0700u) << "the directory is private";
  ASSERT_EQ(stat(CacheFile().c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);

  std::unique_ptr<Catalog> restored = Build();
  EXPECT_TRUE(restored->from_cache());
  ExpectSameCatalog(*built, *restored);
  EXPECT_EQ(Catalog::Build()->events().size(), built->events().size())
      << "the sources still give the catalog the cache holds";
}

TEST_F(CatalogCache, HitAsksNeitherTracefsNorTheKernel) {
  std::unique_ptr<Catalog> built = Build();
  ASSERT_FALSE(built->from_cache());
  // Were the catalog built again now, it would have no tracepoints and every event would be
  // refused for lack of privilege. A hit shows neither: it asks no source.
  kernel_.FailWith(FakeKernel::Op::kReadFile, EIO, kAvailableEvents);
  kernel_.FailWith(FakeKernel::Op::kPerfEventOpen, EACCES);
  int opens_before = kernel_.Calls(FakeKernel::Op::kPerfEventOpen);
  std::unique_ptr<Catalog> restored = Build();
  ASSERT_TRUE(restored->from_cache());
  EXPECT_EQ(kernel_.Calls(FakeKernel::Op::kPerfEventOpen), opens_before) << "no probe";
  ASSERT_NE(restored->FindName("fake:two"), nullptr);
  EXPECT_EQ(restored->FindName("task-clock")->status, built->FindName("task-clock")->status);
  EXPECT_EQ(restored->FindName("TASK-CLOCK"), restored->FindName("task-clock"))
      << "case-insensitive lookup";

  // Encoding works from the restored catalog: the tracepoint through the stored tracefs root,
  // the table event from the encoding libpfm4 gave when the catalog was built.
  perf_event_attr attr{};
  ASSERT_TRUE(restored->Encode(*restored->FindName("fake:one"), &attr).ok());
  EXPECT_EQ(attr.type, static_cast<uint32_t>(PERF_TYPE_TRACEPOINT));
  EXPECT_EQ(attr.config, 4242u);
  const CatalogEvent *task_clock = restored->FindName("task-clock");
  ASSERT_TRUE(task_clock->encoded.known);
  perf_event_attr table{};
  ASSERT_TRUE(restored->Encode(*task_clock, &table).ok());
  EXPECT_EQ(table.type, static_cast<uint32_t>(PERF_TYPE_SOFTWARE));
  EXPECT_EQ(table.config, static_cast<uint64_t>(PERF_COUNT_SW_TASK_CLOCK));
}

TEST_F(CatalogCache, EveryChangedFactMisses) {
  ASSERT_FALSE(Build()->from_cache());
  ASSERT_TRUE(Build()->from_cache());

  // Each change below must miss; the rebuilt catalog is stored under the new key, so the
  // next build with the same change hits again.
  auto expect_miss_then_hit = [this](const char *what) {
    EXPECT_FALSE(Build()->from_cache()) << what;
    EXPECT_TRUE(Build()->from_cache()) << what;
  };
  kernel_.SetFile(kBootId, "00000000-0000-0000-0000-000000000001\n");
  expect_miss_then_hit("another boot");
  kernel_.SetFile("/proc/sys/kernel/perf_event_paranoid", "-1\n");
  expect_miss_then_hit("another perf_event_paranoid");
  kernel_.SetFile("/proc/self/status", "Name:\tx\nUid:\t1000\t1000\t1000\t1000\nCapEff:\t0\n");
  expect_miss_then_hit("other privileges");
  kernel_.SetFile("/proc/modules", "kvm_amd 1 0 - Live 0x0\n");
  expect_miss_then_hit("a module loaded");
  kernel_.FailWith(FakeKernel::Op::kAccess, EACCES, kAvailableEvents);
  expect_miss_then_hit("tracefs no longer readable");
  kernel_.SetDirectory("/sys/bus/event_source/devices", {"cpu", "software", "tracepoint"});
  expect_miss_then_hit("another PMU set");
  setenv("LIBPFM_FORCE_PMU", "amd64_fam19h_zen3", 1);
  expect_miss_then_hit("libpfm4's environment");
  unsetenv("LIBPFM_FORCE_PMU");

  // The run-time tables: their directory and every byte of their files.
  std::string events_dir = root_ + "/events";
  ASSERT_EQ(mkdir(events_dir.c_str(), 0700), 0);
  WriteAll(events_dir + "/site.tbl", "50001 | PM_SITE | Site | exact | perf::CYCLES | A.\n");
  setenv(pmapi::kEventsDirVariable, events_dir.c_str(), 1);
  EXPECT_FALSE(Build()->from_cache()) << "a tables directory";
  std::unique_ptr<Catalog> hit = Build();
  EXPECT_TRUE(hit->from_cache());
  ASSERT_NE(hit->FindName("PM_SITE"), nullptr);
  WriteAll(events_dir + "/site.tbl", "50001 | PM_SITE | Site | exact | perf::CYCLES | B.\n");
  std::unique_ptr<Catalog> edited = Build();
  EXPECT_FALSE(edited->from_cache()) << "an edited table";
  EXPECT_EQ(edited->FindName("PM_SITE")->description.substr(0, 2), "B.");
  unsetenv(pmapi::kEventsDirVariable);
}

TEST_F(CatalogCache, ConcurrentWritersLeaveOneIntactFile) {
  // As when several processes of a fresh boot start at once: each misses, builds and stores.
  constexpr int kWriters = 4;
  std::vector<size_t> sizes(kWriters, 0);
  std::vector<std::thread> writers;
  for (int i = 0; i < kWriters; ++i) {
    writers.emplace_back([this, &sizes, i] { sizes[i] = Build()->events().size(); });
  }
  for (std::thread &writer : writers) writer.join();
  for (size_t size : sizes) EXPECT_EQ(size, sizes[0]);
  EXPECT_EQ(Files(dir_).size(), 1u) << "renamed over one another, no temporary left";
  std::unique_ptr<Catalog> restored = Build();
  EXPECT_TRUE(restored->from_cache());
  EXPECT_EQ(restored->events().size(), sizes[0]);
}

TEST_F(CatalogCache, KeyStaysTheSameWhenNothingChanged) {
  pmapi::CatalogCacheKey first = pmapi::ComputeCatalogCacheKey();
  pmapi::CatalogCacheKey second = pmapi::ComputeCatalogCacheKey();
  ASSERT_FALSE(first.text.empty()) << "this machine has build ids, a boot id and procfs";
  EXPECT_EQ(first.text, second.text);
  EXPECT_EQ(first.file_tag.size(), 16u);
  EXPECT_NE(first.text.find("boot="), std::string::npos);
  // Nothing that waits for the kernel's event_mutex (dynamic_events, available_events) is read.
  kernel_.FailWith(FakeKernel::Op::kReadFile, EIO, "/sys/kernel/tracing/");
  EXPECT_EQ(pmapi::ComputeCatalogCacheKey().text, first.text);
  // Module use counts change all the time; only the names are part of the key.
  kernel_.SetFile("/proc/modules", "kvm 3 1 kvm_amd, Live 0x0\n");
  std::string with_module = pmapi::ComputeCatalogCacheKey().text;
  kernel_.SetFile("/proc/modules", "kvm 3 2 kvm_amd,x Live 0x0\n");
  EXPECT_EQ(pmapi::ComputeCatalogCacheKey().text, with_module);
}

TEST_F(CatalogCache, TableErrorIsReportedAndNotStored) {
  std::string events_dir = root_ + "/events";
  ASSERT_EQ(mkdir(events_dir.c_str(), 0700), 0);
  WriteAll(events_dir + "/bad.tbl", "not a table line\n");
  setenv(pmapi::kEventsDirVariable, events_dir.c_str(), 1);
  std::unique_ptr<Catalog> first = Build();
  std::unique_ptr<Catalog> second = Build();
  unsetenv(pmapi::kEventsDirVariable);
  EXPECT_EQ(first->load_status().code(), Pmapi_BadCatalog);
  EXPECT_EQ(second->load_status().code(), Pmapi_BadCatalog) << "reported every time";
  EXPECT_FALSE(second->from_cache());
}

TEST_F(CatalogCache, NoBootIdMeansNoCache) {
  kernel_.FailWith(FakeKernel::Op::kReadFile, ENOENT, kBootId);
  EXPECT_TRUE(pmapi::ComputeCatalogCacheKey().text.empty());
  std::unique_ptr<Catalog> catalog = Build();
  EXPECT_FALSE(catalog->from_cache());
  EXPECT_NE(catalog->FindName("task-clock"), nullptr);
  EXPECT_TRUE(Files(dir_).empty()) << "nothing stored under a key that cannot tell boots apart";
}

// The parts of a file, following the layout in catalog_cache_file.h.
struct FileParts {
  std::string header;  // magic, version, key length, key, payload length
  std::string payload;
};

FileParts Split(const std::string &file, size_t key_size) {
  size_t header_size = 8 + 4 + 4 + key_size + 8;
  return FileParts{file.substr(0, header_size), file.substr(header_size + 8)};
}

// A file whose checksum matches its (edited) payload: what a bug, rather than a torn write,
// could produce. The reader's own checks must catch what is wrong inside.
std::string Seal(const FileParts &parts) {
  uint64_t checksum = pmapi::Hash64(parts.payload);
  std::string sealed = parts.header;
  sealed.append(reinterpret_cast<const char *>(&checksum), sizeof checksum);
  return sealed + parts.payload;
}

TEST_F(CatalogCache, DamagedFilesAreIgnoredAndReplaced) {
  std::unique_ptr<Catalog> built = Build();
  std::string path = CacheFile();
  std::string good = ReadAll(path);
  ASSERT_GT(good.size(), 1000u);

  const std::vector<std::pair<const char *, std::string>> damaged = {
      {"empty", ""},
      {"truncated", good.substr(0, good.size() / 2)},
      {"one byte short", good.substr(0, good.size() - 1)},
      {"one byte more", good + "x"},
      {"bad magic", "X" + good.substr(1)},
      {"flipped payload byte",
       [&] {
         std::string bytes = good;
         bytes[bytes.size() / 2] ^= 0x40;
         return bytes;
       }()},
      {"garbage", std::string(4096, '\xa5')},
  };
  for (const auto &[what, bytes] : damaged) {
    WriteAll(path, bytes);
    std::unique_ptr<Catalog> catalog = Build();
    EXPECT_FALSE(catalog->from_cache()) << what;
    EXPECT_EQ(catalog->events().size(), built->events().size()) << what;
    EXPECT_EQ(ReadAll(path), good) << what << ": the damaged file is replaced";
  }
  EXPECT_TRUE(Build()->from_cache());
}

TEST_F(CatalogCache, ReaderChecksWhatTheChecksumCannot) {
  Build();
  std::string key = pmapi::ComputeCatalogCacheKey().text;
  std::string good = ReadAll(CacheFile());
  pmapi::CatalogContents contents;
  ASSERT_TRUE(pmapi::DeserializeCatalog(good, key, &contents));
  EXPECT_FALSE(pmapi::DeserializeCatalog(good, key + "x", &contents)) << "another key";

  // Every prefix of the payload, sealed with a matching checksum, must be refused cleanly.
  FileParts parts = Split(good, key.size());
  ASSERT_EQ(Seal(parts), good) << "the test follows the documented layout";
  for (size_t size = 0; size < parts.payload.size(); size += 997) {
    FileParts cut = parts;
    cut.payload.resize(size);
    // The stored payload length must agree too, or the reader stops before the checksum.
    uint64_t length = size;
    memcpy(&cut.header[cut.header.size() - 8], &length, sizeof length);
    EXPECT_FALSE(pmapi::DeserializeCatalog(Seal(cut), key, &contents)) << "payload cut at " << size;
  }
  // A string length pointing far past the end (the first string: the processor name).
  FileParts huge = parts;
  uint32_t length = 0xfffffff0u;
  memcpy(&huge.payload[0], &length, sizeof length);
  EXPECT_FALSE(pmapi::DeserializeCatalog(Seal(huge), key, &contents));
}

TEST_F(CatalogCache, InconsistentContentsAreRefused) {
  pmapi::CatalogContents contents;
  contents.events.resize(3);
  contents.events[0].id = 5;
  contents.events[1].id = 2000000;
  contents.events[2].id = 2000001;
  contents.table_position = 0;
  contents.table_count = 1;
  contents.ranges.push_back(pmapi::IdRange{2000000, 1, 2});
  EXPECT_TRUE(pmapi::ContentsConsistent(contents));
  std::string file = pmapi::SerializeCatalog("k", contents);
  pmapi::CatalogContents restored;
  EXPECT_TRUE(pmapi::DeserializeCatalog(file, "k", &restored));
  EXPECT_EQ(restored.events[2].id, 2000001);

  pmapi::CatalogContents bad = contents;
  bad.ranges[0].count = 3;  // runs past the events
  EXPECT_FALSE(pmapi::ContentsConsistent(bad));
  EXPECT_FALSE(pmapi::DeserializeCatalog(pmapi::SerializeCatalog("k", bad), "k", &restored));
  bad = contents;
  bad.events[2].id = 2000005;  // a gap: FindId would answer wrongly
  EXPECT_FALSE(pmapi::ContentsConsistent(bad));
  bad = contents;
  bad.table_count = 2;  // the table run overlaps the range
  EXPECT_FALSE(pmapi::ContentsConsistent(bad));
  bad = contents;
  bad.events.push_back(CatalogEvent{});  // an event no range or table covers
  EXPECT_FALSE(pmapi::ContentsConsistent(bad));
  bad.events.back().id = 2000001;  // covered now, but by a range whose ids overlap another's
  bad.ranges.push_back(pmapi::IdRange{2000001, 3, 1});
  EXPECT_FALSE(pmapi::ContentsConsistent(bad));
}

TEST_F(CatalogCache, UnwritableDirectoryOnlyCostsTheCache) {
  kernel_.FailWith(FakeKernel::Op::kMakeDirectory, EROFS);
  std::unique_ptr<Catalog> catalog = Build();
  EXPECT_FALSE(catalog->from_cache());
  ASSERT_TRUE(catalog->load_status().ok());
  EXPECT_NE(catalog->FindName("fake:one"), nullptr);
  EXPECT_FALSE(Build()->from_cache());
  EXPECT_TRUE(Files(root_ + "/cache").empty());
}

TEST_F(CatalogCache, FailedWriteOrRenameLeavesNoFile) {
  kernel_.FailWith(FakeKernel::Op::kWriteNewFile, ENOSPC);
  EXPECT_FALSE(Build()->from_cache());
  EXPECT_TRUE(Files(dir_).empty());
  kernel_.Clear();
  kernel_.SetFile(kAvailableEvents, "fake:one\nfake:two\n");
  kernel_.FailWith(FakeKernel::Op::kRename, EACCES);
  EXPECT_FALSE(Build()->from_cache());
  EXPECT_TRUE(Files(dir_).empty()) << "the temporary file is removed";
  kernel_.Clear();
  kernel_.SetFile(kAvailableEvents, "fake:one\nfake:two\n");
  EXPECT_FALSE(Build()->from_cache());
  EXPECT_TRUE(Build()->from_cache());
}

TEST_F(CatalogCache, UnreadableFileIsRebuiltAndReplaced) {
  Build();
  kernel_.FailWith(FakeKernel::Op::kMapFile, EACCES);
  EXPECT_FALSE(Build()->from_cache());
  kernel_.Clear();
  kernel_.SetFile(kAvailableEvents, "fake:one\nfake:two\n");
  EXPECT_TRUE(Build()->from_cache());
  EXPECT_EQ(Files(dir_).size(), 1u);
}

TEST_F(CatalogCache, AnotherUsersDirectoryIsLeftAlone) {
  if (geteuid() != 0) GTEST_SKIP() << "making a directory of another user needs root";
  // As when sudo keeps the caller's HOME: the cache directories belong to someone else.
  std::string parent = root_ + "/cache";
  ASSERT_EQ(mkdir(parent.c_str(), 0755), 0);
  ASSERT_EQ(chown(parent.c_str(), 12345, 12345), 0);
  EXPECT_FALSE(Build()->from_cache());
  EXPECT_TRUE(Files(parent).empty()) << "libpmapi/ is not created in another user's directory";
  ASSERT_EQ(mkdir(dir_.c_str(), 0755), 0);
  ASSERT_EQ(chown(dir_.c_str(), 12345, 12345), 0);
  EXPECT_FALSE(Build()->from_cache());
  EXPECT_TRUE(Files(dir_).empty()) << "nothing is written into another user's directory";
}

TEST_F(CatalogCache, FileOthersCouldHaveWrittenIsIgnored) {
  Build();
  std::string path = CacheFile();
  ASSERT_TRUE(Build()->from_cache());
  ASSERT_EQ(chmod(path.c_str(), 0620), 0);
  EXPECT_FALSE(Build()->from_cache()) << "group-writable";
  ASSERT_TRUE(Build()->from_cache()) << "rewritten with mode 0600";
  if (geteuid() != 0) GTEST_SKIP() << "changing a file's owner needs root";
  ASSERT_EQ(chown(path.c_str(), 12345, 12345), 0);
  EXPECT_FALSE(Build()->from_cache()) << "another user's file";
}

TEST_F(CatalogCache, OnlyTheNewestOtherFilesAreKept) {
  Build();
  ASSERT_EQ(Files(dir_).size(), 1u);
  std::string previous_boot = CacheFile();
  // Other builds' files, written 1..5 days ago, and a temporary file a killed writer left.
  std::vector<std::string> builds;
  for (int age = 1; age <= 5; ++age) {
    builds.push_back(dir_ + "/catalog-000000000000000" + std::to_string(age) + ".bin");
    WriteAll(builds.back(), "x");
    timeval written = {time(nullptr) - age * 24 * 3600, 0};
    timeval times[2] = {written, written};
    ASSERT_EQ(utimes(builds.back().c_str(), times), 0);
  }
  std::string old_temporary = dir_ + "/catalog-0000000000000009.bin.tmp.1.0";
  std::string recent_temporary = dir_ + "/catalog-0000000000000009.bin.tmp.2.0";
  std::string unrelated = dir_ + "/notes.txt";
  for (const std::string &path : {old_temporary, recent_temporary, unrelated}) WriteAll(path, "x");
  timeval long_ago[2] = {{1000000000, 0}, {1000000000, 0}};
  ASSERT_EQ(utimes(old_temporary.c_str(), long_ago), 0);
  ASSERT_EQ(utimes(unrelated.c_str(), long_ago), 0);

  // A new boot has a file of its own; the previous boot's is now one of the others.
  kernel_.SetFile(kBootId, "00000000-0000-0000-0000-000000000002\n");
  ASSERT_FALSE(Build()->from_cache());
  ASSERT_NE(CacheFile(), previous_boot);
  EXPECT_EQ(access(CacheFile().c_str(), F_OK), 0);
  EXPECT_EQ(access(previous_boot.c_str(), F_OK), 0) << "the newest other file";
  for (int age = 1; age <= 5; ++age) {
    bool kept = access(builds[static_cast<size_t>(age - 1)].c_str(), F_OK) == 0;
    EXPECT_EQ(kept, age <= 2) << "the file of " << age << " days ago";
  }
  EXPECT_NE(access(old_temporary.c_str(), F_OK), 0);
  EXPECT_EQ(access(recent_temporary.c_str(), F_OK), 0) << "perhaps being written right now";
  EXPECT_EQ(access(unrelated.c_str(), F_OK), 0) << "not ours to remove";
}

// DefaultCatalogCacheDirectory reads the environment; each case sets what it needs.
class CacheDirectory : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char *name : {"HOME", "XDG_CACHE_HOME", pmapi::kNoCacheVariable}) {
      const char *value = getenv(name);
      saved_.emplace_back(name, value ? std::optional<std::string>(value) : std::nullopt);
      unsetenv(name);
    }
  }
  void TearDown() override {
    for (const auto &[name, value] : saved_) {
      if (value) {
        setenv(name, value->c_str(), 1);
      } else {
        unsetenv(name);
      }
    }
  }
  std::vector<std::pair<const char *, std::optional<std::string>>> saved_;
};

TEST_F(CacheDirectory, XdgThenHomeThenNone) {
  EXPECT_EQ(pmapi::DefaultCatalogCacheDirectory(), "");
  setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(pmapi::DefaultCatalogCacheDirectory(), "/home/someone/.cache/libpmapi");
  setenv("XDG_CACHE_HOME", "relative/ignored", 1);
  EXPECT_EQ(pmapi::DefaultCatalogCacheDirectory(), "/home/someone/.cache/libpmapi");
  setenv("XDG_CACHE_HOME", "/var/cache/someone", 1);
  EXPECT_EQ(pmapi::DefaultCatalogCacheDirectory(), "/var/cache/someone/libpmapi");
}

TEST_F(CacheDirectory, NoCacheVariableSwitchesItOff) {
  setenv("HOME", "/home/someone", 1);
  setenv(pmapi::kNoCacheVariable, "1", 1);
  EXPECT_EQ(pmapi::DefaultCatalogCacheDirectory(), "");
  setenv(pmapi::kNoCacheVariable, "yes", 1);
  EXPECT_EQ(pmapi::DefaultCatalogCacheDirectory(), "");
  setenv(pmapi::kNoCacheVariable, "0", 1);
  EXPECT_EQ(pmapi::DefaultCatalogCacheDirectory(), "/home/someone/.cache/libpmapi");
  setenv(pmapi::kNoCacheVariable, "", 1);
  EXPECT_EQ(pmapi::DefaultCatalogCacheDirectory(), "/home/someone/.cache/libpmapi");
}

}  // namespace
