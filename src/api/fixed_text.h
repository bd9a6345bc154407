// SPDX-License-Identifier: MIT
// A string copied into one of the public structs' fixed char arrays: cut to fit, always ended by
// a NUL, so that a long name never overruns the client's struct.
#pragma once

#include <string.h>

#include <string>

namespace pmapi {

template <size_t N>
void CopyFixed(char (&to)[N], const std::string &from) {
  const size_t n = from.size() < N - 1 ? from.size() : N - 1;
  memcpy(to, from.data(), n);
  to[n] = '\0';
}

}  // namespace pmapi
