// SPDX-License-Identifier: MIT
// The same with the C++ Controller: count this program's page faults and task clock.
#include <lib/perfmon/controller.h>
#include <lib/perfmon/reader.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int main() {
  std::unique_ptr<perfmon::Controller> controller;
  if (perfmon::Controller::Open(&controller) != ZX_OK) return 1;
  perfmon_event_id_t faults = 0;
  if (perfmon_lookup_event(nullptr, "linux:page-faults", &faults) != ZX_OK) return 1;
  perfmon_allocation_t allocation{static_cast<uint32_t>(sysconf(_SC_NPROCESSORS_ONLN)), 1};
  perfmon_config_t config{};
  config.events[0] = {faults, 0, PERFMON_FLAG_COLLECT_USER};
  zx_status_t status = controller->Initialize(allocation);
  if (status == ZX_OK) status = controller->SetTarget({getpid(), 0});
  if (status == ZX_OK) status = controller->StageConfig(config);
  if (status == ZX_OK) status = controller->Start();
  if (status != ZX_OK) {
    fprintf(stderr, "%s: %s\n", perfmon_status_name(status), controller->last_error().c_str());
    return 1;
  }
  // 16 Ki fresh pages, one write each: a fault each (small pages asked for; memory from mmap,
  // which no allocator has touched before).
  const size_t bytes = size_t{64} << 20;
  char *touched = static_cast<char *>(
      mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (touched == MAP_FAILED) return 1;
  madvise(touched, bytes, MADV_NOHUGEPAGE);
  for (size_t at = 0; at < bytes; at += 4096) touched[at] = 1;
  controller->Stop();
  munmap(touched, bytes);
  uint64_t total = 0;
  for (uint32_t cpu = 0; cpu < allocation.num_buffers; ++cpu) {
    int fd = -1;
    if (controller->GetBufferHandle(cpu, &fd) != ZX_OK) return 1;
    void *data = mmap(nullptr, PERFMON_PAGE_SIZE, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    perfmon_reader_t reader;
    perfmon_record_t record;
    if (perfmon_reader_init(&reader, data, PERFMON_PAGE_SIZE) == ZX_OK) {
      while (perfmon_reader_next(&reader, &record) == ZX_OK) {
        if (record.type == PERFMON_RECORD_COUNT && record.event == faults) total += record.value;
      }
    }
    munmap(data, PERFMON_PAGE_SIZE);
  }
  printf("%llu page faults for %zu pages touched\n", static_cast<unsigned long long>(total),
         bytes / 4096);
  return total >= bytes / 4096 ? 0 : 1;
}
