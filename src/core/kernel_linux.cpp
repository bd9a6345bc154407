// The real kernel behind the seam.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/kernel.h"

namespace pmapi {
namespace {

class LinuxKernel final : public Kernel {
 public:
  int PerfEventOpen(const perf_event_attr &attr, pid_t pid, int cpu, int group_fd) override {
    long fd = syscall(SYS_perf_event_open, &attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
    return fd < 0 ? -errno : static_cast<int>(fd);
  }

  int Ioctl(int fd, unsigned long request, unsigned long arg) override {
    return ioctl(fd, request, arg) < 0 ? -errno : 0;
  }

  ssize_t Read(int fd, void *buf, size_t size) override {
    ssize_t n;
    do {
      n = read(fd, buf, size);
    } while (n < 0 && errno == EINTR);
    return n < 0 ? -errno : n;
  }

  int Close(int fd) override { return close(fd) < 0 ? -errno : 0; }

  int ReadFile(const std::string &path, std::string *contents) override {
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -errno;
    contents->clear();
    char buf[4096];
    for (;;) {
      ssize_t n = read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        int err = errno;
        close(fd);
        return -err;
      }
      if (n == 0) break;
      contents->append(buf, static_cast<size_t>(n));
    }
    close(fd);
    return 0;
  }

  int ListDirectory(const std::string &path, std::vector<std::string> *names) override {
    DIR *dir = opendir(path.c_str());
    if (!dir) return -errno;
    names->clear();
    while (dirent *entry = readdir(dir)) {
      std::string name = entry->d_name;
      if (name != "." && name != "..") names->push_back(std::move(name));
    }
    closedir(dir);
    return 0;
  }
};

LinuxKernel g_linux_kernel;
Kernel *g_kernel = &g_linux_kernel;

}  // namespace

Kernel &CurrentKernel() { return *g_kernel; }
Kernel &RealKernel() { return g_linux_kernel; }
void SetKernelForTesting(Kernel *kernel) { g_kernel = kernel ? kernel : &g_linux_kernel; }

}  // namespace pmapi
