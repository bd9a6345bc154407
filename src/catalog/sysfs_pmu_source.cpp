// Listing and encoding sysfs PMU events, all reads through the kernel seam.
#include "catalog/sysfs_pmu_source.h"

#include <stdlib.h>
#include <string.h>

#include <algorithm>

#include "base/kernel.h"
#include "catalog/id_ranges.h"
#include "pmapi.h"

namespace pmapi {
namespace {

std::string TrimNewline(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

Status ReadSysfs(const std::string &path, std::string *contents, const std::string &event) {
  int err = CurrentKernel().ReadFile(path, contents);
  if (err < 0) {
    return Status(Pmapi_InvalidEvent,
                  "event " + event + ": cannot read " + path + ": " + strerror(-err));
  }
  *contents = TrimNewline(*contents);
  return Status::Ok();
}

bool ParseNumber(const std::string &text, uint64_t *value) {
  if (text.empty()) return false;
  char *end = nullptr;
  *value = strtoull(text.c_str(), &end, 0);
  return end && *end == '\0';
}

// Places the low bits of `value` into the bit ranges of a format line such as
// "config:0-7,32-35" or "config1:9".
Status PlaceTerm(const std::string &format, uint64_t value, perf_event_attr *attr,
                 const std::string &what) {
  size_t colon = format.find(':');
  if (colon == std::string::npos) return Status(Pmapi_InvalidEvent, what + ": bad format");
  std::string field = format.substr(0, colon);
  __u64 *target = field == "config"    ? &attr->config
                  : field == "config1" ? &attr->config1
                  : field == "config2" ? &attr->config2
                                       : nullptr;
  if (!target) {
    return Status(Pmapi_InvalidEvent, what + ": format field '" + field + "' is not supported");
  }
  std::string ranges = format.substr(colon + 1);
  size_t start = 0;
  int value_bit = 0;
  while (start <= ranges.size()) {
    size_t comma = ranges.find(',', start);
    std::string range = ranges.substr(start, comma - start);
    size_t dash = range.find('-');
    int low = atoi(range.c_str());
    int high = dash == std::string::npos ? low : atoi(range.c_str() + dash + 1);
    if (low < 0 || high > 63 || high < low) {
      return Status(Pmapi_InvalidEvent, what + ": bad bit range '" + range + "'");
    }
    for (int bit = low; bit <= high; ++bit, ++value_bit) {
      if (value_bit < 64 && (value >> value_bit) & 1) *target |= 1ULL << bit;
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return Status::Ok();
}

}  // namespace

std::vector<SysfsPmuEvents> ListSysfsPmuEvents() {
  Kernel &kernel = CurrentKernel();
  std::vector<std::string> pmus;
  std::vector<SysfsPmuEvents> listed;
  if (kernel.ListDirectory(kSysfsPmuRoot, &pmus) < 0) return listed;
  std::sort(pmus.begin(), pmus.end());
  for (const std::string &pmu : pmus) {
    std::vector<std::string> names;
    if (kernel.ListDirectory(std::string(kSysfsPmuRoot) + "/" + pmu + "/events", &names) < 0) {
      continue;  // most PMUs (software, tracepoint, ...) declare no events
    }
    SysfsPmuEvents entry{pmu, {}};
    for (std::string &name : names) {
      // "<event>.scale", ".unit", ".snapshot", ".per-pkg" describe an event; they are not ones.
      if (name.find('.') == std::string::npos) entry.events.push_back(std::move(name));
    }
    if (entry.events.empty()) continue;
    std::sort(entry.events.begin(), entry.events.end());
    listed.push_back(std::move(entry));
  }
  return listed;
}

Status EncodeSysfsPmuEvent(const std::string &name, perf_event_attr *attr) {
  size_t slash = name.find('/');
  if (slash == std::string::npos) {
    return Status(Pmapi_InvalidEvent, "event " + name + ": not of the form pmu/event");
  }
  std::string pmu_dir = std::string(kSysfsPmuRoot) + "/" + name.substr(0, slash);
  std::string text;
  Status status = ReadSysfs(pmu_dir + "/type", &text, name);
  if (!status.ok()) return status;
  uint64_t type = 0;
  if (!ParseNumber(text, &type)) {
    return Status(Pmapi_InvalidEvent, "event " + name + ": bad PMU type '" + text + "'");
  }
  std::string terms;
  status = ReadSysfs(pmu_dir + "/events/" + name.substr(slash + 1), &terms, name);
  if (!status.ok()) return status;

  perf_event_attr encoded;
  memset(&encoded, 0, sizeof encoded);
  encoded.type = static_cast<uint32_t>(type);
  size_t start = 0;
  while (start < terms.size()) {
    size_t comma = terms.find(',', start);
    std::string term = terms.substr(start, comma - start);
    start = comma == std::string::npos ? terms.size() : comma + 1;
    if (term.empty()) continue;
    size_t equals = term.find('=');
    std::string key = term.substr(0, equals);
    uint64_t value = 1;  // a bare term means "set"
    if (equals != std::string::npos) {
      std::string value_text = term.substr(equals + 1);
      if (!ParseNumber(value_text, &value)) {
        return Status(Pmapi_InvalidEvent, "event " + name + ": term '" + term +
                                              "' needs a value libpmapi cannot supply");
      }
    }
    std::string format;
    status = ReadSysfs(pmu_dir + "/format/" + key, &format, name);
    if (!status.ok()) return status;
    status = PlaceTerm(format, value, &encoded, "event " + name + " term " + key);
    if (!status.ok()) return status;
  }
  attr->type = encoded.type;
  attr->config = encoded.config;
  attr->config1 = encoded.config1;
  attr->config2 = encoded.config2;
  return Status::Ok();
}

void AddSysfsPmuEvents(const std::vector<SysfsPmuEvents> &pmus, StatusProbe *probe,
                       std::vector<CatalogEvent> *events) {
  int id = kFirstSysfsPmuId;
  for (const SysfsPmuEvents &pmu : pmus) {
    ProbeResult result;
    std::string error;
    for (const std::string &name : pmu.events) {
      perf_event_attr attr;
      memset(&attr, 0, sizeof attr);
      Status status = EncodeSysfsPmuEvent(pmu.pmu + "/" + name, &attr);
      if (status.ok()) {
        result = probe->Accepts(attr);
        error.clear();
        break;
      }
      if (error.empty()) error = status.detail();
    }
    for (const std::string &name : pmu.events) {
      CatalogEvent event;
      event.id = id++;
      event.short_name = pmu.pmu + "/" + name;
      event.long_name = name + " (kernel PMU " + pmu.pmu + ")";
      event.description =
          "Event " + name + " that the kernel's " + pmu.pmu + " PMU driver declares in sysfs.";
      event.encoding = event.short_name;
      event.source = EventSource::kSysfsPmu;
      if (error.empty()) {
        event.status = StatusFromProbe(result, false);
        AppendNote(&event.description, ProbeNote(result));
      } else {
        event.status = EventStatus::kUnverified;
        AppendNote(&event.description, "(not countable here: " + error + ")");
      }
      events->push_back(std::move(event));
    }
  }
}

}  // namespace pmapi
