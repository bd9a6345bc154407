/* SPDX-License-Identifier: MIT */
// The name of an enum value, from a table in the enum's declaration order: the parameter names of
// the value-parameterized tests (which are part of their ctest names, so a table may only grow).
#pragma once

#include <cstddef>

namespace pmapi_test {

template <typename Enum, size_t N>
const char *EnumName(Enum value, const char *const (&names)[N]) {
  const size_t index = static_cast<size_t>(value);
  return index < N ? names[index] : "?";
}

}  // namespace pmapi_test
