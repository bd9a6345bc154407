# SPDX-License-Identifier: MIT
# The sampler's tests: the C interface and the samples in-process (googletest), pmsample on a
# workload with known hot functions, and the installed tree used as a client would.
find_package(GTest REQUIRED)
include(GoogleTest)

# Frame pointers and no inlining of the hot functions: the stacks the tests look for.
set(ZX_SAMPLER_TEST_FLAGS -fno-omit-frame-pointer -O1 -g)

add_executable(sampler_workload ${CMAKE_CURRENT_LIST_DIR}/sampler_workload.c)
target_compile_options(sampler_workload PRIVATE -Wall -Wextra -Werror ${ZX_SAMPLER_TEST_FLAGS})
target_link_libraries(sampler_workload PRIVATE Threads::Threads)
# A copy with every symbol stripped: pmsample must name its PCs by module and offset only.
add_custom_command(TARGET sampler_workload POST_BUILD
  COMMAND ${CMAKE_OBJCOPY} --strip-all $<TARGET_FILE:sampler_workload>
          $<TARGET_FILE:sampler_workload>.stripped
  COMMENT "Stripping a copy of sampler_workload")

# Functions named with escape sequences and a 600-byte name, for pmsample's summary.
add_executable(names_workload ${CMAKE_CURRENT_LIST_DIR}/names_workload.c)
target_compile_options(names_workload PRIVATE -Wall -Wextra -Werror ${ZX_SAMPLER_TEST_FLAGS})

# The chain main -> outer -> middle -> leaf without frame pointers, for --call-graph dwarf.
add_executable(unwind_workload ${CMAKE_CURRENT_LIST_DIR}/unwind_workload.c)
target_compile_options(unwind_workload PRIVATE -Wall -Wextra -Werror -O2 -g
                       -fomit-frame-pointer -fasynchronous-unwind-tables)
target_link_libraries(unwind_workload PRIVATE ${CMAKE_DL_LIBS})

# Two libraries of one source, alpha_hot's and beta_hot's, and the program that loads them in
# turn (or plants a FIFO where one was): mappings that come and go while sampled.
foreach(hot alpha beta)
  add_library(sampler_${hot} SHARED ${CMAKE_CURRENT_LIST_DIR}/hot_library.c)
  target_compile_definitions(sampler_${hot} PRIVATE HOT_NAME=${hot}_hot)
  target_compile_options(sampler_${hot} PRIVATE -Wall -Wextra -Werror ${ZX_SAMPLER_TEST_FLAGS})
endforeach()
add_executable(dlopen_workload ${CMAKE_CURRENT_LIST_DIR}/dlopen_workload.c)
target_compile_options(dlopen_workload PRIVATE -Wall -Wextra -Werror ${ZX_SAMPLER_TEST_FLAGS})
target_link_libraries(dlopen_workload PRIVATE ${CMAKE_DL_LIBS})

foreach(name zx_sampler_api_test zx_sampler_sampling_test zx_sampler_fork_test pmsample_test
             pmsample_mappings_test)
  add_executable(${name} ${CMAKE_CURRENT_LIST_DIR}/${name}.cpp)
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_LIST_DIR})
  target_link_libraries(${name} PRIVATE zx_sampler fuchsia_common GTest::gtest_main Threads::Threads)
  target_compile_options(${name} PRIVATE ${PMAPI_WARNINGS} ${ZX_SAMPLER_TEST_FLAGS})
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 TEST_PREFIX sampler.
                       PROPERTIES TIMEOUT 300)
endforeach()
foreach(name pmsample_test pmsample_mappings_test)
  add_dependencies(${name} pmsample sampler_workload unwind_workload dlopen_workload
                   sampler_alpha sampler_beta names_workload)
  target_compile_definitions(${name} PRIVATE
    PMSAMPLE_PATH="$<TARGET_FILE:pmsample>"
    SAMPLER_WORKLOAD_PATH="$<TARGET_FILE:sampler_workload>"
    UNWIND_WORKLOAD_PATH="$<TARGET_FILE:unwind_workload>"
    NAMES_WORKLOAD_PATH="$<TARGET_FILE:names_workload>"
    DLOPEN_WORKLOAD_PATH="$<TARGET_FILE:dlopen_workload>"
    ALPHA_LIBRARY_PATH="$<TARGET_FILE:sampler_alpha>"
    BETA_LIBRARY_PATH="$<TARGET_FILE:sampler_beta>"
    GO_EXECUTABLE="${FUCHSIA_GO_EXECUTABLE}")
endforeach()

# Below the C interface, through the kernel seam: the sampler's sources compiled into the test
# (the library hides the seam), with the core's fake kernel. zx_sampler_set_unwind's requests and
# refusals; a thread attached once however it is reached; the unwinder's stack reads.
file(GLOB ZX_SAMPLER_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/../src/*.cpp)
foreach(name zx_sampler_unwind_faults_test zx_sampler_attach_test)
  add_executable(${name} ${CMAKE_CURRENT_LIST_DIR}/${name}.cpp ${ZX_SAMPLER_TEST_SOURCES}
                 ${PROJECT_SOURCE_DIR}/compat/fuchsia/common/src/fxt.cpp)
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_LIST_DIR}
    ${CMAKE_CURRENT_LIST_DIR}/../include ${CMAKE_CURRENT_LIST_DIR}/../src
    ${PROJECT_SOURCE_DIR}/compat/fuchsia/common/include)
  target_link_libraries(${name} PRIVATE pmapi_internal pmapi_test_support
                        PkgConfig::ZX_SAMPLER_LIBDW GTest::gtest_main Threads::Threads)
  target_compile_options(${name} PRIVATE ${PMAPI_WARNINGS})
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 TEST_PREFIX sampler.
                       PROPERTIES TIMEOUT 120)
endforeach()

# pmsample --folded and --flamegraph on a 3:1 workload, the pictures rendered by headless
# chromium and checked by what it drew (skipped, with the reason, without chromium).
add_test(NAME sampler.flamegraph_render
         COMMAND ${PROJECT_SOURCE_DIR}/tests/tools/picture_render.py flamegraph
                 $<TARGET_FILE:pmsample> $<TARGET_FILE:sampler_workload>)
set_tests_properties(sampler.flamegraph_render PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)

add_test(NAME sampler.install_client
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/install_client.sh ${PROJECT_BINARY_DIR}
                 ${PROJECT_SOURCE_DIR} ${CMAKE_INSTALL_LIBDIR} ${CMAKE_C_COMPILER})
set_tests_properties(sampler.install_client PROPERTIES TIMEOUT 300 RESOURCE_LOCK cmake_install)

