/* SPDX-License-Identifier: MIT */
// A pprof profile (profile.proto, gzipped) built in memory from samples whose stacks are
// symbolized PCs, for `go tool pprof` and every viewer that reads its format.
//
// Usage: make a PprofWriter with the sample value types, turn each PC into a location id with
// LocationFor (one Symbolizer per address space; ids are cached per symbolizer and PC), add the
// samples, then Write. Not thread-safe; nothing here throws except std::bad_alloc.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fuchsia_common/symbolizer.h"

namespace fuchsia_common {

// A sample value's meaning, e.g. {"samples", "count"} or {"cpu", "nanoseconds"}.
struct ValueType {
  std::string type;
  std::string unit;
};

// A sample's label: a string (str non-empty) or a number (num, with an optional unit).
struct Label {
  std::string key;
  std::string str;
  int64_t num = 0;
  std::string num_unit;
};

class PprofWriter {
 public:
  // sample_types: one value per sample for each entry, in this order (at least one).
  // period_type/period: what one sample stands for (e.g. {"cpu","nanoseconds"}, 100000).
  PprofWriter(std::vector<ValueType> sample_types, ValueType period_type, int64_t period);

  // The location of `pc` in the address space `symbolizer` describes. return_address: the PC
  // came from a stack walk (a frame's return address, not the sampled instruction), so its line
  // is that of the call: the symbolizer is asked about pc - 1; the location keeps `pc`.
  // A PC without a symbol gets a function named "<module>+0x<offset>", or "0x<pc>" outside
  // every known module.
  uint64_t LocationFor(Symbolizer& symbolizer, uint64_t pc, bool return_address);

  // A location made by hand (tests, synthetic frames such as "pid: 12"): one function name,
  // optional file and line, no mapping.
  uint64_t SyntheticLocation(const std::string& function, const std::string& file = "",
                             int64_t line = 0);

  // One sample: its stack innermost first, one value per sample type, optional labels.
  void AddSample(const std::vector<uint64_t>& locations_leaf_first,
                 const std::vector<int64_t>& values, const std::vector<Label>& labels = {});

  void SetTimes(int64_t time_nanos, int64_t duration_nanos);
  void AddComment(const std::string& comment);

  size_t sample_count() const { return samples_.size(); }

  // The serialized Profile message, uncompressed (tests) or gzipped (what pprof reads).
  std::string Serialize() const;
  // Writes the gzipped profile to `path`; false with *error set on failure.
  bool WriteGzipped(const std::string& path, std::string* error) const;

 private:
  struct Sample {
    std::vector<uint64_t> locations;
    std::vector<int64_t> values;
    std::vector<Label> labels;
  };
  struct Mapping {
    uint64_t start, limit, offset;
    int64_t filename, build_id;
    bool has_functions, has_lines;
  };
  struct Line {
    uint64_t function_id;
    int64_t line;
  };
  struct Location {
    uint64_t mapping_id, address;
    std::vector<Line> lines;
  };
  struct Function {
    int64_t name, filename;
  };

  int64_t Intern(const std::string& s);
  uint64_t FunctionId(const std::string& name, const std::string& file);
  uint64_t MappingId(const Symbol& symbol);

  std::vector<ValueType> sample_types_;
  ValueType period_type_;
  int64_t period_;
  int64_t time_nanos_ = 0, duration_nanos_ = 0;
  std::vector<int64_t> comments_;
  std::vector<std::string> strings_;
  std::map<std::string, int64_t> string_ids_;
  std::vector<Mapping> mappings_;
  std::map<std::string, uint64_t> mapping_ids_;  // by module path
  std::vector<Location> locations_;
  struct LocationKey {
    const Symbolizer* symbolizer;
    uint64_t pc;
    bool return_address;
    bool operator==(const LocationKey& o) const {
      return symbolizer == o.symbolizer && pc == o.pc && return_address == o.return_address;
    }
  };
  struct LocationKeyHash {
    size_t operator()(const LocationKey& k) const {
      return std::hash<uint64_t>()(k.pc * 31 + reinterpret_cast<uintptr_t>(k.symbolizer) * 2 +
                                   k.return_address);
    }
  };
  // Looked up for every frame of every sample: hashed, not ordered.
  std::unordered_map<LocationKey, uint64_t, LocationKeyHash> location_ids_;
  std::vector<Function> functions_;
  std::map<std::pair<int64_t, int64_t>, uint64_t> function_ids_;
  std::vector<Sample> samples_;
};

// gzip (RFC 1952) of `data` at the default level; false with *error set if zlib fails.
bool Gzip(const std::string& data, std::string* out, std::string* error);

}  // namespace fuchsia_common
