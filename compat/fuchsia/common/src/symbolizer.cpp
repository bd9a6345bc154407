// SPDX-License-Identifier: MIT
// Symbolizer over libdwfl: each ELF file is one Dwfl of its own, at its file addresses, made
// once per SymbolFiles; an address space is a list of mappings, each naming its file's table
// and the load bias its address and file offset imply. PCs outside every ELF module keep their
// mapping and file offset.
#include "fuchsia_common/symbolizer.h"

#include <cxxabi.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>

#include <sstream>
#include <vector>

#include "base/regular_file.h"

namespace fuchsia_common {
namespace {

const Dwfl_Callbacks kCallbacks = {
    nullptr,                       // find_elf: every module is reported with its file
    dwfl_standard_find_debuginfo,  // separate debug files (build-id, .gnu_debuglink)
    dwfl_offline_section_address,  // only used for relocatable files
    nullptr,
};

std::string Demangle(const char* name) {
  if (std::strncmp(name, "_Z", 2) != 0) return name;
  int status = 0;
  char* plain = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || !plain) return name;
  std::string result(plain);
  std::free(plain);
  return result;
}

std::string Hex(const unsigned char* bytes, int length) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < length; ++i) {
    out += kDigits[bytes[i] >> 4];
    out += kDigits[bytes[i] & 15];
  }
  return out;
}

// A compile unit's address ranges (file addresses, before the module's bias).
struct UnitRange {
  Dwarf_Addr low, high;
  Dwarf_Die unit;
};

// The line of `address` (a file address) from the units' own ranges. libdw finds units through
// .debug_aranges, which clang does not emit; elfutils before 0.191 then finds no line at all.
Dwarf_Line* LineFromUnits(const std::vector<UnitRange>& units, Dwarf_Addr address) {
  for (const UnitRange& range : units) {
    if (address < range.low || address >= range.high) continue;
    Dwarf_Die unit = range.unit;
    if (Dwarf_Line* line = dwarf_getsrc_die(&unit, address)) return line;
  }
  return nullptr;
}

std::vector<UnitRange> UnitRanges(Dwfl_Module* module) {
  std::vector<UnitRange> units;
  Dwarf_Addr bias = 0;
  for (Dwarf_Die* unit = dwfl_module_nextcu(module, nullptr, &bias); unit;
       unit = dwfl_module_nextcu(module, unit, &bias)) {
    Dwarf_Addr base = 0, low = 0, high = 0;
    ptrdiff_t offset = 0;
    while ((offset = dwarf_ranges(unit, offset, &base, &low, &high)) > 0)
      units.push_back(UnitRange{low, high, *unit});
  }
  return units;
}

// The GNU build id of the ELF file `elf`, in hex; empty if it has none.
std::string BuildId(Elf* elf) {
  size_t count = 0;
  if (elf_getphdrnum(elf, &count) != 0) return "";
  for (size_t i = 0; i < count; ++i) {
    GElf_Phdr phdr;
    if (!gelf_getphdr(elf, static_cast<int>(i), &phdr) || phdr.p_type != PT_NOTE) continue;
    Elf_Data* data =
        elf_getdata_rawchunk(elf, static_cast<int64_t>(phdr.p_offset), phdr.p_filesz, ELF_T_NHDR);
    if (!data) continue;
    GElf_Nhdr note;
    size_t offset = 0, name_at = 0, desc_at = 0;
    while ((offset = gelf_getnote(data, offset, &note, &name_at, &desc_at)) > 0) {
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(static_cast<const char*>(data->d_buf) + name_at, "GNU", 4) == 0)
        return Hex(static_cast<const unsigned char*>(data->d_buf) + desc_at,
                   static_cast<int>(note.n_descsz));
    }
  }
  return "";
}

// A file without a build id is itself: the same device and inode, unchanged since.
std::string FileIdentity(const struct stat& info) {
  return std::to_string(info.st_dev) + ":" + std::to_string(info.st_ino) + ":" +
         std::to_string(info.st_mtim.tv_sec) + "." + std::to_string(info.st_mtim.tv_nsec) + ":" +
         std::to_string(info.st_size);
}

}  // namespace

// One ELF file's symbols: a Dwfl holding it alone at its own file addresses (bias 0), so that
// every process mapping it looks a PC up as pc minus its mapping's load bias.
struct FileTable {
  struct Load {
    uint64_t offset, vaddr, filesz;
  };
  Dwfl* dwfl = nullptr;
  Dwfl_Module* module = nullptr;
  std::vector<Load> loads;
  std::string build_id;
  bool ranges_made = false;
  std::vector<UnitRange> unit_ranges;  // made when aranges fail

  ~FileTable() {
    if (dwfl) dwfl_end(dwfl);
  }
  // The load bias of `mapping` of this file: the PT_LOAD segment holding its file offset
  // places its bytes at bias + p_vaddr.
  bool Bias(const Mapping& mapping, uint64_t* bias) const {
    for (const Load& load : loads) {
      const uint64_t page_start = load.offset & ~uint64_t{0xfff};
      if (mapping.file_offset < page_start || mapping.file_offset >= load.offset + load.filesz)
        continue;
      *bias = mapping.start - (load.vaddr - load.offset + mapping.file_offset);
      return true;
    }
    return false;
  }
};

struct SymbolFiles::State {
  std::map<std::string, std::unique_ptr<FileTable>> by_identity;  // build id, or the file
  std::map<std::string, FileTable*> by_file;  // device, inode, time, size; nullptr: unusable
  size_t indexed = 0;

  // The table of the file at `path` now, made on first need; nullptr when it is no regular
  // file or no ELF.
  FileTable* Find(const std::string& path) {
    struct stat info;
    if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return nullptr;
    auto known = by_file.find(FileIdentity(info));
    if (known != by_file.end()) return known->second;
    const int fd = pmapi::OpenRegularFile(AT_FDCWD, path.c_str(), &info);
    if (fd < 0) return nullptr;
    FileTable*& entry = by_file[FileIdentity(info)];  // what was opened, if it was swapped
    if (entry) {
      close(fd);
      return entry;
    }
    elf_version(EV_CURRENT);
    auto table = std::make_unique<FileTable>();
    Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
    size_t count = 0;
    if (elf && elf_kind(elf) == ELF_K_ELF && elf_getphdrnum(elf, &count) == 0) {
      for (size_t i = 0; i < count; ++i) {
        GElf_Phdr phdr;
        if (gelf_getphdr(elf, static_cast<int>(i), &phdr) && phdr.p_type == PT_LOAD)
          table->loads.push_back(FileTable::Load{phdr.p_offset, phdr.p_vaddr, phdr.p_filesz});
      }
      table->build_id = BuildId(elf);
    }
    if (elf) elf_end(elf);
    const std::string identity =
        table->build_id.empty() ? FileIdentity(info) : "build-id:" + table->build_id;
    auto same = by_identity.find(identity);
    if (same != by_identity.end()) {  // a copy of a file already indexed
      close(fd);
      entry = same->second.get();
      return entry;
    }
    if (table->loads.empty()) {
      close(fd);
      return nullptr;
    }
    table->dwfl = dwfl_begin(&kCallbacks);
    // At bias 0: the module's addresses are the file's. libdwfl keeps the descriptor.
    if (table->dwfl)
      table->module = dwfl_report_elf(table->dwfl, path.c_str(), path.c_str(), fd, 0, true);
    if (!table->module) {
      close(fd);
      return nullptr;
    }
    dwfl_report_end(table->dwfl, nullptr, nullptr);
    ++indexed;
    entry = table.get();
    by_identity.emplace(identity, std::move(table));
    return entry;
  }
};

SymbolFiles::SymbolFiles() : state_(new State) {}
SymbolFiles::~SymbolFiles() = default;
size_t SymbolFiles::files_indexed() const { return state_->indexed; }

struct Symbolizer::State {
  struct Placed {
    Mapping mapping;
    FileTable* table;  // nullptr: no symbols
    uint64_t bias;
  };
  std::shared_ptr<SymbolFiles> files;
  std::map<uint64_t, Placed> by_start;
};

Symbolizer::Symbolizer() : Symbolizer(std::make_shared<SymbolFiles>()) {}

Symbolizer::Symbolizer(std::shared_ptr<SymbolFiles> files) : state_(new State) {
  state_->files = std::move(files);
}

Symbolizer::~Symbolizer() = default;

void Symbolizer::AddMapping(const Mapping& mapping) {
  if (mapping.end <= mapping.start) return;
  auto& placed = state_->by_start;
  auto it = placed.upper_bound(mapping.start);
  if (it != placed.begin() && std::prev(it)->second.mapping.end > mapping.start) --it;
  while (it != placed.end() && it->first < mapping.end) it = placed.erase(it);
  State::Placed entry{mapping, nullptr, 0};
  if (!mapping.path.empty() && mapping.path[0] == '/') {
    entry.table = state_->files->state_->Find(mapping.path);
    if (entry.table && !entry.table->Bias(mapping, &entry.bias)) entry.table = nullptr;
  }
  placed.emplace(mapping.start, std::move(entry));
}

bool Symbolizer::AddProcess(pid_t pid, std::string* error) {
  std::vector<Mapping> mappings;
  if (!ReadExecutableMappings(pid, &mappings, error)) return false;
  for (const Mapping& m : mappings) AddMapping(m);
  return true;
}

Symbol Symbolizer::Resolve(uint64_t pc) {
  Symbol symbol;
  auto next = state_->by_start.upper_bound(pc);
  if (next == state_->by_start.begin()) return symbol;
  const State::Placed& placed = std::prev(next)->second;
  const Mapping& mapping = placed.mapping;
  if (pc >= mapping.end) return symbol;
  symbol.in_module = true;
  symbol.module = mapping.path;
  symbol.module_start = mapping.start;
  symbol.module_end = mapping.end;
  symbol.module_offset = pc - mapping.start + mapping.file_offset;
  if (!placed.table) return symbol;

  FileTable& table = *placed.table;
  Dwfl_Module* module = table.module;
  const Dwarf_Addr address = pc - placed.bias;  // in the file, where the module is
  Dwarf_Addr low = 0, high = 0;
  dwfl_module_info(module, nullptr, &low, &high, nullptr, nullptr, nullptr, nullptr);
  symbol.module_start = low + placed.bias;
  symbol.module_end = high + placed.bias;
  symbol.module_offset = address;
  symbol.build_id = table.build_id;

  GElf_Off offset = 0;
  GElf_Sym sym{};
  const char* name =
      dwfl_module_addrinfo(module, address, &offset, &sym, nullptr, nullptr, nullptr);
  // A symbol that does not cover the PC is a neighbour, not the function: a stripped module's
  // .dynsym would otherwise name every local function after the exported one before it.
  bool covers = sym.st_size > 0 ? offset < sym.st_size : offset == 0;
  if (name && covers) {
    symbol.function = Demangle(name);
    symbol.function_offset = offset;
  }
  if (Dwfl_Line* line = dwfl_module_getsrc(module, address)) {
    int number = 0;
    const char* file = dwfl_lineinfo(line, nullptr, &number, nullptr, nullptr, nullptr);
    if (file) {
      symbol.file = file;
      symbol.line = number;
    }
  } else {
    Dwarf_Addr dwarf_bias = 0;
    if (dwfl_module_getdwarf(module, &dwarf_bias)) {
      if (!table.ranges_made) {
        table.unit_ranges = UnitRanges(module);
        table.ranges_made = true;
      }
      if (Dwarf_Line* unit_line = LineFromUnits(table.unit_ranges, address - dwarf_bias)) {
        int number = 0;
        const char* file = dwarf_linesrc(unit_line, nullptr, nullptr);
        if (file && dwarf_lineno(unit_line, &number) == 0) {
          symbol.file = file;
          symbol.line = number;
        }
      }
    }
  }
  return symbol;
}

bool ReadExecutableMappings(pid_t pid, std::vector<Mapping>* out, std::string* error) {
  std::string path = "/proc/" + std::to_string(pid) + "/maps";
  std::ifstream maps(path);
  if (!maps) {
    *error = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  std::string text;
  while (std::getline(maps, text)) {
    unsigned long long start = 0, end = 0, offset = 0;
    char perms[8] = {};
    int name_at = 0;
    if (std::sscanf(text.c_str(), "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &offset,
                    &name_at) < 4 ||
        name_at == 0)
      continue;
    std::string name = text.substr(static_cast<size_t>(name_at));
    if (perms[2] != 'x' || name.empty() || name[0] != '/') continue;
    out->push_back(Mapping{start, end, offset, name});
  }
  return true;
}

}  // namespace fuchsia_common
