// SPDX-License-Identifier: MIT
#include "session_spec.h"

#include <math.h>
#include <stdlib.h>

#include "lib/perfmon/events.h"
#include "pmapi_catalog.h"

namespace cpuperf {
namespace {

constexpr struct {
  const char *name;
  uint32_t flag;
} kFlags[] = {{"os", PERFMON_FLAG_COLLECT_OS},
              {"user", PERFMON_FLAG_COLLECT_USER},
              {"pc", PERFMON_FLAG_COLLECT_PC},
              {"timebase", PERFMON_FLAG_IS_TIMEBASE},
              {"last_branch", PERFMON_FLAG_COLLECT_LAST_BRANCH}};

// Why a number-like value JSON does not have is refused, after the field's range.
std::string NotJson(const Json *value) {
  if (value->type != Json::Type::kBadNumber) return "";
  return " (" + value->text + " is not a number in JSON, which has no NaN, Infinity or hex)";
}

std::string Integer(const Json *value, const std::string &field, uint64_t min, uint64_t max,
                    uint64_t *out) {
  if (value->type != Json::Type::kNumber || !value->integral || value->number < double(min) ||
      value->number > double(max)) {
    return field + ": must be an integer from " + std::to_string(min) + " to " +
           std::to_string(max) + NotJson(value);
  }
  *out = static_cast<uint64_t>(value->number);
  return "";
}

std::string Text(const Json *value, const std::string &field, std::string *out) {
  if (value->type != Json::Type::kString) return field + ": must be a string";
  *out = value->text;
  return "";
}

std::string ReadEvent(const Json &item, const std::string &field, EventSpec *event) {
  if (item.type != Json::Type::kObject) return field + ": must be an object";
  for (const auto &member : item.members) {
    const std::string name = field + "." + member.first;
    const Json *value = &member.second;
    std::string error;
    if (member.first == "group_name") {
      error = Text(value, name, &event->group);
    } else if (member.first == "event_name") {
      error = Text(value, name, &event->name);
    } else if (member.first == "rate") {
      uint64_t rate = 0;
      error = Integer(value, name, 0, UINT32_MAX, &rate);
      event->rate = static_cast<uint32_t>(rate);
    } else if (member.first == "flags") {
      if (value->type != Json::Type::kArray) return name + ": must be an array of flag names";
      for (size_t i = 0; i < value->items.size(); ++i) {
        uint32_t flag = 0;
        if (value->items[i].type != Json::Type::kString ||
            !FlagByName(value->items[i].text, &flag)) {
          return name + "[" + std::to_string(i) +
                 "]: not a flag (os, user, pc, timebase, last_branch)";
        }
        event->flags |= flag;
      }
    } else {
      return name + ": not a field of an event";
    }
    if (!error.empty()) return error;
  }
  if (event->group.empty()) return field + ".group_name: missing";
  if (event->name.empty()) return field + ".event_name: missing";
  return "";
}

}  // namespace

bool FlagByName(const std::string &name, uint32_t *flag) {
  for (const auto &entry : kFlags) {
    if (name == entry.name) {
      *flag = entry.flag;
      return true;
    }
  }
  return false;
}

std::string ReadSpec(const Json &document, SessionSpec *spec) {
  if (document.type != Json::Type::kObject) return "the spec: must be a JSON object";
  for (const auto &member : document.members) {
    const std::string &field = member.first;
    const Json *value = &member.second;
    std::string error;
    uint64_t number = 0;
    if (field == "config_name") {
      error = Text(value, field, &spec->config_name);
    } else if (field == "model_name") {
      error = Text(value, field, &spec->model_name);
    } else if (field == "events") {
      if (value->type != Json::Type::kArray) return "events: must be an array";
      if (value->items.size() > PERFMON_MAX_NUM_EVENTS) {
        return "events: at most " + std::to_string(PERFMON_MAX_NUM_EVENTS) + " events";
      }
      spec->events.clear();
      for (size_t i = 0; i < value->items.size(); ++i) {
        EventSpec event;
        error = ReadEvent(value->items[i], "events[" + std::to_string(i) + "]", &event);
        if (!error.empty()) return error;
        spec->events.push_back(event);
      }
    } else if (field == "buffer_size_in_mb") {
      error = Integer(value, field, 1, PERFMON_MAX_BUFFER_PAGES / 256, &number);
      spec->buffer_size_in_mb = static_cast<uint32_t>(number);
    } else if (field == "duration") {
      if (value->type != Json::Type::kNumber || !(value->number > 0) || value->number > 86400) {
        return "duration: must be a number of seconds above 0 (at most a day)" + NotJson(value);
      }
      spec->duration = value->number;
    } else if (field == "num_iterations") {
      error = Integer(value, field, 1, 1000000, &number);
      spec->num_iterations = static_cast<uint32_t>(number);
    } else if (field == "output_path_prefix") {
      error = Text(value, field, &spec->output_path_prefix);
    } else if (field == "session_result_spec_path") {
      error = Text(value, field, &spec->session_result_spec_path);
    } else {
      return field + ": not a field of a session spec";
    }
    if (!error.empty()) return error;
  }
  return "";
}

std::string ParseEventArgument(const std::string &text, EventSpec *event) {
  std::string rest = text;
  size_t slash = rest.find('/');
  if (slash != std::string::npos) {
    std::string flags = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
    size_t start = 0;
    while (start <= flags.size()) {
      size_t plus = flags.find_first_of("+,", start);
      std::string name =
          flags.substr(start, plus == std::string::npos ? std::string::npos : plus - start);
      uint32_t flag = 0;
      if (!FlagByName(name, &flag)) {
        return "event " + text + ": '" + name +
               "' is not a flag (os, user, pc, timebase, last_branch)";
      }
      event->flags |= flag;
      if (plus == std::string::npos) break;
      start = plus + 1;
    }
  }
  size_t at = rest.rfind('@');
  if (at != std::string::npos) {
    const char *digits = rest.c_str() + at + 1;
    char *end = nullptr;
    unsigned long long rate = strtoull(digits, &end, 10);
    if (end == digits || *end != '\0' || rate > UINT32_MAX || *digits == '-') {
      return "event " + text + ": the rate after '@' must be an integer from 0 to 4294967295";
    }
    event->rate = static_cast<uint32_t>(rate);
    rest = rest.substr(0, at);
  }
  size_t colon = rest.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == rest.size()) {
    return "event " + text + ": must be GROUP:NAME[@RATE][/FLAGS]";
  }
  event->group = rest.substr(0, colon);
  event->name = rest.substr(colon + 1);
  return "";
}

// Why tracepoints may be hidden from this user (tracefs closed or not mounted), or "": the
// library's one sentence, through its catalog search (pmapi_catalog.h). The lookup before it
// made the library ready, in the one engine libperfmon shares; if it could not, no hint.
static std::string TracepointsHidden(const std::string &name) {
  pm_catalog_suggestions_t found;
  if (pm_catalog_suggest(name.c_str(), PM_CATALOG_HIDDEN_ANY | PM_CATALOG_NAMES_ONLY, &found) != 0)
    return "";
  return found.hidden;
}

std::string ResolveEvents(SessionSpec *spec) {
  if (spec->events.empty()) return "events: none given (a spec's \"events\" or -e)";
  for (size_t i = 0; i < spec->events.size(); ++i) {
    EventSpec &event = spec->events[i];
    zx_status_t status = perfmon_lookup_event(event.group.c_str(), event.name.c_str(), &event.id);
    const std::string field = "events[" + std::to_string(i) + "]";
    if (status == ZX_ERR_INVALID_ARGS) {
      return field + ".group_name: '" + event.group +
             "' is not a group (fixed, arch, model, misc, linux, tracepoint)";
    }
    if (status != ZX_OK) {
      const std::string hidden = event.group == "tracepoint" ? TracepointsHidden(event.name) : "";
      if (!hidden.empty()) return field + ".event_name: " + event.FullName() + ": " + hidden;
      return field + ".event_name: this machine has no event " + event.FullName() +
             " (cpuperf --list-events)";
    }
  }
  return "";
}

perfmon_config_t MakeConfig(const SessionSpec &spec) {
  perfmon_config_t config{};
  for (size_t i = 0; i < spec.events.size() && i < PERFMON_MAX_NUM_EVENTS; ++i) {
    config.events[i] = {spec.events[i].id, spec.events[i].rate, spec.events[i].flags};
  }
  return config;
}

}  // namespace cpuperf
