# SPDX-License-Identifier: MIT
# Cross-building libpmapi for ppc64le (Linux on POWER) on Debian, against a sysroot folder of
# unpacked ppc64el packages (docs/building.md, "Building for POWER"):
#
#   apt-get install g++-powerpc64le-linux-gnu
#   scripts/ppc64el-root sysroot          # prints the folder, /var/cache/libpmapi-pmu/ppc64el/sysroot
#   cmake -S . -B build-ppc64le -DCMAKE_TOOLCHAIN_FILE=cmake/powerpc64le-linux-gnu.cmake \
#         -DPMAPI_PPC64LE_SYSROOT=/var/cache/libpmapi-pmu/ppc64el/sysroot
#
# Not Debian's multiarch route (libpfm4-dev:ppc64el beside the host's libraries), which needs the
# host's and the ppc64el package indexes in step: when a mirror lags for one architecture, the
# ppc64el libraries cannot be installed at all. The C library, libstdc++ and the compilers are
# the cross toolchain's own (/usr/powerpc64le-linux-gnu); the folder holds only what the tree
# links beyond them (libpfm4, hwloc, googletest, libdw, libelf, zlib), found through
# CMAKE_FIND_ROOT_PATH, pkg-config's sysroot and the include and link paths below.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ppc64le)
set(CMAKE_LIBRARY_ARCHITECTURE powerpc64le-linux-gnu)

set(CMAKE_C_COMPILER powerpc64le-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER powerpc64le-linux-gnu-g++)
# Only the cross gfortran will do; without it libhpm's Fortran interface is left out rather than
# compiled by the host's gfortran for the wrong machine.
if(EXISTS /usr/bin/powerpc64le-linux-gnu-gfortran)
  set(CMAKE_Fortran_COMPILER powerpc64le-linux-gnu-gfortran)
else()
  set(CMAKE_Fortran_COMPILER CMAKE_Fortran_COMPILER-NOTFOUND)
endif()

# The folder: -DPMAPI_PPC64LE_SYSROOT, else $PMAPI_PPC64LE_SYSROOT, else where scripts/ppc64el-root
# puts it. CMake reads this file again for each of its compiler checks, which see only the
# variables listed in CMAKE_TRY_COMPILE_PLATFORM_VARIABLES.
if(NOT PMAPI_PPC64LE_SYSROOT)
  if(DEFINED ENV{PMAPI_PPC64LE_SYSROOT})
    set(PMAPI_PPC64LE_SYSROOT "$ENV{PMAPI_PPC64LE_SYSROOT}")
  else()
    set(PMAPI_PPC64LE_SYSROOT /var/cache/libpmapi-pmu/ppc64el/sysroot)
  endif()
endif()
set(PMAPI_PPC64LE_SYSROOT "${PMAPI_PPC64LE_SYSROOT}" CACHE PATH
    "Unpacked ppc64el packages the cross build links against (scripts/ppc64el-root sysroot)")
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES PMAPI_PPC64LE_SYSROOT)
if(NOT EXISTS "${PMAPI_PPC64LE_SYSROOT}/usr/include/perfmon/pfmlib_perf_event.h")
  message(FATAL_ERROR "no ppc64el sysroot at ${PMAPI_PPC64LE_SYSROOT} (libpfm4's headers are "
                      "missing): make one with scripts/ppc64el-root sysroot, or pass "
                      "-DPMAPI_PPC64LE_SYSROOT=<folder>")
endif()

set(_pmapi_lib "${PMAPI_PPC64LE_SYSROOT}/usr/lib/powerpc64le-linux-gnu")
# hwloc's generated configuration header is in the multiarch include folder. -isystem: the
# packages' headers are not the project's to warn about.
foreach(lang C CXX)
  set(CMAKE_${lang}_STANDARD_INCLUDE_DIRECTORIES
      "${PMAPI_PPC64LE_SYSROOT}/usr/include/powerpc64le-linux-gnu"
      "${PMAPI_PPC64LE_SYSROOT}/usr/include")
endforeach()
# -rpath-link: the linker follows libhwloc's own needs (libudev) into the folder, not the host.
foreach(kind EXE SHARED MODULE)
  set(CMAKE_${kind}_LINKER_FLAGS_INIT
      "-L${_pmapi_lib} -L${PMAPI_PPC64LE_SYSROOT}/lib/powerpc64le-linux-gnu -Wl,-rpath-link,${_pmapi_lib} -Wl,-rpath-link,${PMAPI_PPC64LE_SYSROOT}/lib/powerpc64le-linux-gnu")
endforeach()

# pkg-config reads the folder's .pc files only (hwloc, libdw), and prefixes their paths with it.
set(ENV{PKG_CONFIG_LIBDIR} "${_pmapi_lib}/pkgconfig:${PMAPI_PPC64LE_SYSROOT}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${PMAPI_PPC64LE_SYSROOT}")

# Programs come from the host; libraries, headers and CMake packages (GTest) from the folder and
# the cross toolchain only, never the host's x86 copies.
set(CMAKE_FIND_ROOT_PATH "${PMAPI_PPC64LE_SYSROOT}" /usr/powerpc64le-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
