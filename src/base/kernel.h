/* SPDX-License-Identifier: MIT */
// The one seam between libpmapi and the kernel: every perf_event_open, ioctl,
// read and close, every perf page or sampling ring mapped, every sysfs/tracefs file read, and the
// catalog cache's few file writes, go through Kernel. Tests install a double that injects faults
// (EMFILE, a 0-byte read, an unwritable cache directory, ...); every double
// derives from the one fake that passes each call to the real kernel
// (tests/support/fake_kernel.h), as LevelDB's doubles derive from EnvWrapper. Every method
// returns -errno on failure rather than setting errno, so a double cannot
// forget to set it.
#pragma once

#include <linux/perf_event.h>
#include <stdint.h>
#include <sys/types.h>

#include <string>
#include <vector>

#include "base/engine_export.h"

namespace pmapi {

// What Stat reports about a file.
struct FileStat {
  uid_t owner = 0;
  mode_t mode = 0;  // type and permission bits, as st_mode
  off_t size = 0;
  time_t modified = 0;  // seconds since the epoch
};

class Kernel {
 public:
  virtual ~Kernel() = default;

  // Returns a descriptor (always close-on-exec) or -errno.
  virtual int PerfEventOpen(const perf_event_attr &attr, pid_t pid, int cpu, int group_fd) = 0;
  // The same for every task of the cgroup v2 directory `cgroup_dir` on `cpu` (>= 0): the
  // directory is opened for the call alone (PERF_FLAG_PID_CGROUP). A descriptor or -errno.
  virtual int PerfEventOpenCgroup(const perf_event_attr &attr, const std::string &cgroup_dir,
                                  int cpu, int group_fd) = 0;
  // Returns 0 or -errno.
  virtual int Ioctl(int fd, unsigned long request, unsigned long arg) = 0;
  // Returns the bytes read or -errno.
  virtual ssize_t Read(int fd, void *buf, size_t size) = 0;
  // Returns 0 or -errno.
  virtual int Close(int fd) = 0;
  // Reads a whole (small) file; returns 0 or -errno.
  virtual int ReadFile(const std::string &path, std::string *contents) = 0;
  // Reads at most `size` bytes from the start of a small file into `buf`, allocating nothing
  // (error paths, which may be out of memory or in a signal handler, call it); returns the
  // bytes read or -errno.
  virtual ssize_t ReadInto(const char *path, char *buf, size_t size) = 0;
  // Lists the names in a directory, without "." and ".."; returns 0 or -errno.
  virtual int ListDirectory(const std::string &path, std::vector<std::string> *names) = 0;

  // The file operations of the on-disk catalog cache (src/catalog/catalog_cache.h). Each
  // returns 0 or -errno.
  // access(2) with R_OK/W_OK/X_OK/F_OK.
  virtual int Access(const std::string &path, int mode) = 0;
  // stat(2), following links.
  virtual int Stat(const std::string &path, FileStat *info) = 0;
  // Maps the whole file at `path` read-only (private, no link followed) and describes it as
  // Stat would; *data is nullptr for an empty file. Reading a file this way touches only
  // page-cache pages, where ReadFile copies it into fresh memory. Release it with UnmapFile.
  virtual int MapFile(const std::string &path, const char **data, size_t *size, FileStat *info) = 0;
  virtual void UnmapFile(const char *data, size_t size) = 0;
  // mkdir(2); an existing directory gives -EEXIST.
  virtual int MakeDirectory(const std::string &path, mode_t mode) = 0;
  // Creates `path`, which must not exist (O_EXCL, no link followed), with `mode` and writes
  // all of `contents` into it. A failed write leaves the partial file for the caller to unlink.
  virtual int WriteNewFile(const std::string &path, const std::string &contents, mode_t mode) = 0;
  // rename(2): replaces `to` atomically.
  virtual int Rename(const std::string &from, const std::string &to) = 0;
  // unlink(2).
  virtual int Unlink(const std::string &path) = 0;
  // Replaces `path` with a file of `contents` and `mode` so that a reader sees the old file or
  // the new one, never part of one: writes a new temporary file beside it (O_EXCL, no link
  // followed) and renames it over `path` (a link at `path` is replaced, not followed). On
  // failure the temporary file is removed and `path` is as it was.
  virtual int WriteFileAtomically(const std::string &path, const std::string &contents,
                                  mode_t mode) = 0;

  // User-space counter reads (src/base/perf_page_read.h). MapPerfPage maps the first page of
  // perf event `fd` read-only: the perf_event_mmap_page the kernel keeps current while the
  // event counts. Returns 0 or -errno; release it with UnmapPerfPage.
  virtual int MapPerfPage(int fd, const perf_event_mmap_page **page) = 0;
  virtual void UnmapPerfPage(const perf_event_mmap_page *page) = 0;
  // The machine's counter `counter` (the page's index - 1) and timestamp counter: rdpmc and
  // rdtsc on x86; on aarch64 PMEVCNTR<counter>_EL0 through PMSELR_EL0, PMCCNTR_EL0 for counter
  // 31 (the kernel's index 32, the cycle counter), and CNTVCT_EL0. Called only where a page
  // says the process may; 0 elsewhere.
  virtual uint64_t ReadPmc(uint32_t counter) = 0;
  virtual uint64_t ReadTimestamp() = 0;

  // Sampling rings (src/core/perf_ring.h). MapRing maps `size` bytes of perf event `fd` (the
  // metadata page, then a power of two of data pages) shared and writable, so that the reader's
  // data_tail tells the kernel which records it may overwrite. Returns 0 or -errno (EPERM or
  // ENOMEM past the locked-memory limit); release it with UnmapRing. A child of fork does not
  // get the mapping (the kernel marks it not to be copied).
  virtual int MapRing(int fd, size_t size, void **ring) = 0;
  virtual void UnmapRing(void *ring, size_t size) = 0;
};

// Whether this build can read counters from user space at all (x86, aarch64).
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
constexpr bool kUserSpaceReadBuilt = true;
#else
constexpr bool kUserSpaceReadBuilt = false;
#endif

// Where tracefs may be mounted, in the order every reader looks: its own mount point first,
// then the one under debugfs that older systems use.
inline constexpr const char *kTracefsRoots[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};

// The kernel in use: the real one unless a test installed a double.
PMAPI_ENGINE_EXPORT Kernel &CurrentKernel();

// kernel.perf_event_paranoid as its file says it ("2"), or "unknown" when it cannot be read:
// the library's one reader of it, through the seam and allocating nothing.
void ReadPerfEventParanoid(char *level, size_t size);

// Installs `kernel` (not owned) for the rest of the process, or the real one
// again with nullptr. Tests only; not thread-safe against concurrent calls.
void SetKernelForTesting(Kernel *kernel);

// The real kernel, for doubles that pass most calls through.
Kernel &RealKernel();

}  // namespace pmapi
