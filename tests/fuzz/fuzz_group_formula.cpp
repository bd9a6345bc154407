// libFuzzer target: the derived-metric formula parser and evaluator
// (src/catalog/group_formula.h). The first bytes give the member values and the time; the rest
// is the formula, over three fixed member names. Parse must return "" or a message, and a parsed
// formula must evaluate (to any double, NaN included) without crashing.
#include <fuzzer/FuzzedDataProvider.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "catalog/group_formula.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider input(data, size);
  const std::vector<std::string> members = {"PM_CYC", "task-clock", "syscalls:sys_enter_read"};
  std::vector<double> values;
  for (size_t i = 0; i < members.size(); ++i)
    values.push_back(input.ConsumeFloatingPoint<double>());
  const double seconds = input.ConsumeFloatingPoint<double>();
  const std::string text = input.ConsumeRemainingBytesAsString();
  pmapi::Formula formula;
  const std::string error = pmapi::Formula::Parse(text, members, &formula);
  if (error.empty()) (void)formula.Evaluate(values, seconds);
  return 0;
}
