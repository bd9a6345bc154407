// SPDX-License-Identifier: MIT
// libFuzzer target: the derived-metric formula parser and evaluator
// (src/catalog/group_formula.h). The first bytes give the member values and the time; the rest
// is the formula, over three fixed member names, with the repeat notation of fuzz_repeat.h (so
// that "\x7f200000\x7f(\x7f" nests 200,000 deep). Parse must return "" or a message, and a
// parsed formula must evaluate (to any double, NaN included) without crashing.
#include <fuzzer/FuzzedDataProvider.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "catalog/group_formula.h"
#include "fuzz_repeat.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider input(data, size);
  const std::vector<std::string> members = {"PM_CYC", "task-clock", "syscalls:sys_enter_read"};
  std::vector<double> values;
  for (size_t i = 0; i < members.size(); ++i)
    values.push_back(input.ConsumeFloatingPoint<double>());
  const double seconds = input.ConsumeFloatingPoint<double>();
  const std::string text = pmapi_fuzz::ExpandRepeats(input.ConsumeRemainingBytesAsString());
  pmapi::Formula formula;
  const std::string error = pmapi::Formula::Parse(text, members, &formula);
  if (error.empty()) (void)formula.Evaluate(values, seconds);
  return 0;
}
