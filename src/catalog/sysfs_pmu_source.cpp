// SPDX-License-Identifier: MIT
// The kernel PMUs' sysfs events: listing, encoding and their source descriptor, and the ARMv8
// PMU's declared events, by which raw ARM encodings are judged. All reads through the kernel
// seam.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>

#include "base/kernel.h"
#include "catalog/event_sources.h"
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

// ARMv8: the event number field of the armv8_pmuv3 driver (format/event: config:0-15).
constexpr uint64_t kEventNumberMask = 0xffff;
// Common architectural and microarchitectural events are numbered below this; their
// PMCEID0/1 bits say whether the processor implements each, and the kernel shows just those.
constexpr uint64_t kCommonEventLimit = 0x40;
constexpr const char *kLacksMarker = "(not countable here: the processor's PMU does not implement ";

bool StartsWith(const std::string &text, const char *prefix) { return text.rfind(prefix, 0) == 0; }

// "event=0x0008\n" -> 8; false for anything else.
bool ParseEventTerm(const std::string &text, uint64_t *number) {
  const std::string key = "event=";
  if (!StartsWith(text, key.c_str())) return false;
  char *end = nullptr;
  *number = strtoull(text.c_str() + key.size(), &end, 0);
  return end != text.c_str() + key.size() && (*end == '\0' || *end == '\n' || *end == ',');
}

std::string EventNumberText(uint64_t number) {
  char text[24];
  snprintf(text, sizeof text, "0x%02llx", static_cast<unsigned long long>(number));
  return text;
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

namespace {

// Encodes "<pmu>/<event>": the PMU's `type` file, the event's terms ("event=0x3c,umask=1")
// placed into config/config1/config2 as the PMU's format/ files say.
Status EncodeSysfsPmuEvent(const std::string & /*tracefs_root*/, const std::string &name,
                           perf_event_attr *attr) {
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

// Catalog events for the listed PMUs, ids from kFirstSysfsPmuId. One probe per PMU (its first
// event that encodes) decides the status of all its events.
void EnumerateSysfsPmus(SourceScan *scan, StatusProbe *probe, std::vector<CatalogEvent> *events) {
  const std::vector<SysfsPmuEvents> &pmus = scan->sysfs_pmus;
  int id = kFirstSysfsPmuId;
  for (const SysfsPmuEvents &pmu : pmus) {
    ProbeResult result;
    std::string error;
    for (const std::string &name : pmu.events) {
      perf_event_attr attr;
      memset(&attr, 0, sizeof attr);
      Status status = EncodeSysfsPmuEvent("", pmu.pmu + "/" + name, &attr);
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

std::string DetectSysfsPmus() {
  std::vector<std::string> pmus;
  const int err = CurrentKernel().ListDirectory(kSysfsPmuRoot, &pmus);
  return err < 0 ? std::string("cannot list ") + kSysfsPmuRoot + ": " + strerror(-err) : "";
}

}  // namespace

const EventSourceDriver kSysfsPmuSource{"sysfs", kFirstSysfsPmuId, EnumerateSysfsPmus,
                                        EncodeSysfsPmuEvent, DetectSysfsPmus};

ArmPmuEvents ListArmPmuEvents(const std::vector<SysfsPmuEvents> &pmus) {
  ArmPmuEvents arm;
  Kernel &kernel = CurrentKernel();
  for (const SysfsPmuEvents &pmu : pmus) {
    if (!StartsWith(pmu.pmu, "armv8_")) continue;
    const std::string dir = std::string(kSysfsPmuRoot) + "/" + pmu.pmu;
    std::string text;
    if (kernel.ReadFile(dir + "/type", &text) < 0) continue;
    arm.types.insert(static_cast<uint32_t>(strtoul(text.c_str(), nullptr, 0)));
    if (arm.pmu.empty()) arm.pmu = pmu.pmu;
    for (const std::string &name : pmu.events) {
      uint64_t number = 0;
      if (kernel.ReadFile(dir + "/events/" + name, &text) >= 0 && ParseEventTerm(text, &number)) {
        arm.implemented.insert(number & kEventNumberMask);
      }
    }
  }
  if (!arm.pmu.empty()) arm.types.insert(PERF_TYPE_RAW);
  return arm;
}

void JudgeArmEvent(const ArmPmuEvents &arm, const perf_event_attr &attr, CatalogEvent *event) {
  if (arm.pmu.empty() || event->status == EventStatus::kUnverified) return;
  if (arm.types.count(attr.type) == 0) return;
  const uint64_t number = attr.config & kEventNumberMask;
  if (arm.implemented.count(number) != 0) return;
  const std::string where = "/sys/bus/event_source/devices/" + arm.pmu + "/events";
  if (number < kCommonEventLimit) {
    event->status = EventStatus::kUnverified;
    AppendNote(&event->description, std::string(kLacksMarker) + "common event " +
                                        EventNumberText(number) +
                                        "; its PMCEID registers leave it out of " + where +
                                        ", and the kernel would count it as 0)");
  } else {
    event->status = EventStatus::kCaveat;
    AppendNote(&event->description,
               "(implementation-defined event " + EventNumberText(number) +
                   ": the PMU declares only common events in " + where +
                   ", so whether this processor implements it is not known; it counts 0 if not)");
  }
}

bool PmuLacksEvent(const CatalogEvent &event, std::string *why) {
  if (event.status != EventStatus::kUnverified) return false;
  const size_t at = event.description.rfind(kLacksMarker);
  if (at == std::string::npos) return false;
  const size_t start = at + strlen("(not countable here: ");
  *why = event.description.substr(start);
  if (!why->empty() && why->back() == ')') why->pop_back();
  return true;
}

}  // namespace pmapi
