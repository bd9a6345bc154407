/* SPDX-License-Identifier: MIT */
// Marks the engine calls the compat libraries (libpmc, libperfmon, libzx_sampler) make: they link
// libpmapi.so, so that a process runs one engine whatever APIs it uses, and these calls leave it
// in the private version node of src/libpmapi.map, which no installed header declares. Everything
// unmarked stays hidden (-fvisibility=hidden).
#pragma once

#define PMAPI_ENGINE_EXPORT __attribute__((visibility("default")))
