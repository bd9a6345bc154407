// SPDX-License-Identifier: MIT
// libFuzzer target: the events/*.tbl parser (src/catalog/tables.h) on arbitrary text, and
// the run-time loader (src/catalog/table_loader.cpp) on a $PMAPI_EVENTS_DIR holding that text as a
// file. The parser is held to its contract: a failure appends nothing and names the file and line;
// a success appends records whose ids are in the table range. The loader is held to its own:
// whatever else the directory holds (chosen by a first byte of 0..5: nothing odd, a FIFO, a link
// to /dev/zero, a 100 GB sparse file, a directory named like a table, a dangling link; other
// first bytes test the parser only), it returns at once, without reading the odd file, with
// Pmapi_BadCatalog naming it for the right reason, and the compiled-in tables still load.
// The text may use the repeat notation of fuzz_repeat.h.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "base/settings.h"
#include "catalog/tables.h"
#include "fuzz_repeat.h"
#include "pmapi.h"

namespace {

// One directory per kind of odd entry (a_odd.tbl), each also holding input.tbl, a link to the
// file the current input is written to. Made once per process.
struct Directories {
  std::string input;              // the file each input is written to
  std::vector<std::string> dirs;  // [0]: no odd entry
};

std::string MakeDirectory(const std::string &root, const std::string &name,
                          const std::string &input) {
  std::string dir = root + "/" + name;
  if (mkdir(dir.c_str(), 0700) != 0 || symlink(input.c_str(), (dir + "/input.tbl").c_str()) != 0) {
    abort();
  }
  return dir;
}

constexpr const char *kRootPrefix = "pmapi-fuzz-tables-";

// libFuzzer ends a run with _Exit (and a crash skips atexit too), so each process removes the
// scratch trees of fuzzers that are gone: the tree's name carries its process id.
void RemoveTreesOfDeadFuzzers() {
  DIR *tmp = opendir("/tmp");
  if (!tmp) return;
  const size_t prefix_size = strlen(kRootPrefix);
  while (dirent *entry = readdir(tmp)) {
    const std::string name = entry->d_name;
    if (name.compare(0, prefix_size, kRootPrefix) != 0) continue;
    const pid_t owner = static_cast<pid_t>(atol(name.c_str() + prefix_size));
    if (owner > 0 && kill(owner, 0) != 0 && errno == ESRCH) {
      (void)!system(("rm -rf '/tmp/" + name + "'").c_str());
    }
  }
  closedir(tmp);
}

const Directories &Setup() {
  static const Directories kDirectories = [] {
    RemoveTreesOfDeadFuzzers();
    std::string pattern = std::string("/tmp/") + kRootPrefix + std::to_string(getpid()) + "-XXXXXX";
    if (!mkdtemp(&pattern[0])) abort();
    const std::string root = pattern;
    Directories made;
    made.input = root + "/input";
    made.dirs.push_back(MakeDirectory(root, "plain", made.input));
    std::string dir = MakeDirectory(root, "fifo", made.input);
    if (mkfifo((dir + "/a_odd.tbl").c_str(), 0600) != 0) abort();
    made.dirs.push_back(dir);
    dir = MakeDirectory(root, "zero", made.input);
    if (symlink("/dev/zero", (dir + "/a_odd.tbl").c_str()) != 0) abort();
    made.dirs.push_back(dir);
    dir = MakeDirectory(root, "sparse", made.input);
    int fd = open((dir + "/a_odd.tbl").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0 || ftruncate(fd, off_t{100} << 30) != 0) abort();
    close(fd);
    made.dirs.push_back(dir);
    dir = MakeDirectory(root, "directory", made.input);
    if (mkdir((dir + "/a_odd.tbl").c_str(), 0700) != 0) abort();
    made.dirs.push_back(dir);
    dir = MakeDirectory(root, "dangling", made.input);
    if (symlink((root + "/nowhere").c_str(), (dir + "/a_odd.tbl").c_str()) != 0) abort();
    made.dirs.push_back(dir);
    return made;
  }();
  return kDirectories;
}

void CheckParser(const std::string &text) {
  std::vector<pmapi::TableRecord> records(1);  // one record already there: must survive
  records[0].id = 7;
  pmapi::Status status = pmapi::ParseEventTable("fuzz.tbl", text, &records);
  if (records.empty() || records[0].id != 7) abort();
  if (!status.ok()) {
    if (status.code() != Pmapi_BadCatalog || records.size() != 1) abort();
    if (status.detail().compare(0, 9, "fuzz.tbl:") != 0) abort();
    return;
  }
  for (size_t i = 1; i < records.size(); ++i) {
    const pmapi::TableRecord &record = records[i];
    if (record.id < pmapi::kFirstTableId || record.id > pmapi::kLastTableId) abort();
    if (record.short_name.empty() || record.pfm_alternatives.empty()) abort();
  }
}

void CheckLoader(uint8_t selector, const std::string &text) {
  const Directories &directories = Setup();
  {
    std::ofstream out(directories.input, std::ios::binary | std::ios::trunc);
    out << text;
  }
  const size_t kind = selector % directories.dirs.size();
  const std::string &dir = directories.dirs[kind];
  pmapi::SetSetting(pmapi::kEventsDirVariable, dir.c_str());
  std::vector<pmapi::TableRecord> records;
  timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  pmapi::Status status = pmapi::LoadEventTables(&records);
  clock_gettime(CLOCK_MONOTONIC, &end);
  pmapi::SetSetting(pmapi::kEventsDirVariable, "");
  // A blocked open of the FIFO may end in EINTR when libFuzzer's timeout alarm fires: that
  // is a hang all the same.
  if (end.tv_sec - start.tv_sec > 3) abort();
  if (records.empty()) abort();  // the compiled-in tables load whatever the directory holds
  if (kind == 0) {
    if (!status.ok() && (status.code() != Pmapi_BadCatalog ||
                         (status.detail().compare(0, dir.size() + 1, dir + "/") != 0 &&
                          status.detail().find("is already used at") == std::string::npos))) {
      abort();  // neither names the file nor is a clash with a compiled-in record
    }
    return;
  }
  // a_odd.tbl sorts before input.tbl: its refusal is the first error, for the right reason.
  const std::string prefix = dir + "/a_odd.tbl: " + (kind == 5 ? "cannot read: " : "is ");
  if (status.code() != Pmapi_BadCatalog || status.detail().compare(0, prefix.size(), prefix) != 0) {
    abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string text =
      pmapi_fuzz::ExpandRepeats(std::string(reinterpret_cast<const char *>(data), size));
  CheckParser(text);
  // The loader writes a file and reads a directory: about a hundred times slower than the
  // parser alone, so only inputs whose first byte names a directory kind go through it.
  if (size > 0 && data[0] < Setup().dirs.size()) CheckLoader(data[0], text);
  return 0;
}
