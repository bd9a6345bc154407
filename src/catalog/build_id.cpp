// Finding a build id through the dynamic linker's list of loaded objects.
#include "catalog/build_id.h"

#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>

namespace pmapi {
namespace {

struct Search {
  uintptr_t address = 0;
  std::string build_id;
};

bool Contains(const dl_phdr_info &object, uintptr_t address) {
  for (int i = 0; i < object.dlpi_phnum; ++i) {
    const ElfW(Phdr) &segment = object.dlpi_phdr[i];
    if (segment.p_type != PT_LOAD) continue;
    uintptr_t start = object.dlpi_addr + segment.p_vaddr;
    if (address >= start && address - start < segment.p_memsz) return true;
  }
  return false;
}

size_t Align4(size_t size) { return (size + 3) & ~static_cast<size_t>(3); }

// Walks the notes of the object's PT_NOTE segments for the one named "GNU" of type
// NT_GNU_BUILD_ID.
std::string FindBuildId(const dl_phdr_info &object) {
  static const char kHex[] = "0123456789abcdef";
  for (int i = 0; i < object.dlpi_phnum; ++i) {
    const ElfW(Phdr) &segment = object.dlpi_phdr[i];
    if (segment.p_type != PT_NOTE) continue;
    const char *notes = reinterpret_cast<const char *>(object.dlpi_addr + segment.p_vaddr);
    size_t offset = 0;
    while (offset + sizeof(ElfW(Nhdr)) <= segment.p_memsz) {
      ElfW(Nhdr) header;
      memcpy(&header, notes + offset, sizeof header);
      size_t name_at = offset + sizeof header;
      size_t desc_at = name_at + Align4(header.n_namesz);
      size_t next = desc_at + Align4(header.n_descsz);
      if (next > segment.p_memsz) break;
      if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 &&
          memcmp(notes + name_at, "GNU", 4) == 0 && header.n_descsz > 0) {
        std::string hex;
        for (size_t byte = 0; byte < header.n_descsz; ++byte) {
          unsigned char value = static_cast<unsigned char>(notes[desc_at + byte]);
          hex.push_back(kHex[value >> 4]);
          hex.push_back(kHex[value & 15]);
        }
        return hex;
      }
      offset = next;
    }
  }
  return "";
}

int Visit(dl_phdr_info *object, size_t, void *data) {
  Search *search = static_cast<Search *>(data);
  if (!Contains(*object, search->address)) return 0;
  search->build_id = FindBuildId(*object);
  return 1;  // found the object: stop
}

}  // namespace

std::string BuildIdOfObjectContaining(const void *address) {
  Search search;
  search.address = reinterpret_cast<uintptr_t>(address);
  dl_iterate_phdr(Visit, &search);
  return search.build_id;
}

}  // namespace pmapi
