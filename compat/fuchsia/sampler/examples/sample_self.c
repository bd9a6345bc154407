/* SPDX-License-Identifier: MIT */
/* Samples its own thread for a moment of busy work with the thread sampler, then reads its
 * regions as Fuchsia's profiler does: every record a Large BLOB of PCs. Prints the count. */
#define _GNU_SOURCE /* syscall(SYS_gettid), CLOCK_THREAD_CPUTIME_ID */
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <zircon/syscalls-next.h>

static volatile unsigned long sink;

static void burn(double seconds) {
  struct timespec start, now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  do {
    for (int i = 0; i < 10000; ++i) sink = sink * 3 + 1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  } while ((double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) * 1e-9 <
           seconds);
}

int main(void) {
  zx_sampler_config_t config = {.period = 1000000,
                                .buffer_size = 1 << 20,
                                .iobuffer_discipline = ZX_IOB_DISCIPLINE_TYPE_NONE};
  zx_handle_t session;
  zx_status_t status = zx_sampler_create(ZX_HANDLE_INVALID, 0, &config, &session);
  if (status == ZX_OK) status = zx_sampler_attach(session, (zx_handle_t)syscall(SYS_gettid));
  if (status == ZX_OK) status = zx_sampler_start(session);
  if (status != ZX_OK) {
    fprintf(stderr, "sample_self: %s: %s\n", zx_sampler_status_name(status),
            zx_sampler_last_error());
    return 1;
  }
  burn(0.05);
  zx_sampler_stop(session);
  zx_sampler_info_t info;
  zx_sampler_get_info(session, &info);
  unsigned long records = 0;
  for (uint32_t i = 0; i < info.region_count; ++i) {
    const void* data;
    size_t size;
    if (zx_sampler_map_region(session, i, &data, &size) != ZX_OK) return 1;
    const uint64_t* words = data;
    /* Each record's size (in words) is bits 4..35 of its header; a zero word ends the data. */
    for (size_t at = 0; at < size / 8 && words[at] != 0; at += (words[at] >> 4) & 0xffffffff)
      ++records;
    munmap((void*)data, size);
  }
  zx_handle_close(session);
  printf("sample_self: %lu samples (%llu written by the sampler)\n", records,
         (unsigned long long)info.samples_written);
  return records > 0 && records == info.samples_written ? 0 : 1;
}
