/* SPDX-License-Identifier: MIT */
// The few protobuf wire-format pieces profile.proto needs: varints, length-delimited fields
// and packed repeated integers, appended to a std::string.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fuchsia_common {

class ProtoEncoder {
 public:
  void Varint(uint64_t value) {
    while (value >= 0x80) {
      out_ += static_cast<char>((value & 0x7f) | 0x80);
      value >>= 7;
    }
    out_ += static_cast<char>(value);
  }
  // A varint field (wire type 0); zero is the default and is left out, as proto3 does.
  void Int(int field, uint64_t value) {
    if (value == 0) return;
    Varint(static_cast<uint64_t>(field) << 3);
    Varint(value);
  }
  void Bool(int field, bool value) { Int(field, value ? 1 : 0); }
  // A length-delimited field (wire type 2): a string, bytes or an embedded message.
  void Bytes(int field, const std::string& bytes) {
    Varint(static_cast<uint64_t>(field) << 3 | 2);
    Varint(bytes.size());
    out_ += bytes;
  }
  // A string that must be present even when empty (string_table[0] is "").
  void String(int field, const std::string& text) { Bytes(field, text); }
  template <typename T>
  void Packed(int field, const std::vector<T>& values) {
    if (values.empty()) return;
    ProtoEncoder body;
    for (T v : values) body.Varint(static_cast<uint64_t>(v));
    Bytes(field, body.out_);
  }

  const std::string& bytes() const { return out_; }
  void Append(const std::string& raw) { out_ += raw; }

 private:
  std::string out_;
};

}  // namespace fuchsia_common
