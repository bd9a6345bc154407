// SPDX-License-Identifier: MIT
#include "trace_outputs.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <algorithm>
#include <map>

#include "json.h"
#include "lib/perfmon/reader.h"
#include "output_file.h"

namespace cpuperf {
namespace {

std::string Thousands(uint64_t value) {
  std::string digits = std::to_string(value), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

int IndexOf(const SessionSpec &spec, perfmon_event_id_t id) {
  for (size_t i = 0; i < spec.events.size(); ++i) {
    if (spec.events[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

std::vector<uint64_t> Tally(const SessionSpec &spec, const SavedTrace &trace, bool *full) {
  std::vector<uint64_t> tally(spec.events.size(), 0);
  perfmon_reader_t reader;
  if (perfmon_reader_init(&reader, trace.bytes.data(), trace.bytes.size()) != ZX_OK) return tally;
  *full = perfmon_reader_header(&reader)->flags & PERFMON_BUFFER_FLAG_FULL;
  perfmon_record_t record;
  while (perfmon_reader_next(&reader, &record) == ZX_OK) {
    int i = IndexOf(spec, record.event);
    if (i < 0) continue;
    switch (record.type) {
      case PERFMON_RECORD_TICK:
      case PERFMON_RECORD_PC:
        tally[i] += spec.events[i].rate;
        break;
      case PERFMON_RECORD_COUNT:
      case PERFMON_RECORD_VALUE:
        // A sampled event's COUNT is what followed its last sample; any other event's last
        // COUNT or VALUE is its total.
        if (spec.events[i].rate > 0 && record.type == PERFMON_RECORD_COUNT) {
          tally[i] += record.value;
        } else {
          tally[i] = record.value;
        }
        break;
      default:
        break;
    }
  }
  return tally;
}

void PrintTallies(FILE *out, const SessionSpec &spec, const std::vector<SavedTrace> &traces) {
  std::vector<int> widths;
  fprintf(out, "%10s", "");
  for (const EventSpec &event : spec.events) {
    widths.push_back(std::max<int>(static_cast<int>(event.FullName().size()), 11));
    fprintf(out, "|%*s", widths.back(), event.FullName().c_str());
  }
  fprintf(out, "\n");
  uint32_t iteration = UINT32_MAX;
  std::vector<uint64_t> total(spec.events.size(), 0);
  for (const SavedTrace &trace : traces) {
    if (trace.iteration != iteration && spec.num_iterations > 1) {
      fprintf(out, "Iteration %u\n", trace.iteration);
    }
    iteration = trace.iteration;
    bool full = false;
    std::vector<uint64_t> tally = Tally(spec, trace, &full);
    char label[16];
    snprintf(label, sizeof label, "Trace %u:", trace.trace);
    fprintf(out, "%-10s", label);
    for (size_t i = 0; i < tally.size(); ++i) {
      fprintf(out, "|%*s", widths[i], Thousands(tally[i]).c_str());
      total[i] += tally[i];
    }
    fprintf(out, "%s\n", full ? "  (buffer full: records were dropped)" : "");
  }
  fprintf(out, "%-10s", "Total:");
  for (size_t i = 0; i < total.size(); ++i) {
    fprintf(out, "|%*s", widths[i], Thousands(total[i]).c_str());
  }
  fprintf(out, "\n");
}

bool PrintRecords(FILE *out, const std::vector<SavedTrace> &traces) {
  bool ok = true;
  uint32_t iteration = UINT32_MAX;
  for (const SavedTrace &trace : traces) {
    if (trace.iteration != iteration)
      fprintf(out, "\nIteration %u\n==============\n", trace.iteration);
    iteration = trace.iteration;
    fprintf(out, "\nTrace %u\n--------\n", trace.trace);
    perfmon_reader_t reader;
    if (perfmon_reader_init(&reader, trace.bytes.data(), trace.bytes.size()) != ZX_OK) {
      fprintf(out, "bad buffer header\n");
      ok = false;
      continue;
    }
    perfmon_record_t r;
    zx_status_t status;
    while ((status = perfmon_reader_next(&reader, &r)) == ZX_OK) {
      fprintf(out, "%04zx: ", r.offset);
      switch (r.type) {
        case PERFMON_RECORD_TIME:
          fprintf(out, "Time: %" PRIu64 "\n", r.time);
          break;
        case PERFMON_RECORD_TICK:
          fprintf(out, "Tick: Event 0x%x\n", r.event);
          break;
        case PERFMON_RECORD_COUNT:
          fprintf(out, "Count: Event 0x%x, %" PRIu64 "\n", r.event, r.value);
          break;
        case PERFMON_RECORD_VALUE:
          fprintf(out, "Value: Event 0x%x, %" PRIu64 "\n", r.event, r.value);
          break;
        case PERFMON_RECORD_PC:
          fprintf(out, "PC: Event 0x%x, aspace 0x%" PRIx64 ", pc 0x%" PRIx64 "\n", r.event,
                  r.aspace, r.value);
          break;
        case PERFMON_RECORD_LAST_BRANCH: {
          uint32_t n;
          memcpy(&n, &r.last_branch->num_branches, sizeof n);
          fprintf(out, "LastBranch: Event 0x%x, aspace 0x%" PRIx64 ", %u branches\n", r.event,
                  r.aspace, n);
          break;
        }
        default:
          break;
      }
    }
    if (status != ZX_ERR_NOT_FOUND) {
      fprintf(out, "%04zx: bad record\n", reader.offset);
      ok = false;
    }
  }
  fprintf(out, "\n");
  return ok;
}

std::string WriteChromeTrace(const std::string &path, const SessionSpec &spec,
                             const std::vector<SavedTrace> &traces) {
  tools::OutputFile file;
  std::string error = file.Open(path);
  if (!error.empty()) return error;
  FILE *out = file.stream();
  fprintf(out, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  fprintf(out, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":%s}}",
          tools::JsonString("cpuperf " + spec.config_name).c_str());
  for (const SavedTrace &trace : traces) {
    perfmon_reader_t reader;
    if (perfmon_reader_init(&reader, trace.bytes.data(), trace.bytes.size()) != ZX_OK) continue;
    // Each counter track: "<event> cpu<N>", the events counted since Start (VALUE: the value).
    std::map<perfmon_event_id_t, uint64_t> counted;
    bool started = false;
    perfmon_record_t r;
    while (perfmon_reader_next(&reader, &r) == ZX_OK) {
      if (!started && r.type == PERFMON_RECORD_TIME) {
        started = true;  // every track starts at 0 where the trace starts
        for (const EventSpec &event : spec.events) {
          fprintf(
              out, ",\n{\"name\":%s,\"ph\":\"C\",\"ts\":%.3f,\"pid\":1,\"args\":{\"count\":0}}",
              tools::JsonString(event.FullName() + " cpu" + std::to_string(trace.trace)).c_str(),
              r.time / 1000.0);
        }
      }
      int i = IndexOf(spec, r.event);
      if (i < 0) continue;
      const char *arg = "count";
      uint64_t value = 0;
      switch (r.type) {
        case PERFMON_RECORD_TICK:
        case PERFMON_RECORD_PC:
          value = counted[r.event] += spec.events[i].rate;
          break;
        case PERFMON_RECORD_COUNT:
          if (spec.events[i].rate > 0) {
            value = counted[r.event] += r.value;
          } else {
            value = r.value;  // the total
          }
          break;
        case PERFMON_RECORD_VALUE:
          value = r.value;
          break;
        default:
          continue;
      }
      fprintf(out,
              ",\n{\"name\":%s,\"ph\":\"C\",\"ts\":%.3f,\"pid\":1,\"args\":{\"%s\":%" PRIu64 "}}",
              tools::JsonString(spec.events[i].FullName() + " cpu" + std::to_string(trace.trace))
                  .c_str(),
              r.time / 1000.0, arg, value);
    }
  }
  fprintf(out, "\n]}\n");
  return file.Commit();
}

}  // namespace cpuperf
