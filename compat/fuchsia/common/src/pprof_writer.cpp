// SPDX-License-Identifier: MIT
// profile.proto from the tables PprofWriter keeps: strings, mappings, functions and
// locations are interned once; samples refer to locations by id.
#include "fuchsia_common/pprof_writer.h"

#include <cinttypes>
#include <cstdio>
#include <fstream>

#include "proto_encoder.h"

namespace fuchsia_common {
namespace {

// Field numbers of profile.proto (github.com/google/pprof/proto/profile.proto).
enum ProfileField {
  kSampleType = 1,
  kSample = 2,
  kMapping = 3,
  kLocation = 4,
  kFunction = 5,
  kStringTable = 6,
  kTimeNanos = 9,
  kDurationNanos = 10,
  kPeriodType = 11,
  kPeriod = 12,
  kComment = 13,
};

std::string HexName(const std::string& prefix, uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%" PRIx64, value);
  return prefix + text;
}

std::string Basename(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// One message per row of a table, in `field`: field 1 is the row's id, its position counted
// from 1 (the ids samples, locations and lines refer by), `encode` writes the rest.
template <typename Row, typename Encode>
void AddTable(ProtoEncoder* profile, int field, const std::vector<Row>& rows, Encode encode) {
  for (size_t i = 0; i < rows.size(); ++i) {
    ProtoEncoder m;
    m.Int(1, i + 1);
    encode(rows[i], &m);
    profile->Bytes(field, m.bytes());
  }
}

}  // namespace

PprofWriter::PprofWriter(std::vector<ValueType> sample_types, ValueType period_type, int64_t period)
    : sample_types_(std::move(sample_types)),
      period_type_(std::move(period_type)),
      period_(period) {
  Intern("");  // string_table[0] must be the empty string
  for (const ValueType& v : sample_types_) {
    Intern(v.type);
    Intern(v.unit);
  }
  Intern(period_type_.type);
  Intern(period_type_.unit);
}

int64_t PprofWriter::Intern(const std::string& s) {
  auto found = string_ids_.find(s);
  if (found != string_ids_.end()) return found->second;
  int64_t id = static_cast<int64_t>(strings_.size());
  strings_.push_back(s);
  string_ids_.emplace(s, id);
  return id;
}

uint64_t PprofWriter::FunctionId(const std::string& name, const std::string& file) {
  auto key = std::make_pair(Intern(name), Intern(file));
  auto found = function_ids_.find(key);
  if (found != function_ids_.end()) return found->second;
  functions_.push_back(Function{key.first, key.second});
  uint64_t id = functions_.size();
  function_ids_.emplace(key, id);
  return id;
}

uint64_t PprofWriter::MappingId(const Symbol& symbol) {
  auto found = mapping_ids_.find(symbol.module);
  if (found != mapping_ids_.end()) {
    Mapping& m = mappings_[found->second - 1];
    m.has_functions = m.has_functions || !symbol.function.empty();
    m.has_lines = m.has_lines || symbol.line != 0;
    return found->second;
  }
  // Addresses in the profile are the process's own; locations carry their functions and
  // lines already, so the mapping only names the module (file_offset stays 0).
  mappings_.push_back(Mapping{symbol.module_start, symbol.module_end, 0, Intern(symbol.module),
                              Intern(symbol.build_id), !symbol.function.empty(), symbol.line != 0});
  uint64_t id = mappings_.size();
  mapping_ids_.emplace(symbol.module, id);
  return id;
}

uint64_t PprofWriter::LocationFor(Symbolizer& symbolizer, uint64_t pc, bool return_address) {
  LocationKey key{&symbolizer, pc, return_address};
  auto found = location_ids_.find(key);
  if (found != location_ids_.end()) return found->second;
  Symbol symbol = symbolizer.Resolve(return_address && pc > 0 ? pc - 1 : pc);
  Location location{0, pc, {}};
  std::string name = symbol.function;
  if (name.empty())
    name = symbol.in_module ? HexName(Basename(symbol.module) + "+", symbol.module_offset)
                            : HexName("", pc);
  if (symbol.in_module) location.mapping_id = MappingId(symbol);
  location.lines.push_back(Line{FunctionId(name, symbol.file), symbol.line});
  locations_.push_back(std::move(location));
  uint64_t id = locations_.size();
  location_ids_.emplace(key, id);
  return id;
}

uint64_t PprofWriter::SyntheticLocation(const std::string& function, const std::string& file,
                                        int64_t line) {
  locations_.push_back(Location{0, 0, {Line{FunctionId(function, file), line}}});
  return locations_.size();
}

void PprofWriter::AddSample(const std::vector<uint64_t>& locations_leaf_first,
                            const std::vector<int64_t>& values, const std::vector<Label>& labels) {
  for (const Label& l : labels) {
    Intern(l.key);
    Intern(l.str);
    Intern(l.num_unit);
  }
  samples_.push_back(Sample{locations_leaf_first, values, labels});
}

void PprofWriter::SetTimes(int64_t time_nanos, int64_t duration_nanos) {
  time_nanos_ = time_nanos;
  duration_nanos_ = duration_nanos;
}

void PprofWriter::AddComment(const std::string& comment) { comments_.push_back(Intern(comment)); }

std::string PprofWriter::Serialize() const {
  // Every string was interned when it was added, so encoding only looks ids up.
  auto id = [this](const std::string& s) { return static_cast<uint64_t>(string_ids_.at(s)); };
  ProtoEncoder profile;
  auto value_type = [&](const ValueType& v) {
    ProtoEncoder m;
    m.Int(1, id(v.type));
    m.Int(2, id(v.unit));
    return m.bytes();
  };
  for (const ValueType& v : sample_types_) profile.Bytes(kSampleType, value_type(v));
  for (const Sample& s : samples_) {
    ProtoEncoder m;
    m.Packed(1, s.locations);
    m.Packed(2, s.values);
    for (const Label& l : s.labels) {
      ProtoEncoder label;
      label.Int(1, id(l.key));
      if (!l.str.empty()) {
        label.Int(2, id(l.str));
      } else {
        label.Int(3, static_cast<uint64_t>(l.num));
        if (!l.num_unit.empty()) label.Int(4, id(l.num_unit));
      }
      m.Bytes(3, label.bytes());
    }
    profile.Bytes(kSample, m.bytes());
  }
  AddTable(&profile, kMapping, mappings_, [](const Mapping& map, ProtoEncoder* m) {
    m->Int(2, map.start);
    m->Int(3, map.limit);
    m->Int(4, map.offset);
    m->Int(5, static_cast<uint64_t>(map.filename));
    m->Int(6, static_cast<uint64_t>(map.build_id));
    m->Bool(7, map.has_functions);
    m->Bool(8, map.has_lines);
    m->Bool(9, map.has_lines);
  });
  AddTable(&profile, kLocation, locations_, [](const Location& loc, ProtoEncoder* m) {
    m->Int(2, loc.mapping_id);
    m->Int(3, loc.address);
    for (const Line& line : loc.lines) {
      ProtoEncoder l;
      l.Int(1, line.function_id);
      l.Int(2, static_cast<uint64_t>(line.line));
      m->Bytes(4, l.bytes());
    }
  });
  AddTable(&profile, kFunction, functions_, [](const Function& function, ProtoEncoder* m) {
    m->Int(2, static_cast<uint64_t>(function.name));
    m->Int(3, static_cast<uint64_t>(function.name));
    m->Int(4, static_cast<uint64_t>(function.filename));
  });
  profile.Int(kTimeNanos, static_cast<uint64_t>(time_nanos_));
  profile.Int(kDurationNanos, static_cast<uint64_t>(duration_nanos_));
  profile.Bytes(kPeriodType, value_type(period_type_));
  profile.Int(kPeriod, static_cast<uint64_t>(period_));
  for (int64_t c : comments_) profile.Int(kComment, static_cast<uint64_t>(c));
  for (const std::string& s : strings_) profile.String(kStringTable, s);
  return profile.bytes();
}

bool PprofWriter::WriteGzipped(const std::string& path, std::string* error) const {
  std::string compressed;
  if (!Gzip(Serialize(), &compressed, error)) return false;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out.write(compressed.data(), static_cast<std::streamsize>(compressed.size()));
  if (out) out.close();
  if (!out) {
    *error = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace fuchsia_common
