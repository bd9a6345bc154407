// The GNU build id of a loaded object: the hash the linker stamps into every binary it links
// (ld --build-id, the Debian toolchain's default). Two builds of a library that differ in any
// byte of code or data have different ids, so the catalog cache uses it to tell a rebuilt or
// upgraded libpmapi or libpfm4 from the one that wrote the cache.
#pragma once

#include <string>

namespace pmapi {

// The build id, in hex, of the loaded object (executable or shared library) whose code
// contains `address`; "" when no object does or the object has no build id. Reads only the
// process's own memory (dl_iterate_phdr), no file.
std::string BuildIdOfObjectContaining(const void *address);

}  // namespace pmapi
