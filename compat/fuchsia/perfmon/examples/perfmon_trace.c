/* SPDX-License-Identifier: MIT */
/* Traces this program's own getppid calls with the cpuperf C calls, then reads the buffers the
 * way a Fuchsia client does: map each CPU's buffer read-only and walk its records. Prints the
 * records it found and exits 0 when every call was recorded. Build with `pkg-config perfmon`. */
#define _GNU_SOURCE
#include <lib/perfmon/cpuperf.h>
#include <lib/perfmon/reader.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static int fail(const char *what, zx_status_t status, cpuperf_handle_t handle) {
  fprintf(stderr, "%s: %s: %s\n", what, perfmon_status_name(status), cpuperf_last_error(handle));
  return 1;
}

int main(void) {
  cpuperf_handle_t handle;
  zx_status_t status = cpuperf_open(&handle);
  if (status != ZX_OK) return fail("cpuperf_open", status, 0);
  perfmon_event_id_t getppid;
  status = perfmon_lookup_event("tracepoint", "syscalls:sys_enter_getppid", &getppid);
  if (status != ZX_OK) return fail("perfmon_lookup_event", status, handle);
  perfmon_allocation_t allocation = {(uint32_t)sysconf(_SC_NPROCESSORS_ONLN), 4};
  perfmon_config_t config = {{{getppid, 10, PERFMON_FLAG_COLLECT_PC}}};
  perfmon_target_t me = {getpid(), 0};
  if ((status = ioctl_cpuperf_alloc_trace(handle, &allocation)) != ZX_OK ||
      (status = cpuperf_set_target(handle, &me)) != ZX_OK ||
      (status = ioctl_cpuperf_stage_config(handle, &config)) != ZX_OK ||
      (status = ioctl_cpuperf_start(handle)) != ZX_OK) {
    return fail("starting the trace", status, handle);
  }
  for (int i = 0; i < 100; ++i) syscall(SYS_getppid);
  ioctl_cpuperf_stop(handle);

  unsigned pcs = 0;
  for (uint32_t cpu = 0; cpu < allocation.num_buffers; ++cpu) {
    int fd;
    if ((status = ioctl_cpuperf_get_buffer_handle(handle, &cpu, &fd)) != ZX_OK) {
      return fail("ioctl_cpuperf_get_buffer_handle", status, handle);
    }
    size_t size = allocation.buffer_size_in_pages * PERFMON_PAGE_SIZE;
    void *data = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (data == MAP_FAILED) return 1;
    perfmon_reader_t reader;
    perfmon_record_t record;
    if (perfmon_reader_init(&reader, data, size) == ZX_OK) {
      while (perfmon_reader_next(&reader, &record) == ZX_OK) {
        pcs += record.type == PERFMON_RECORD_PC && record.event == getppid;
      }
    }
    munmap(data, size);
  }
  cpuperf_close(handle);
  printf("%u PC records for 100 getppid calls at rate 10\n", pcs);
  return pcs == 10 ? 0 : 1;
}
