// SPDX-License-Identifier: MIT
// libpfm4 calls: initialization, enumeration and encoding; and which libpfm4 is loaded, for
// the catalog cache key.
#include "catalog/pfm_bridge.h"

#include <elf.h>
#include <link.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mutex>

namespace pmapi {
namespace {

std::once_flag g_pfm_once;
int g_pfm_result = PFM_SUCCESS;
// libpfm4 documents no thread-safety for encoding; encoding is rare (set_program time), so a
// lock costs nothing that matters.
std::mutex g_encode_mutex;

// Finding a build id through the dynamic linker's list of loaded objects.
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

// The GNU build id, in hex, of the loaded object whose code contains `address` (ld --build-id,
// the Debian toolchain's default: any byte of code or data changed changes it); "" when no
// object does or it has none. Reads only the process's own memory (dl_iterate_phdr).
std::string BuildIdOfObjectContaining(const void *address) {
  Search search;
  search.address = reinterpret_cast<uintptr_t>(address);
  dl_iterate_phdr(Visit, &search);
  return search.build_id;
}

// libpfm4's description of PMU `pmu`: PFM_SUCCESS or its error.
int PmuInfo(int pmu, pfm_pmu_info_t *info) {
  memset(info, 0, sizeof *info);
  info->size = sizeof *info;
  return pfm_get_pmu_info(static_cast<pfm_pmu_t>(pmu), info);
}

// Appends the events of the PMU `info` describes, each marked with `pmu_index`.
void AppendEventsOfPmu(const pfm_pmu_info_t &info, int pmu_index, std::vector<PfmEvent> *events) {
  for (int event = info.first_event; event != -1; event = pfm_get_event_next(event)) {
    pfm_event_info_t einfo;
    memset(&einfo, 0, sizeof einfo);
    einfo.size = sizeof einfo;
    if (pfm_get_event_info(event, PFM_OS_PERF_EVENT_EXT, &einfo) != PFM_SUCCESS) continue;
    PfmEvent entry;
    entry.pmu_index = pmu_index;
    entry.name = einfo.name;
    if (einfo.equiv) entry.equiv = einfo.equiv;
    if (einfo.desc) entry.desc = einfo.desc;
    entry.code = einfo.code;
    events->push_back(std::move(entry));
  }
}

}  // namespace

std::string PfmInitialize() {
  std::call_once(g_pfm_once, [] { g_pfm_result = pfm_initialize(); });
  return g_pfm_result == PFM_SUCCESS ? "" : pfm_strerror(g_pfm_result);
}

bool PfmCoreCounters(int *programmable, int *fixed) {
  if (!PfmInitialize().empty()) return false;
  for (int pmu = PFM_PMU_NONE; pmu < PFM_PMU_MAX; ++pmu) {
    pfm_pmu_info_t info;
    if (PmuInfo(pmu, &info) != PFM_SUCCESS || !info.is_present) continue;
    if (info.type != PFM_PMU_TYPE_CORE) continue;
    *programmable = info.num_cntrs;
    *fixed = info.num_fixed_cntrs;
    return true;
  }
  return false;
}

void PfmEnumerate(std::vector<PfmPmu> *pmus, std::vector<PfmEvent> *events) {
  if (!PfmInitialize().empty()) return;
  // PFM_PMU_MAX is a compile-time bound of the headers; a newer library may know more PMUs,
  // but only ones our headers name can be present in practice, and pfm_get_pmu_info rejects
  // the rest.
  for (int pmu = 0; pmu < PFM_PMU_MAX; ++pmu) {
    pfm_pmu_info_t info;
    if (PmuInfo(pmu, &info) != PFM_SUCCESS) continue;
    if (!info.is_present || pmu == PFM_PMU_PERF_EVENT_RAW) continue;
    int pmu_index = static_cast<int>(pmus->size());
    pmus->push_back(PfmPmu{info.name, info.desc ? info.desc : "", info.type == PFM_PMU_TYPE_CORE});
    AppendEventsOfPmu(info, pmu_index, events);
  }
}

std::string PfmEventsOfPmu(int pmu, PfmPmu *info, bool *present, std::vector<PfmEvent> *events) {
  *present = false;
  std::string init_error = PfmInitialize();
  if (!init_error.empty()) return "libpfm4 failed to initialize: " + init_error;
  if (pmu <= PFM_PMU_NONE || pmu >= PFM_PMU_MAX) return "libpfm4 has no such PMU";
  pfm_pmu_info_t pinfo;
  int result = PmuInfo(pmu, &pinfo);
  if (result != PFM_SUCCESS) {
    return std::string("this libpfm4 has no tables for it (") + pfm_strerror(result) + ")";
  }
  *present = pinfo.is_present;
  *info = PfmPmu{pinfo.name ? pinfo.name : "", pinfo.desc ? pinfo.desc : "",
                 pinfo.type == PFM_PMU_TYPE_CORE};
  AppendEventsOfPmu(pinfo, 0, events);
  if (events->empty()) return "libpfm4 lists no events for it";
  return "";
}

std::string PfmLibraryIdentity() {
  int version = pfm_get_version();
  std::string identity =
      std::to_string(PFM_MAJ_VERSION(version)) + "." + std::to_string(PFM_MIN_VERSION(version));
  std::string build_id = BuildIdOfObjectContaining(reinterpret_cast<const void *>(pfm_initialize));
  return build_id.empty() ? identity : identity + " " + build_id;
}

std::string PfmEncode(const std::string &event, PfmEncoding *encoding) {
  std::string init_error = PfmInitialize();
  if (!init_error.empty()) return "libpfm4 failed to initialize: " + init_error;
  perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  pfm_perf_encode_arg_t arg;
  memset(&arg, 0, sizeof arg);
  arg.attr = &attr;
  arg.size = sizeof arg;
  int result;
  {
    std::lock_guard<std::mutex> lock(g_encode_mutex);
    result = pfm_get_os_event_encoding(event.c_str(), PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
  }
  if (result != PFM_SUCCESS) return pfm_strerror(result);
  encoding->type = attr.type;
  encoding->config = attr.config;
  encoding->config1 = attr.config1;
  encoding->config2 = attr.config2;
  return "";
}

}  // namespace pmapi
