// SPDX-License-Identifier: MIT
// libdw unwinds through Dwfl_Thread_Callbacks: set_initial_registers gives it the sample's
// registers and memory_read its stack copy, so a process is "attached" without ptrace and
// without reading its memory. A Dwfl per process keeps the modules' CFI between samples, and
// libdwfl an open descriptor per module: the least recently used Dwfl are ended past
// kMaxLiveDwfl of them or kMaxOpenModules modules in all (their mappings stay, tiny), so a
// program sampling many processes keeps its descriptors.
#include "dwarf_unwinder.h"

#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "base/regular_file.h"

namespace zx_sampler {
namespace {

constexpr size_t kMaxLiveDwfl = 32;
constexpr size_t kMaxOpenModules = 256;

const Dwfl_Callbacks kModuleCallbacks = {dwfl_build_id_find_elf, dwfl_standard_find_debuginfo,
                                         nullptr, nullptr};

pid_t NoThreads(Dwfl*, void*, void**) { return 0; }

// Every thread is the sample being unwound.
bool SampleThread(Dwfl*, pid_t, void* dwfl_arg, void** thread_arg) {
  *thread_arg = dwfl_arg;
  return true;
}

// Stack reads come from the copy only: an address outside it ends the unwinding there.
bool ReadCopiedStack(Dwfl*, Dwarf_Addr address, Dwarf_Word* result, void* dwfl_arg) {
  uint64_t word;
  if (!DwarfUnwinder::ReadStackWord(*static_cast<DwarfUnwinder::Current*>(dwfl_arg), address,
                                    &word))
    return false;
  *result = word;
  return true;
}

bool SampleRegisters(Dwfl_Thread* thread, void* thread_arg) {
  const DwarfRegisters& r = *static_cast<DwarfUnwinder::Current*>(thread_arg)->registers;
  static_assert(sizeof(Dwarf_Word) == sizeof(uint64_t), "DWARF words are the registers' size");
  return dwfl_thread_state_registers(thread, 0, static_cast<unsigned>(r.count),
                                     reinterpret_cast<const Dwarf_Word*>(r.values)) &&
         (dwfl_thread_state_register_pc(thread, r.pc), true);
}

const Dwfl_Thread_Callbacks kSampleCallbacks = {NoThreads,       SampleThread, ReadCopiedStack,
                                                SampleRegisters, nullptr,      nullptr};

struct Frames {
  uint64_t* pcs;
  size_t max, count;
};

int OneFrame(Dwfl_Frame* frame, void* arg) {
  auto* frames = static_cast<Frames*>(arg);
  Dwarf_Addr pc;
  if (!dwfl_frame_pc(frame, &pc, nullptr) || pc == 0) return DWARF_CB_ABORT;
  frames->pcs[frames->count++] = pc;
  return frames->count < frames->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

// The load bias of the ELF file open at `fd`, mapped at `start` from file offset
// `file_offset`: the PT_LOAD segment the mapping holds was placed at `start`. False if the
// file is no ELF or has no such segment.
bool LoadBias(int fd, uint64_t start, uint64_t file_offset, uint64_t* bias) {
  // libelf works only once a version is set (dwfl_begin sets it too; said here, not assumed).
  if (elf_version(EV_CURRENT) == EV_NONE) return false;
  bool found = false;
  Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
  GElf_Ehdr ehdr;
  size_t count = 0;
  if (elf && gelf_getehdr(elf, &ehdr) && elf_getphdrnum(elf, &count) == 0) {
    const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    for (size_t i = 0; i < count && !found; ++i) {
      GElf_Phdr phdr;
      if (!gelf_getphdr(elf, static_cast<int>(i), &phdr) || phdr.p_type != PT_LOAD) continue;
      if ((phdr.p_offset & ~(page - 1)) != file_offset) continue;
      *bias = ehdr.e_type == ET_EXEC ? 0 : start - (phdr.p_vaddr & ~(page - 1));
      found = true;
    }
  }
  if (elf) elf_end(elf);
  return found;
}

// Reports `m`'s file to `dwfl` at its load bias. The file is opened here, close-on-exec (libdwfl
// would open it without), and libdwfl keeps the descriptor once the module is reported.
// Whatever is at the path now must be a regular file: never a FIFO put there, waited on for
// good with the drain lock held.
bool Report(Dwfl* dwfl, const std::string& path, uint64_t start, uint64_t file_offset) {
  struct stat info;
  const int fd = pmapi::OpenRegularFile(AT_FDCWD, path.c_str(), &info);
  if (fd < 0) return false;
  uint64_t bias = 0;
  if (LoadBias(fd, start, file_offset, &bias) &&
      dwfl_report_elf(dwfl, path.c_str(), path.c_str(), fd, bias, true))
    return true;
  close(fd);
  return false;
}

// The process (thread group) of thread `tid`, or 0 if it is gone.
pid_t ProcessOf(pid_t tid) {
  std::ifstream status("/proc/" + std::to_string(tid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.compare(0, 5, "Tgid:") == 0) return static_cast<pid_t>(std::atol(line.c_str() + 5));
  return 0;
}

}  // namespace

DwarfUnwinder::~DwarfUnwinder() {
  for (auto& entry : processes_) Invalidate(&entry.second);
}

bool DwarfUnwinder::ReadStackWord(const Current& current, uint64_t address, uint64_t* word) {
  const uint64_t sp = current.registers->sp;
  if (address < sp || address - sp > current.stack_size ||
      current.stack_size - (address - sp) < sizeof(uint64_t))
    return false;
  std::memcpy(word, current.stack + (address - sp), sizeof *word);
  return true;
}

void DwarfUnwinder::ReadMappings(pid_t pid, Process* process) {
  // Only the file names and addresses; the process's memory is never read.
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  for (std::string line; std::getline(maps, line);) {
    unsigned long long start, end, offset;
    char permissions[8];
    int path_at = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx %7s %llx %*s %*s %n", &start, &end, permissions,
                    &offset, &path_at) < 4 ||
        path_at == 0 || permissions[2] != 'x')
      continue;
    process->mappings.push_back(Mapping{start, end - start, offset, line.substr(path_at)});
  }
  process->known = true;
}

void DwarfUnwinder::Attaching(pid_t tid) {
  const pid_t pid = ProcessOf(tid);
  if (pid <= 0) return;
  Process& process = processes_[pid];
  if (!process.known) ReadMappings(pid, &process);
}

void DwarfUnwinder::Invalidate(Process* process) {
  if (process->dwfl) dwfl_end(process->dwfl);
  process->dwfl = nullptr;
  process->attached = false;
  process->modules = 0;
}

void DwarfUnwinder::Mapped(pid_t pid, uint64_t start, uint64_t length, uint64_t file_offset,
                           const std::string& path) {
  if (path.empty() || path[0] != '/') return;  // anonymous code, the vDSO: no file to read
  Process& process = processes_[pid];
  // A process never seen before had mappings before this one: read them first (they include
  // this one, which replaces its own line below).
  if (!process.known) ReadMappings(pid, &process);
  auto& mappings = process.mappings;
  mappings.erase(std::remove_if(mappings.begin(), mappings.end(),
                                [&](const Mapping& m) {
                                  return m.start < start + length && start < m.start + m.length;
                                }),
                 mappings.end());
  mappings.push_back(Mapping{start, length, file_offset, path});
  Invalidate(&process);
}

void DwarfUnwinder::Forked(pid_t child, pid_t parent) {
  auto found = processes_.find(parent);
  if (child == parent || found == processes_.end()) return;
  Process& process = processes_[child];
  Invalidate(&process);
  process.mappings = found->second.mappings;
  process.known = found->second.known;
}

void DwarfUnwinder::Execed(pid_t pid) {
  Process& process = processes_[pid];
  Invalidate(&process);
  process.mappings.clear();
  process.known = true;  // the new image's mappings come as records
}

void DwarfUnwinder::Exited(pid_t pid) {
  auto found = processes_.find(pid);
  if (found != processes_.end()) Invalidate(&found->second);
}

void DwarfUnwinder::EvictIdle(const Process* keep) {
  for (;;) {
    size_t live = 0, modules = 0;
    Process* oldest = nullptr;
    for (auto& entry : processes_) {
      Process& process = entry.second;
      if (!process.dwfl) continue;
      ++live;
      modules += process.modules;
      if (&process != keep && (!oldest || process.last_use < oldest->last_use)) oldest = &process;
    }
    if ((live <= kMaxLiveDwfl && modules <= kMaxOpenModules) || !oldest) return;
    Invalidate(oldest);
  }
}

Dwfl* DwarfUnwinder::DwflOf(pid_t pid, Process* process) {
  if (process->dwfl) return process->attached ? process->dwfl : nullptr;
  // Mapped before the sampler saw it: the kernel's table now.
  if (!process->known) ReadMappings(pid, process);
  process->dwfl = dwfl_begin(&kModuleCallbacks);
  if (!process->dwfl) return nullptr;
  dwfl_report_begin(process->dwfl);
  std::set<std::string> reported;
  for (const Mapping& m : process->mappings) {
    if (m.path.empty() || m.path[0] != '/' || reported.count(m.path)) continue;
    if (Report(process->dwfl, m.path, m.start, m.file_offset)) reported.insert(m.path);
  }
  dwfl_report_end(process->dwfl, nullptr, nullptr);
  process->modules = reported.size();
  process->attached = !reported.empty() &&
                      dwfl_attach_state(process->dwfl, nullptr, pid, &kSampleCallbacks, &current_);
  EvictIdle(process);
  return process->attached ? process->dwfl : nullptr;
}

size_t DwarfUnwinder::Unwind(pid_t pid, pid_t tid, const DwarfRegisters& registers,
                             const uint8_t* stack, size_t stack_size, uint64_t* pcs, size_t max) {
  if (max == 0) return 0;
  Process& process = processes_[pid];
  process.last_use = ++uses_;
  Dwfl* dwfl = DwflOf(pid, &process);
  if (!dwfl) return 0;
  current_.registers = &registers;
  current_.stack = stack;
  current_.stack_size = stack_size;
  Frames frames{pcs, max, 0};
  // It ends with an error where the CFI or the copied stack runs out: the frames so far are
  // the stack.
  (void)dwfl_getthread_frames(dwfl, tid, OneFrame, &frames);
  current_ = Current();
  return frames.count;
}

}  // namespace zx_sampler
