// libFuzzer target: the events/*.tbl parser (src/catalog/table_parser.h) on arbitrary text, and
// the run-time loader (table_loader.h) on a $PMAPI_EVENTS_DIR holding that text as a file.
// The parser is held to its contract: a failure appends nothing and names the file and line; a
// success appends records whose ids are in the table range. The loader is held to its own:
// whatever else the directory holds (chosen by the first byte: a FIFO, a link to /dev/zero, a
// 100 GB sparse file, a directory named like a table, a dangling link) it returns, without
// blocking or reading the odd file, Pmapi_BadCatalog naming it, and still loads a good table.
// The text may use the repeat notation of fuzz_repeat.h.
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "catalog/table_loader.h"
#include "catalog/table_parser.h"
#include "fuzz_repeat.h"
#include "pmapi.h"

namespace {

// One directory per kind of odd entry, each also holding input.tbl, a link to the file the
// current input is written to. Made once per process.
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

std::string *g_root = nullptr;

void RemoveRoot() {
  if (g_root) (void)!system(("rm -rf '" + *g_root + "'").c_str());
}

const Directories &Setup() {
  static const Directories kDirectories = [] {
    char pattern[] = "/tmp/pmapi-fuzz-tables-XXXXXX";
    if (!mkdtemp(pattern)) abort();
    const std::string root = pattern;
    g_root = new std::string(root);
    atexit(RemoveRoot);
    Directories made;
    made.input = root + "/input";
    made.dirs.push_back(MakeDirectory(root, "plain", made.input));
    std::string dir = MakeDirectory(root, "fifo", made.input);
    if (mkfifo((dir + "/odd.tbl").c_str(), 0600) != 0) abort();
    made.dirs.push_back(dir);
    dir = MakeDirectory(root, "zero", made.input);
    if (symlink("/dev/zero", (dir + "/odd.tbl").c_str()) != 0) abort();
    made.dirs.push_back(dir);
    dir = MakeDirectory(root, "sparse", made.input);
    int fd = open((dir + "/odd.tbl").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0 || ftruncate(fd, off_t{100} << 30) != 0) abort();
    close(fd);
    made.dirs.push_back(dir);
    dir = MakeDirectory(root, "directory", made.input);
    if (mkdir((dir + "/odd.tbl").c_str(), 0700) != 0) abort();
    made.dirs.push_back(dir);
    dir = MakeDirectory(root, "dangling", made.input);
    if (symlink((root + "/nowhere").c_str(), (dir + "/odd.tbl").c_str()) != 0) abort();
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

void CheckLoader(uint8_t kind, const std::string &text) {
  const Directories &directories = Setup();
  {
    std::ofstream out(directories.input, std::ios::binary | std::ios::trunc);
    out << text;
  }
  const std::string &dir = directories.dirs[kind % directories.dirs.size()];
  setenv(pmapi::kEventsDirVariable, dir.c_str(), 1);
  std::vector<pmapi::TableRecord> records;
  pmapi::Status status = pmapi::LoadEventTables(&records);
  unsetenv(pmapi::kEventsDirVariable);
  if (records.empty()) abort();  // the compiled-in tables load whatever the directory holds
  if (status.ok()) {
    if (dir != directories.dirs[0]) abort();  // the odd file was not refused
    return;
  }
  if (status.code() != Pmapi_BadCatalog) abort();
  if (status.detail().compare(0, dir.size() + 1, dir + "/") != 0 &&
      status.detail().find("is already used at") == std::string::npos) {
    abort();  // neither names the file nor is a clash with a compiled-in record
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string text =
      pmapi_fuzz::ExpandRepeats(std::string(reinterpret_cast<const char *>(data), size));
  CheckParser(text);
  CheckLoader(size > 0 ? data[0] : 0, text);
  return 0;
}
