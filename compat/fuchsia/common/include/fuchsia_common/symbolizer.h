/* SPDX-License-Identifier: MIT */
// PC to function, source line and module for one address space, over elfutils' libdwfl.
// PIE executables and shared libraries are placed by their mapping's address and file offset;
// a PC in a stripped module, or between symbols, keeps only its module and offset (never the
// nearest unrelated symbol).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fuchsia_common {

// One executable mapping of a file: [start, end) in the address space, mapped from
// `file_offset` of the file at `path` (as in /proc/PID/maps or a PERF_RECORD_MMAP2).
struct Mapping {
  uint64_t start = 0;
  uint64_t end = 0;
  uint64_t file_offset = 0;
  std::string path;
};

struct Symbol {
  bool in_module = false;     // the PC is inside a known mapping
  std::string module;         // that mapping's file path
  uint64_t module_start = 0;  // the module's lowest and highest mapped addresses
  uint64_t module_end = 0;
  uint64_t module_offset = 0;  // the PC as an address in the ELF file (what addr2line -e takes)
  std::string build_id;        // hex, empty if the module has none
  std::string function;        // demangled; empty when no symbol covers the PC
  uint64_t function_offset = 0;
  std::string file;  // source file, empty without line information
  int line = 0;
};

// The executable file mappings listed in /proc/<pid>/maps; false with *error set if the file
// cannot be read (the process is gone, or belongs to someone else).
bool ReadExecutableMappings(pid_t pid, std::vector<Mapping>* out, std::string* error);

// The symbol tables of ELF files, one per file (a file is its build id, or its device, inode,
// modification time and size when it has none), opened and indexed once and shared by every
// Symbolizer given the same SymbolFiles: the processes of a command map the same libraries,
// each at its own address.
class SymbolFiles {
 public:
  SymbolFiles();
  ~SymbolFiles();
  SymbolFiles(const SymbolFiles&) = delete;
  SymbolFiles& operator=(const SymbolFiles&) = delete;

  // ELF files opened and indexed so far (each once, however many mappings name it).
  size_t files_indexed() const;

 private:
  friend class Symbolizer;
  struct State;
  std::unique_ptr<State> state_;
};

class Symbolizer {
 public:
  // With tables of its own, or with `files` shared with other symbolizers.
  Symbolizer();
  explicit Symbolizer(std::shared_ptr<SymbolFiles> files);
  ~Symbolizer();
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  // Adds an executable mapping; it retires every earlier mapping it overlaps (a library
  // mapped where another was unmapped). A file that cannot be opened, is no regular file (it
  // is never waited on: a FIFO at a library's path) or is not ELF gives a module without
  // symbols.
  void AddMapping(const Mapping& mapping);
  // Every executable mapping of a live process; false with *error set as above.
  bool AddProcess(pid_t pid, std::string* error);

  // The symbol for an exact PC (for a return address, pass the return address minus one).
  Symbol Resolve(uint64_t pc);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace fuchsia_common
