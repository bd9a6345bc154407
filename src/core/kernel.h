// The one seam between libpmapi and the kernel: every perf_event_open, ioctl,
// read and close, and every sysfs/tracefs file read, goes through Kernel.
// Tests install a double that injects faults (EMFILE, a 0-byte read, ...).
// Every method returns -errno on failure rather than setting errno, so a
// double cannot forget to set it.
#pragma once

#include <linux/perf_event.h>
#include <sys/types.h>

#include <string>
#include <vector>

namespace pmapi {

class Kernel {
 public:
  virtual ~Kernel() = default;

  // Returns a descriptor (always close-on-exec) or -errno.
  virtual int PerfEventOpen(const perf_event_attr &attr, pid_t pid, int cpu, int group_fd) = 0;
  // Returns 0 or -errno.
  virtual int Ioctl(int fd, unsigned long request, unsigned long arg) = 0;
  // Returns the bytes read or -errno.
  virtual ssize_t Read(int fd, void *buf, size_t size) = 0;
  // Returns 0 or -errno.
  virtual int Close(int fd) = 0;
  // Reads a whole (small) file; returns 0 or -errno.
  virtual int ReadFile(const std::string &path, std::string *contents) = 0;
  // Lists the names in a directory, without "." and ".."; returns 0 or -errno.
  virtual int ListDirectory(const std::string &path, std::vector<std::string> *names) = 0;
};

// The kernel in use: the real one unless a test installed a double.
Kernel &CurrentKernel();

// Installs `kernel` (not owned) for the rest of the process, or the real one
// again with nullptr. Tests only; not thread-safe against concurrent calls.
void SetKernelForTesting(Kernel *kernel);

// The real kernel, for doubles that pass most calls through.
Kernel &RealKernel();

}  // namespace pmapi
