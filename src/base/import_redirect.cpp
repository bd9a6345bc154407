// SPDX-License-Identifier: MIT
// Rewrites the relocated slots through which loaded objects call an imported function. Every
// address in an object's dynamic section is read as either already relocated (glibc adds the
// load address in place) or an offset from the load address (the vDSO, other loaders): both
// are handled, so nothing here depends on the loader beyond dl_iterate_phdr.
#include "base/import_redirect.h"

#include <elf.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include <initializer_list>

namespace pmapi {

namespace {

#if defined(__x86_64__)
#define PMAPI_IMPORT_REDIRECT 1
constexpr unsigned kJumpSlot = R_X86_64_JUMP_SLOT;
constexpr unsigned kGlobalData = R_X86_64_GLOB_DAT;
#elif defined(__aarch64__)
#define PMAPI_IMPORT_REDIRECT 1
constexpr unsigned kJumpSlot = R_AARCH64_JUMP_SLOT;
constexpr unsigned kGlobalData = R_AARCH64_GLOB_DAT;
#endif

// The relocation-info fields, for the native ELF class (link.h's ElfW names the types only).
#if __ELF_NATIVE_CLASS == 64
#define PMAPI_R_TYPE ELF64_R_TYPE
#define PMAPI_R_SYM ELF64_R_SYM
#else
#define PMAPI_R_TYPE ELF32_R_TYPE
#define PMAPI_R_SYM ELF32_R_SYM
#endif

#ifdef PMAPI_IMPORT_REDIRECT

struct Request {
  const char *symbol;
  void *replacement;
  uintptr_t own_code;
  unsigned long long *loaded_objects;
  bool first = true;
  int rewritten = 0;
};

// Whether objects were loaded since the last pass; called on the first object, which carries the
// process-wide count. dlpi_adds counts every load since start: a new object always raises it.
bool LoadedSince(const struct dl_phdr_info *info, size_t size, Request *request) {
  if (size < offsetof(struct dl_phdr_info, dlpi_adds) + sizeof(info->dlpi_adds)) return true;
  // Atomic only for ThreadSanitizer's sake: the loader's lock, which it cannot see, orders it.
  if (info->dlpi_adds == __atomic_load_n(request->loaded_objects, __ATOMIC_RELAXED)) return false;
  __atomic_store_n(request->loaded_objects, info->dlpi_adds, __ATOMIC_RELAXED);
  return true;
}

uintptr_t Absolute(ElfW(Addr) base, ElfW(Addr) value) {
  return value >= base ? value : base + value;
}

bool Contains(const struct dl_phdr_info *info, uintptr_t address) {
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &segment = info->dlpi_phdr[i];
    const uintptr_t start = info->dlpi_addr + segment.p_vaddr;
    if (segment.p_type == PT_LOAD && address >= start && address - start < segment.p_memsz) {
      return true;
    }
  }
  return false;
}

// The pages the loader made read-only after relocating (RELRO): [start, end), page-aligned as
// the loader protects them.
struct ReadOnlyAfterRelocation {
  uintptr_t start = 0;
  uintptr_t end = 0;
};

// Stores `value` in `slot`, lifting RELRO's protection for the write.
bool WriteSlot(void **slot, void *value, const ReadOnlyAfterRelocation &relro) {
  const uintptr_t page_size = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t page = reinterpret_cast<uintptr_t>(slot) & ~(page_size - 1);
  const bool protected_page = page >= relro.start && page < relro.end;
  void *page_address = reinterpret_cast<void *>(page);
  if (protected_page && mprotect(page_address, page_size, PROT_READ | PROT_WRITE) != 0) {
    return false;
  }
  // One aligned pointer store: a thread calling through the slot meanwhile sees the old or the
  // new function, both of which work.
  __atomic_store_n(slot, value, __ATOMIC_RELEASE);
  if (protected_page) mprotect(page_address, page_size, PROT_READ);
  return true;
}

struct Relocations {
  const ElfW(Rela) *table = nullptr;
  size_t bytes = 0;
};

void RedirectIn(const struct dl_phdr_info *info, const ElfW(Dyn) * dynamic,
                const ReadOnlyAfterRelocation &relro, Request *request) {
  const ElfW(Addr) base = info->dlpi_addr;
  // The dynamic section's values by tag (the last of a tag; 0 for one absent), then the
  // addresses among them made absolute.
  ElfW(Xword) value_of[DT_NUM] = {};
  for (const ElfW(Dyn) *entry = dynamic; entry->d_tag != DT_NULL; ++entry) {
    if (entry->d_tag > 0 && entry->d_tag < DT_NUM) value_of[entry->d_tag] = entry->d_un.d_val;
  }
  const auto address_of = [&](ElfW(Sxword) tag) {
    return value_of[tag] ? Absolute(base, value_of[tag]) : 0;
  };
  Relocations plt{reinterpret_cast<const ElfW(Rela) *>(address_of(DT_JMPREL)),
                  value_of[DT_PLTRELSZ]};
  const Relocations data{reinterpret_cast<const ElfW(Rela) *>(address_of(DT_RELA)),
                         value_of[DT_RELASZ]};
  const auto *symbols = reinterpret_cast<const ElfW(Sym) *>(address_of(DT_SYMTAB));
  const auto *names = reinterpret_cast<const char *>(address_of(DT_STRTAB));
  if (!symbols || !names) return;
  // Both supported architectures use RELA; a REL PLT is not read.
  if (value_of[DT_PLTREL] != DT_RELA) plt = Relocations();
  for (const Relocations &relocations : {plt, data}) {
    const size_t count = relocations.table ? relocations.bytes / sizeof(ElfW(Rela)) : 0;
    for (size_t i = 0; i < count; ++i) {
      const ElfW(Rela) &relocation = relocations.table[i];
      const unsigned type = PMAPI_R_TYPE(relocation.r_info);
      if (type != kJumpSlot && type != kGlobalData) continue;
      const ElfW(Sym) &symbol = symbols[PMAPI_R_SYM(relocation.r_info)];
      // Only imports: an object defining the function (libc, an interposer) keeps its own.
      if (symbol.st_shndx != SHN_UNDEF || strcmp(names + symbol.st_name, request->symbol) != 0) {
        continue;
      }
      void **slot = reinterpret_cast<void **>(base + relocation.r_offset);
      void *current = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
      // Null: a weak import left unresolved, which the object tests for; leave it absent.
      if (!current || current == request->replacement) continue;
      if (WriteSlot(slot, request->replacement, relro)) ++request->rewritten;
    }
  }
}

int RedirectObject(struct dl_phdr_info *info, size_t size, void *raw) {
  Request *request = static_cast<Request *>(raw);
  if (request->first) {
    request->first = false;
    if (!LoadedSince(info, size, request)) return 1;  // stops the walk
  }
  const uintptr_t vdso = static_cast<uintptr_t>(getauxval(AT_SYSINFO_EHDR));
  if ((vdso && Contains(info, vdso)) || Contains(info, request->own_code)) return 0;
  const ElfW(Dyn) *dynamic = nullptr;
  ReadOnlyAfterRelocation relro;
  const uintptr_t page_size = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &segment = info->dlpi_phdr[i];
    if (segment.p_type == PT_DYNAMIC) {
      dynamic = reinterpret_cast<const ElfW(Dyn) *>(info->dlpi_addr + segment.p_vaddr);
    } else if (segment.p_type == PT_GNU_RELRO) {
      const uintptr_t start = info->dlpi_addr + segment.p_vaddr;
      relro.start = start & ~(page_size - 1);
      relro.end = (start + segment.p_memsz) & ~(page_size - 1);
    }
  }
  if (dynamic) RedirectIn(info, dynamic, relro, request);
  return 0;
}

#endif  // PMAPI_IMPORT_REDIRECT

}  // namespace

int RedirectImports(const char *symbol, void *replacement, const void *own_code,
                    unsigned long long *loaded_objects) {
#ifdef PMAPI_IMPORT_REDIRECT
  Request request{symbol, replacement, reinterpret_cast<uintptr_t>(own_code), loaded_objects};
  dl_iterate_phdr(&RedirectObject, &request);
  return request.rewritten;
#else
  (void)symbol, (void)replacement, (void)own_code, (void)loaded_objects;
  return 0;
#endif
}

}  // namespace pmapi
