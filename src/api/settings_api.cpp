// The pmapi_settings.h extension's C entry points: the settings value lives in src/base.
#include "api/c_boundary.h"
#include "base/settings.h"

#pragma GCC visibility push(default)
#include "pmapi_settings.h"
#pragma GCC visibility pop

extern "C" {

int pm_set_setting(const char *name, const char *value) {
  return pmapi::Guarded([&] {
    if (!name) return pmapi::Report(Pmapi_InvalidArg, "the setting's name is NULL");
    return pmapi::Report(pmapi::SetSetting(name, value));
  });
}

int pm_get_setting(const char *name, const char **value) {
  return pmapi::Guarded([&] {
    if (!name) return pmapi::Report(Pmapi_InvalidArg, "the setting's name is NULL");
    if (!value) return pmapi::Report(Pmapi_InvalidArg, "value is NULL");
    const char *text = pmapi::SettingText(name);
    if (!text) {
      return pmapi::Report(pmapi::Status(
          Pmapi_InvalidArg, {"'", name, "' is not a setting; docs/settings.md lists them"}));
    }
    *value = text;
    return 0;
  });
}

}  // extern "C"
