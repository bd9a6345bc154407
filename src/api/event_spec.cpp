// SPDX-License-Identifier: MIT
#include "api/event_spec.h"

namespace pmapi {
namespace {

// One privilege modifier, applied to the running choice. Returns false if `token` is not one.
// `set_*`: the mode was named with =1 or a letter; `cleared_*`: named with =0.
struct ModeChoice {
  bool letters = false;  // u/k/h letters or =1 seen
  bool user = false, kernel = false, hypervisor = false;
  bool user_off = false, kernel_off = false, hypervisor_off = false;

  bool &On(char level) { return level == 'u' ? user : level == 'k' ? kernel : hypervisor; }
  bool &Off(char level) {
    return level == 'u' ? user_off : level == 'k' ? kernel_off : hypervisor_off;
  }
};

bool IsLevel(char c) { return c == 'u' || c == 'k' || c == 'h'; }

bool ApplyModifier(const std::string &token, ModeChoice *choice) {
  if (token.size() == 3 && IsLevel(token[0]) && token[1] == '=' &&
      (token[2] == '0' || token[2] == '1')) {
    if (token[2] == '1') {
      choice->letters = true;
      choice->On(token[0]) = true;
    } else {
      choice->Off(token[0]) = true;
    }
    return true;
  }
  if (token.empty() || token.size() > 3) return false;
  for (size_t i = 0; i < token.size(); ++i) {
    if (!IsLevel(token[i]) || token.find(token[i]) != i) return false;
  }
  choice->letters = true;
  for (char c : token) choice->On(c) = true;
  return true;
}

// Resolves the choice into the spec's mode; "" or what is wrong.
std::string Finish(const ModeChoice &choice, const std::string &text, EventSpec *spec) {
  if (!choice.letters && !choice.user_off && !choice.kernel_off && !choice.hypervisor_off) {
    return "";
  }
  spec->has_mode = true;
  // Letters select exactly what they name; "=0" alone removes a level from all of them.
  spec->user = choice.letters ? choice.user : true;
  spec->kernel = choice.letters ? choice.kernel : true;
  spec->hypervisor = choice.letters ? choice.hypervisor : true;
  if (choice.user_off) spec->user = false;
  if (choice.kernel_off) spec->kernel = false;
  if (choice.hypervisor_off) spec->hypervisor = false;
  if (!spec->user && !spec->kernel && !spec->hypervisor) {
    return "event '" + text + "' excludes every privilege level: it would count nothing";
  }
  if (!spec->user && !spec->kernel && !choice.letters) {
    return "event '" + text + "' excludes both user and kernel mode: it would count nothing";
  }
  return "";
}

}  // namespace

std::string ParseEventSpec(const std::string &text, EventSpec *spec) {
  EventSpec out;
  out.text = text;
  if (text.empty()) return "an empty event name (two commas, or a comma at an end?)";
  if (text.find_first_of(" \t\n\r|") != std::string::npos) {
    return "event '" + text + "' contains a blank or '|', which no event name has";
  }
  ModeChoice choice;
  std::string name = text;
  const size_t first_slash = name.find('/');
  const size_t last_slash = name.rfind('/');
  if (first_slash != std::string::npos && last_slash != first_slash &&
      last_slash + 1 < name.size() && name.find(':', last_slash) == std::string::npos) {
    // "pmu/event/uk": modifiers written as letters after the closing slash.
    const std::string letters = name.substr(last_slash + 1);
    if (!ApplyModifier(letters, &choice)) {
      return "event '" + text + "': '" + letters +
             "' after the closing '/' is not u, k, h or a combination";
    }
    name.erase(last_slash + 1);
  } else {
    // Take privilege modifiers off the end: "x:u", "x:u=1:k=0".
    while (true) {
      const size_t colon = name.rfind(':');
      if (colon == std::string::npos) break;
      // "pmu::EVENT": the double colon separates the PMU, not a modifier.
      if (colon > 0 && name[colon - 1] == ':') break;
      const std::string token = name.substr(colon + 1);
      if (token.empty()) return "event '" + text + "' ends in ':' with no modifier after it";
      if (!ApplyModifier(token, &choice)) break;
      name.erase(colon);
    }
  }
  if (name.empty() || name == "/" || name[0] == ':') {
    return "event '" + text + "' has modifiers but no event name";
  }
  out.name = name;
  std::string error = Finish(choice, text, &out);
  if (!error.empty()) return error;
  *spec = std::move(out);
  return "";
}

std::string ParseEventList(const std::string &list, std::vector<EventSpec> *specs) {
  std::vector<EventSpec> out;
  std::string current;
  int slashes = 0;
  for (size_t i = 0; i <= list.size(); ++i) {
    const bool end = i == list.size();
    if (!end && list[i] == '/') ++slashes;
    // A comma inside perf's term list ("cpu/event=0x3c,umask=1/") does not split: after an
    // odd slash whose text holds a '=' the list is open. "msr/tsc,x" has no term: it splits.
    const bool in_terms =
        slashes % 2 == 1 && current.find('=', current.rfind('/')) != std::string::npos;
    if (end || (list[i] == ',' && !in_terms)) {
      EventSpec spec;
      std::string error = ParseEventSpec(current, &spec);
      if (!error.empty()) return error;
      out.push_back(std::move(spec));
      current.clear();
      slashes = 0;
      continue;
    }
    current.push_back(list[i]);
  }
  specs->insert(specs->end(), out.begin(), out.end());
  return "";
}

std::string CatalogSpelling(const std::string &name) {
  const size_t slash = name.find('/');
  // Only "pmu/event/": a term list ("pmu/event=0x3c,umask=1/") has no catalog spelling.
  if (slash != std::string::npos && slash > 0 && name.size() > slash + 2 && name.back() == '/' &&
      name.find('/', slash + 1) == name.size() - 1 &&
      name.find_first_of("=,", slash) == std::string::npos) {
    return name.substr(0, name.size() - 1);
  }
  return name;
}

bool SplitPfmAttributes(const std::string &name, std::string *event,
                        std::vector<std::string> *attributes) {
  size_t start = 0;
  const size_t pmu_end = name.find("::");
  if (pmu_end != std::string::npos) {
    if (pmu_end == 0) return false;
    start = pmu_end + 2;
  }
  if (name.find('/') != std::string::npos) return false;
  std::vector<std::string> parts;
  size_t begin = start;
  while (true) {
    const size_t colon = name.find(':', begin);
    const std::string part = name.substr(begin, colon == std::string::npos ? colon : colon - begin);
    if (part.empty()) return false;
    parts.push_back(part);
    if (colon == std::string::npos) break;
    begin = colon + 1;
  }
  *event = name.substr(0, start) + parts[0];
  attributes->assign(parts.begin() + 1, parts.end());
  return true;
}

}  // namespace pmapi
