// The key of the on-disk catalog cache: every fact the catalog's contents depend on, so that a
// cached catalog is used only where building it afresh would give the same one. Statuses are
// facts of this kernel, this boot and this caller's privileges; names and encodings are facts
// of the library builds and the tables. The key names them all:
//   - the builds: the cache format, libpmapi's build id (its code and compiled-in tables),
//     libpfm4's version and build id, and the LIBPFM_* environment libpfm4 reads;
//   - the boot: /proc/sys/kernel/random/boot_id and the kernel release;
//   - what may change within a boot: kernel.perf_event_paranoid, the loaded modules (they add
//     PMUs and tracepoints), the PMUs in /sys/bus/event_source/devices, which tracefs is
//     readable (not its dynamic events: see Tracefs() in the .cpp);
//   - the caller: effective uid, effective capabilities and seccomp mode (/proc/self/status);
//   - $PMAPI_EVENTS_DIR and the contents of its tables.
// Reading it costs about a dozen small procfs/sysfs reads (~0.1 ms), all through the kernel
// seam.
#pragma once

#include <string>

namespace pmapi {

struct CatalogCacheKey {
  // Names the cache file: one file per libpmapi build, libpfm4 build, effective uid and boot
  // (machines sharing a home directory over NFS keep a file each), which any other change of
  // the key overwrites rather than adds to.
  std::string file_tag;
  // One "name=value" line per fact. "" when a fact that must be known cannot be read (no
  // build id, no boot id, no /proc/self/status): then no cache is used.
  std::string text;
};

CatalogCacheKey ComputeCatalogCacheKey();

}  // namespace pmapi
