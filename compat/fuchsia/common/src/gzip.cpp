// SPDX-License-Identifier: MIT
// gzip framing (not raw zlib) because pprof expects a .pb.gz file.
#include <zlib.h>

#include "fuchsia_common/pprof_writer.h"

namespace fuchsia_common {

bool Gzip(const std::string& data, std::string* out, std::string* error) {
  z_stream stream{};
  // windowBits 15 + 16: the gzip header and trailer instead of zlib's.
  if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    *error = "zlib: deflateInit2 failed";
    return false;
  }
  out->resize(deflateBound(&stream, data.size()) + 32);
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(&(*out)[0]);
  stream.avail_out = static_cast<uInt>(out->size());
  int result = deflate(&stream, Z_FINISH);
  out->resize(stream.total_out);
  deflateEnd(&stream);
  if (result != Z_STREAM_END) {
    *error = "zlib: deflate did not finish";
    return false;
  }
  return true;
}

}  // namespace fuchsia_common
