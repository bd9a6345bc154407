# SPDX-License-Identifier: MIT
# Cross-building libpmapi for aarch64 on Debian with multiarch (docs/hardware.md):
#
#   dpkg --add-architecture arm64 && apt-get update
#   apt-get install g++-aarch64-linux-gnu libpfm4-dev:arm64 libhwloc-dev:arm64 \
#                   libgtest-dev:arm64 libgmock-dev:arm64
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
#
# The arm64 libraries live beside the host's, in /usr/lib/aarch64-linux-gnu (the sysroot is /),
# so only the compilers, the library architecture and pkg-config's search path change. A native
# aarch64 build needs none of this: the same CMakeLists build there as they are.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Only the cross gfortran will do (gfortran-aarch64-linux-gnu). Without it, a NOTFOUND compiler
# stops check_language(Fortran) from picking the host's gfortran: libhpm's Fortran interface is
# then left out, not compiled for the wrong machine.
if(EXISTS /usr/bin/aarch64-linux-gnu-gfortran)
  set(CMAKE_Fortran_COMPILER aarch64-linux-gnu-gfortran)
else()
  set(CMAKE_Fortran_COMPILER CMAKE_Fortran_COMPILER-NOTFOUND)
endif()

# pkg-config reads the arm64 .pc files only (hwloc), never the host's.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

# Programs (code generators, the host's tools) come from the host; libraries, headers and CMake
# packages from the multiarch directories only. Without this, find_library or find_package(MPI)
# could pick the host's x86 copy, which the cross linker then rejects.
set(CMAKE_FIND_ROOT_PATH /usr/lib/aarch64-linux-gnu /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
