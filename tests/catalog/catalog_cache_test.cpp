// SPDX-License-Identifier: MIT
// The catalog cache file: a hit restores exactly what the sources gave without asking them
// again; a changed key fact misses; a damaged, foreign or unwritable file is ignored and never
// breaks the catalog; where the file lives and when there is none.
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
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/settings.h"
#include "catalog/catalog.h"
#include "catalog/catalog_cache.h"
#include "catalog/catalog_contents.h"
#include "catalog/tables.h"
#include "pmapi.h"
#include "support/fake_kernel.h"
#include "support/scratch_dir.h"

namespace {

using pmapi::Catalog;
using pmapi::CatalogEvent;
using pmapi::EventSource;
using pmapi::EventStatus;
using pmapi_test::FakeKernel;
using pmapi_test::ScopedKernel;

constexpr const char *kAvailableEvents = "/sys/kernel/tracing/available_events";
constexpr const char *kParanoid = "/proc/sys/kernel/perf_event_paranoid";

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

// Every test gets its own directory and a kernel double that serves a small, fixed tracefs so
// that the catalog is quick and deterministic.
class CatalogCache : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_ + "/libpmapi-catalog.bin";
    kernel_.SetFile(kAvailableEvents, "fake:one\nfake:two\n");
    kernel_.SetFile("/sys/kernel/tracing/events/fake/one/id", "4242\n");
  }

  std::unique_ptr<Catalog> Build() { return Catalog::BuildCached(path_); }

  pmapi_test::ScratchDir scratch_{"pmapi-cache-test-"};
  std::string dir_ = scratch_.path();
  std::string path_;
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
  ASSERT_EQ(stat(path_.c_str(), &info), 0);
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

TEST_F(CatalogCache, FileWrittenWithoutTracefsIsReplacedOnceTracefsIsReadable) {
  // tracefs not readable (not mounted yet, say): the catalog has no tracepoints, and the file
  // says so.
  for (const char *root : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}) {
    kernel_.FailWith(FakeKernel::Op::kReadFile, ENOENT, std::string(root) + "/available_events");
    kernel_.FailWith(FakeKernel::Op::kAccess, ENOENT, std::string(root) + "/available_events");
  }
  std::unique_ptr<Catalog> without = Build();
  ASSERT_FALSE(without->from_cache());
  EXPECT_EQ(without->FindName("fake:one"), nullptr);
  EXPECT_TRUE(Build()->from_cache()) << "used while tracefs is still unreadable";

  // Mounted since: the file is not used, and is replaced by one with the tracepoints.
  kernel_.Clear();
  kernel_.SetFile(kAvailableEvents, "fake:one\nfake:two\n");
  std::unique_ptr<Catalog> with = Build();
  EXPECT_FALSE(with->from_cache());
  EXPECT_NE(with->FindName("fake:one"), nullptr);
  std::unique_ptr<Catalog> restored = Build();
  EXPECT_TRUE(restored->from_cache());
  EXPECT_NE(restored->FindName("fake:two"), nullptr);
  EXPECT_EQ(Files(dir_).size(), 1u);
}

TEST_F(CatalogCache, ChangedKeyMissesAndRewritesTheOneFile) {
  ASSERT_FALSE(Build()->from_cache());
  ASSERT_TRUE(Build()->from_cache());
  kernel_.SetFile(kParanoid, "-1\n");
  EXPECT_FALSE(Build()->from_cache()) << "another perf_event_paranoid";
  EXPECT_TRUE(Build()->from_cache()) << "stored under the new key";
  EXPECT_EQ(Files(dir_).size(), 1u) << "replaced, not added to";
  kernel_.SetFile(kParanoid, "2\n");
  EXPECT_FALSE(Build()->from_cache()) << "the file holds only the newest key";

  // A file of another build: the same layout, another key.
  pmapi::CatalogContents contents;
  ASSERT_TRUE(pmapi::DeserializeCatalog(ReadAll(path_), pmapi::CatalogCacheKey(), &contents));
  WriteAll(path_, pmapi::SerializeCatalog("build=another\n", contents));
  EXPECT_FALSE(Build()->from_cache()) << "another build";
  EXPECT_TRUE(Build()->from_cache());
}

TEST_F(CatalogCache, KeyNamesTheBuildLibpfmAndParanoidAndNothingElse) {
  const std::string key = pmapi::CatalogCacheKey();
  EXPECT_EQ(key.find(std::string("build=") + pmapi::kCatalogBuildConstant + "\n"), 0u) << key;
  EXPECT_EQ(strlen(pmapi::kCatalogBuildConstant), 64u) << "a SHA-256 in hex";
  EXPECT_NE(key.find("\nlibpfm=4."), std::string::npos) << key;
  EXPECT_NE(key.find("\nparanoid="), std::string::npos) << key;
  EXPECT_EQ(pmapi::CatalogCacheKey(), key) << "nothing in it changes by itself";
  // No boot id, no modules, no tracefs: only the one procfs read.
  int reads = kernel_.Calls(FakeKernel::Op::kReadFile);
  pmapi::CatalogCacheKey();
  EXPECT_EQ(kernel_.Calls(FakeKernel::Op::kReadFile), reads + 1);
  kernel_.FailWith(FakeKernel::Op::kReadFile, EACCES, kParanoid);
  EXPECT_EQ(pmapi::CatalogCacheKey(), "") << "a fact that cannot be read means no cache";
  std::unique_ptr<Catalog> catalog = Build();
  EXPECT_FALSE(catalog->from_cache());
  EXPECT_NE(catalog->FindName("task-clock"), nullptr);
  EXPECT_TRUE(Files(dir_).empty()) << "nothing stored under a key that cannot tell";
}

TEST_F(CatalogCache, TheCacheUsesTwoFileCallsOfTheSeam) {
  Build();
  Build();
  EXPECT_EQ(kernel_.Calls(FakeKernel::Op::kMapFile), 2);
  EXPECT_EQ(kernel_.Calls(FakeKernel::Op::kWriteFileAtomically), 1);
  for (FakeKernel::Op op :
       {FakeKernel::Op::kAccess, FakeKernel::Op::kStat, FakeKernel::Op::kMakeDirectory,
        FakeKernel::Op::kWriteNewFile, FakeKernel::Op::kRename, FakeKernel::Op::kUnlink}) {
    EXPECT_EQ(kernel_.Calls(op), 0) << static_cast<int>(op);
  }
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

TEST_F(CatalogCache, TableErrorIsReportedAndNotStored) {
  std::string events_dir = dir_ + "/events";
  ASSERT_EQ(mkdir(events_dir.c_str(), 0700), 0);
  WriteAll(events_dir + "/bad.tbl", "not a table line\n");
  pmapi::SetSetting(pmapi::kEventsDirVariable, events_dir.c_str());
  std::unique_ptr<Catalog> first = Build();
  std::unique_ptr<Catalog> second = Build();
  pmapi::SetSetting(pmapi::kEventsDirVariable, nullptr);
  EXPECT_EQ(first->load_status().code(), Pmapi_BadCatalog);
  EXPECT_EQ(second->load_status().code(), Pmapi_BadCatalog) << "reported every time";
  EXPECT_FALSE(second->from_cache());
}

// The parts of a file, following the layout in catalog_cache.h.
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
  std::string path = path_;
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
  std::string key = pmapi::CatalogCacheKey();
  std::string good = ReadAll(path_);
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

TEST_F(CatalogCache, MissingDirectoryOnlyCostsTheCache) {
  path_ = dir_ + "/no-such-directory/libpmapi-catalog.bin";
  std::unique_ptr<Catalog> catalog = Build();
  EXPECT_FALSE(catalog->from_cache());
  ASSERT_TRUE(catalog->load_status().ok());
  EXPECT_NE(catalog->FindName("fake:one"), nullptr);
  EXPECT_FALSE(Build()->from_cache());
  EXPECT_TRUE(Files(dir_).empty()) << "no directory is made";
}

TEST_F(CatalogCache, FailedWriteLeavesNoFile) {
  kernel_.FailWith(FakeKernel::Op::kWriteFileAtomically, ENOSPC);
  EXPECT_FALSE(Build()->from_cache());
  EXPECT_TRUE(Files(dir_).empty());
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

TEST_F(CatalogCache, FileOthersCouldHaveWrittenIsIgnored) {
  Build();
  ASSERT_TRUE(Build()->from_cache());
  ASSERT_EQ(chmod(path_.c_str(), 0620), 0);
  EXPECT_FALSE(Build()->from_cache()) << "group-writable";
  ASSERT_TRUE(Build()->from_cache()) << "rewritten with mode 0600";
  ASSERT_EQ(chmod(path_.c_str(), 0602), 0);
  EXPECT_FALSE(Build()->from_cache()) << "writable by others";
  ASSERT_TRUE(Build()->from_cache());
  if (geteuid() != 0) GTEST_SKIP() << "changing a file's owner needs root";
  ASSERT_EQ(chown(path_.c_str(), 12345, 12345), 0);
  EXPECT_FALSE(Build()->from_cache()) << "another user's file";
  struct stat info;
  ASSERT_EQ(stat(path_.c_str(), &info), 0);
  EXPECT_EQ(info.st_uid, geteuid()) << "replaced by one of ours";
}

TEST_F(CatalogCache, LinkAtThePathIsNeitherReadNorWrittenThrough) {
  Build();
  const std::string good = ReadAll(path_);
  // A valid cache file elsewhere, reached only through a link: not read.
  const std::string elsewhere = dir_ + "/elsewhere.bin";
  ASSERT_EQ(rename(path_.c_str(), elsewhere.c_str()), 0);
  ASSERT_EQ(symlink(elsewhere.c_str(), path_.c_str()), 0);
  EXPECT_FALSE(Build()->from_cache()) << "the link is not followed";
  struct stat info;
  ASSERT_EQ(lstat(path_.c_str(), &info), 0);
  EXPECT_TRUE(S_ISREG(info.st_mode)) << "the link is replaced by a file";
  EXPECT_EQ(ReadAll(elsewhere), good) << "what the link pointed at is untouched";
  // A link to a file that is not ours to write: it stays as it was.
  const std::string victim = dir_ + "/victim";
  WriteAll(victim, "precious");
  ASSERT_EQ(unlink(path_.c_str()), 0);
  ASSERT_EQ(symlink(victim.c_str(), path_.c_str()), 0);
  EXPECT_FALSE(Build()->from_cache());
  EXPECT_EQ(ReadAll(victim), "precious");
  EXPECT_TRUE(Build()->from_cache());
}

TEST_F(CatalogCache, SpecialFilesAtThePathDoNotHangOrBreakTheCatalog) {
  // A FIFO would block a reader that opened it plainly until someone wrote to it.
  ASSERT_EQ(mkfifo(path_.c_str(), 0600), 0);
  pid_t child = fork();
  if (child == 0) {
    alarm(60);
    std::unique_ptr<Catalog> catalog = Build();
    _exit(!catalog->from_cache() && catalog->FindName("fake:one") ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  // A directory by that name: no cache, and nothing in it is touched.
  ASSERT_EQ(unlink(path_.c_str()), 0);
  ASSERT_EQ(mkdir(path_.c_str(), 0700), 0);
  WriteAll(path_ + "/inside", "x");
  EXPECT_FALSE(Build()->from_cache());
  EXPECT_FALSE(Build()->from_cache());
  EXPECT_EQ(ReadAll(path_ + "/inside"), "x");
  EXPECT_EQ(Files(dir_).size(), 1u) << "no temporary file left beside it";
}

// DefaultCatalogCachePath follows the settings (base/settings.h); each case sets what it needs.
class CachePath : public ::testing::Test {
 protected:
  void SetUp() override {
    Change([](pmapi::Settings *settings) {
      settings->runtime_dir = "";
      settings->temp_dir = "";
      settings->no_cache = false;
      settings->events_dir = "";
      settings->libpfm_variables = false;
    });
  }
  void TearDown() override { pmapi::RestoreSettingsFromEnvironment(); }
  static void Change(const std::function<void(pmapi::Settings *)> &change) {
    pmapi::ChangeSettings(change);
  }
  static void SetRuntimeDir(const std::string &dir) {
    Change([&](pmapi::Settings *settings) { settings->runtime_dir = dir; });
  }
  const std::string file_ = "/libpmapi-catalog-" + std::to_string(geteuid()) + ".bin";
};

TEST_F(CachePath, RuntimeDirectoryElseTheOneLoginMakesElseAPrivateOne) {
  char pattern[] = "/tmp/pmapi-cache-path-test-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::string temp = pattern;
  Change([&](pmapi::Settings *settings) { settings->temp_dir = temp; });
  // Without XDG_RUNTIME_DIR: the login manager's directory where it exists, else the library's
  // own under $TMPDIR (catalog_cache.h; catalog_cache_directory_test.cpp has every case).
  const std::string login = "/run/user/" + std::to_string(geteuid());
  struct stat info;
  const bool login_exists = stat(login.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
  const std::string fallback =
      login_exists ? login : temp + "/libpmapi-" + std::to_string(geteuid());
  bool boot_in_key = login_exists;
  EXPECT_EQ(pmapi::DefaultCatalogCachePath(&boot_in_key), fallback + file_);
  EXPECT_EQ(boot_in_key, !login_exists);
  SetRuntimeDir("/run/user/4321");
  EXPECT_EQ(pmapi::DefaultCatalogCachePath(&boot_in_key), "/run/user/4321" + file_);
  EXPECT_FALSE(boot_in_key) << "a runtime directory is emptied at boot";
  SetRuntimeDir("relative/ignored");
  EXPECT_EQ(pmapi::DefaultCatalogCachePath(), fallback + file_);
  std::string command = "rm -rf '" + temp + "'";
  ASSERT_EQ(system(command.c_str()), 0);
}

TEST_F(CachePath, NoCacheWhenSwitchedOffOrWhenTheEnvironmentShapesTheCatalog) {
  SetRuntimeDir("/run/user/4321");
  pmapi::SetSetting(pmapi::kNoCacheVariable, "1");
  EXPECT_EQ(pmapi::DefaultCatalogCachePath(), "");
  pmapi::SetSetting(pmapi::kNoCacheVariable, "yes");
  EXPECT_EQ(pmapi::DefaultCatalogCachePath(), "");
  pmapi::SetSetting(pmapi::kNoCacheVariable, "0");
  EXPECT_EQ(pmapi::DefaultCatalogCachePath(), "/run/user/4321" + file_);
  pmapi::SetSetting(pmapi::kNoCacheVariable, "");
  EXPECT_EQ(pmapi::DefaultCatalogCachePath(), "/run/user/4321" + file_);
  pmapi::SetSetting(pmapi::kEventsDirVariable, "/etc/site-events");
  EXPECT_EQ(pmapi::DefaultCatalogCachePath(), "") << "site tables are read afresh";
  pmapi::SetSetting(pmapi::kEventsDirVariable, "");
  EXPECT_EQ(pmapi::DefaultCatalogCachePath(), "/run/user/4321" + file_);
  Change([](pmapi::Settings *settings) { settings->libpfm_variables = true; });
  EXPECT_EQ(pmapi::DefaultCatalogCachePath(), "") << "libpfm4's environment";
}

}  // namespace
