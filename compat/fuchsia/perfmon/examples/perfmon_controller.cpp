// The same with the C++ Controller: count this program's page faults and task clock.
#include <lib/perfmon/controller.h>
#include <lib/perfmon/reader.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include <vector>

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
  std::vector<char> touched(64 << 20, 1);  // faults in 16 Ki pages
  controller->Stop();
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
  printf("%llu page faults for %zu bytes touched\n", static_cast<unsigned long long>(total),
         touched.size());
  return total >= touched.size() / 4096 / 2 ? 0 : 1;  // huge pages may take fewer faults
}
