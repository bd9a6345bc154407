// Symbolizer over libdwfl: each file is reported once as an ELF module at the load bias its
// mapping implies; PCs outside every ELF module keep their mapping and file offset.
#include "fuchsia_common/symbolizer.h"

#include <cxxabi.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <vector>

namespace fuchsia_common {
namespace {

const Dwfl_Callbacks kCallbacks = {
    nullptr,                       // find_elf: every module is reported with its file
    dwfl_standard_find_debuginfo,  // separate debug files (build-id, .gnu_debuglink)
    dwfl_offline_section_address,  // only used for relocatable files
    nullptr,
};

// The load bias of the ELF file at `path` given that file offset `file_offset` is mapped at
// `start`: the PT_LOAD segment holding that offset places its bytes at bias + p_vaddr.
bool LoadBias(const Mapping& mapping, uint64_t* bias) {
  int fd = open(mapping.path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool found = false;
  elf_version(EV_CURRENT);
  if (Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr)) {
    size_t count = 0;
    if (elf_kind(elf) == ELF_K_ELF && elf_getphdrnum(elf, &count) == 0) {
      for (size_t i = 0; i < count && !found; ++i) {
        GElf_Phdr phdr;
        if (!gelf_getphdr(elf, static_cast<int>(i), &phdr) || phdr.p_type != PT_LOAD) continue;
        uint64_t page_start = phdr.p_offset & ~uint64_t{0xfff};
        if (mapping.file_offset < page_start ||
            mapping.file_offset >= phdr.p_offset + phdr.p_filesz)
          continue;
        *bias = mapping.start - (phdr.p_vaddr - phdr.p_offset + mapping.file_offset);
        found = true;
      }
    }
    elf_end(elf);
  }
  close(fd);
  return found;
}

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

}  // namespace

struct Symbolizer::State {
  Dwfl* dwfl = nullptr;
  std::map<Dwfl_Module*, std::vector<UnitRange>> unit_ranges;  // made when aranges fail
  std::map<uint64_t, Mapping> by_start;  // every mapping, for PCs outside ELF modules
  std::set<std::string> reported;        // files already given to dwfl (or found unusable)
};

Symbolizer::Symbolizer() : state_(new State) { state_->dwfl = dwfl_begin(&kCallbacks); }

Symbolizer::~Symbolizer() {
  if (state_->dwfl) dwfl_end(state_->dwfl);
}

void Symbolizer::AddMapping(const Mapping& mapping) {
  if (mapping.end <= mapping.start) return;
  state_->by_start[mapping.start] = mapping;
  if (!state_->dwfl || !state_->reported.insert(mapping.path).second) return;
  uint64_t bias = 0;
  if (mapping.path.empty() || mapping.path[0] != '/' || !LoadBias(mapping, &bias)) return;
  dwfl_report_begin_add(state_->dwfl);
  dwfl_report_elf(state_->dwfl, mapping.path.c_str(), mapping.path.c_str(), -1, bias, false);
  dwfl_report_end(state_->dwfl, nullptr, nullptr);
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
  const Mapping& mapping = std::prev(next)->second;
  if (pc >= mapping.end) return symbol;
  symbol.in_module = true;
  symbol.module = mapping.path;
  symbol.module_start = mapping.start;
  symbol.module_end = mapping.end;
  symbol.module_offset = pc - mapping.start + mapping.file_offset;

  Dwfl_Module* module = state_->dwfl ? dwfl_addrmodule(state_->dwfl, pc) : nullptr;
  if (!module) return symbol;
  Dwarf_Addr low = 0, high = 0, bias = 0;
  dwfl_module_info(module, nullptr, &low, &high, nullptr, nullptr, nullptr, nullptr);
  symbol.module_start = low;
  symbol.module_end = high;
  if (dwfl_module_getelf(module, &bias)) symbol.module_offset = pc - bias;
  const unsigned char* id = nullptr;
  GElf_Addr id_vaddr = 0;
  int id_length = dwfl_module_build_id(module, &id, &id_vaddr);
  if (id_length > 0) symbol.build_id = Hex(id, id_length);

  GElf_Off offset = 0;
  GElf_Sym sym;
  const char* name = dwfl_module_addrinfo(module, pc, &offset, &sym, nullptr, nullptr, nullptr);
  // A symbol that does not cover the PC is a neighbour, not the function: a stripped module's
  // .dynsym would otherwise name every local function after the exported one before it.
  bool covers = sym.st_size > 0 ? offset < sym.st_size : offset == 0;
  if (name && covers) {
    symbol.function = Demangle(name);
    symbol.function_offset = offset;
  }
  if (Dwfl_Line* line = dwfl_module_getsrc(module, pc)) {
    int number = 0;
    const char* file = dwfl_lineinfo(line, nullptr, &number, nullptr, nullptr, nullptr);
    if (file) {
      symbol.file = file;
      symbol.line = number;
    }
  } else {
    Dwarf_Addr dwarf_bias = 0;
    if (dwfl_module_getdwarf(module, &dwarf_bias)) {
      auto found = state_->unit_ranges.find(module);
      if (found == state_->unit_ranges.end())
        found = state_->unit_ranges.emplace(module, UnitRanges(module)).first;
      if (Dwarf_Line* unit_line = LineFromUnits(found->second, pc - dwarf_bias)) {
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
