# SPDX-License-Identifier: MIT
# The sampler's benchmark (docs/performance.md): a workload's slowdown under pmsample and under
# perf record at the same rate, bytes per sample of each, and pmsample's profile writing on a
# recording of a million samples. Run: build/compat/fuchsia/sampler/sampler_bench
add_executable(sampler_bench_workload ${CMAKE_CURRENT_LIST_DIR}/../tests/sampler_workload.c)
target_compile_options(sampler_bench_workload PRIVATE -Wall -Wextra -Werror -O2 -fno-omit-frame-pointer)
target_link_libraries(sampler_bench_workload PRIVATE Threads::Threads)

add_executable(sampler_bench ${CMAKE_CURRENT_LIST_DIR}/sampler_bench.cpp
               ${CMAKE_CURRENT_LIST_DIR}/../tools/recording.cpp
               ${CMAKE_CURRENT_LIST_DIR}/../tools/outputs.cpp)
target_include_directories(sampler_bench PRIVATE ${CMAKE_CURRENT_LIST_DIR}/../tools)
target_link_libraries(sampler_bench PRIVATE zx_sampler fuchsia_common pmtools_common)
target_compile_options(sampler_bench PRIVATE ${PMAPI_WARNINGS} -fno-omit-frame-pointer)
add_dependencies(sampler_bench pmsample sampler_bench_workload)
target_compile_definitions(sampler_bench PRIVATE
  PMSAMPLE_PATH="$<TARGET_FILE:pmsample>"
  BENCH_WORKLOAD_PATH="$<TARGET_FILE:sampler_bench_workload>")
# A smoke run: the profile-writing part on 10,000 samples, no perf needed.
add_test(NAME sampler.bench_smoke COMMAND sampler_bench --pprof-only 10000)
