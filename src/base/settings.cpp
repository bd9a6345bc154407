// SPDX-License-Identifier: MIT
// The one reader of the library's environment variables (settings.h), and the one place that
// changes the settings they give.
#include "base/settings.h"

#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <mutex>

#include "pmapi.h"

extern char **environ;

namespace pmapi {
namespace {

// One variable a client may set: its name and the field it fills, a string or a switch.
struct Entry {
  const char *name;
  std::string Settings::*text;
  bool Settings::*on;
};

constexpr Entry kEntries[] = {
    {kEventsDirVariable, &Settings::events_dir, nullptr},
    {kGroupsDirVariable, &Settings::groups_dir, nullptr},
    {kTracepointPatternsVariable, &Settings::list_tracepoints, nullptr},
    {kNoCacheVariable, nullptr, &Settings::no_cache},
    {kNoForkCounterVariable, nullptr, &Settings::no_fork_counter},
    {kNoAnchorsVariable, nullptr, &Settings::no_tracepoint_anchors},
    {kNoUserSpaceReadVariable, nullptr, &Settings::no_userspace_read},
    {kMpiEventsVariable, &Settings::mpi_events, nullptr},
    {kMpiOutputVariable, &Settings::mpi_output, nullptr},
};

const Entry *FindEntry(const char *name) {
  if (!name) return nullptr;
  for (const Entry &entry : kEntries) {
    if (strcmp(entry.name, name) == 0) return &entry;
  }
  return nullptr;
}

void Apply(const Entry &entry, const char *value, Settings *settings) {
  if (entry.text) {
    settings->*entry.text = value ? value : "";
  } else {
    settings->*entry.on = value && *value && strcmp(value, "0") != 0;
  }
}

Settings FromEnvironment() {
  Settings settings;
  for (const Entry &entry : kEntries) Apply(entry, getenv(entry.name), &settings);
  const char *runtime_dir = getenv("XDG_RUNTIME_DIR");
  settings.runtime_dir = runtime_dir ? runtime_dir : "";
  const char *temp_dir = getenv("TMPDIR");
  settings.temp_dir = temp_dir ? temp_dir : "";
  for (char **variable = environ; variable && *variable; ++variable) {
    if (strncmp(*variable, "LIBPFM_", 7) == 0) settings.libpfm_variables = true;
  }
  return settings;
}

bool SameSettings(const Settings &a, const Settings &b) {
  return a.events_dir == b.events_dir && a.groups_dir == b.groups_dir &&
         a.list_tracepoints == b.list_tracepoints && a.no_cache == b.no_cache &&
         a.no_fork_counter == b.no_fork_counter &&
         a.no_tracepoint_anchors == b.no_tracepoint_anchors &&
         a.no_userspace_read == b.no_userspace_read && a.mpi_events == b.mpi_events &&
         a.mpi_output == b.mpi_output && a.runtime_dir == b.runtime_dir &&
         a.temp_dir == b.temp_dir && a.libpfm_variables == b.libpfm_variables;
}

// A published value never changes and is never freed, so that a reader holds it without a
// lock and a reference or string it got stays valid until exit. A change that gives a value
// published before publishes that one again: the store holds each distinct value once, however
// often a program switches between them.
struct Published {
  Settings settings;
  const Published *older;  // the store, newest first; the environment's value is the oldest
};

const Published &FromTheEnvironment() {
  static const Published *read = new Published{FromEnvironment(), nullptr};  // once, thread-safe
  return *read;
}

std::mutex g_change_mutex;            // one change at a time; readers never take it
const Published *g_newest = nullptr;  // the store's newest value (g_change_mutex)
std::atomic<const Published *> g_changed{nullptr};

const Published &InForce() {
  const Published *changed = g_changed.load(std::memory_order_acquire);
  return changed ? *changed : FromTheEnvironment();
}

void Publish(const std::function<void(Settings *)> &change) {
  std::lock_guard<std::mutex> lock(g_change_mutex);
  Settings next = InForce().settings;
  change(&next);
  if (!g_newest) g_newest = &FromTheEnvironment();
  for (const Published *stored = g_newest; stored; stored = stored->older) {
    if (SameSettings(stored->settings, next)) {
      g_changed.store(stored, std::memory_order_release);
      return;
    }
  }
  g_newest = new Published{std::move(next), g_newest};
  g_changed.store(g_newest, std::memory_order_release);
}

Status NotASetting(const char *name) {
  return Status(Pmapi_InvalidArg, {"'", name ? name : "(null)",
                                   "' is not a setting; " PMAPI_DOC_DIR "/settings.md lists them"});
}

}  // namespace

const Settings &CurrentSettings() { return InForce().settings; }

Status SetSetting(const char *name, const char *value) {
  const Entry *entry = FindEntry(name);
  if (!entry) return NotASetting(name);
  Publish([&](Settings *settings) {
    if (value) {
      Apply(*entry, value, settings);
    } else if (entry->text) {
      settings->*entry->text = FromTheEnvironment().settings.*entry->text;
    } else {
      settings->*entry->on = FromTheEnvironment().settings.*entry->on;
    }
  });
  return Status::Ok();
}

Status SettingText(const char *name, const char **text) {
  const Entry *entry = FindEntry(name);
  if (!entry) return NotASetting(name);
  const Settings &settings = CurrentSettings();
  *text = entry->text ? (settings.*entry->text).c_str() : settings.*entry->on ? "1" : "0";
  return Status::Ok();
}

void ChangeSettings(const std::function<void(Settings *)> &change) { Publish(change); }

size_t StoredSettingsValues() {
  std::lock_guard<std::mutex> lock(g_change_mutex);
  size_t values = 0;
  for (const Published *stored = g_newest ? g_newest : &FromTheEnvironment(); stored;
       stored = stored->older) {
    ++values;
  }
  return values;
}

void RestoreSettingsFromEnvironment() {
  Publish([](Settings *settings) { *settings = FromTheEnvironment().settings; });
}

}  // namespace pmapi
