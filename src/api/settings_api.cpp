// SPDX-License-Identifier: MIT
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
    return pmapi::Report(pmapi::SettingText(name, value));
  });
}

}  // extern "C"
