# Benchmarks (Google Benchmark): libpmapi against the raw kernel path and
# PAPI in the same run. Built with PMAPI_BUILD_BENCHMARKS; scripts/bench runs
# them and prints the ratio table that docs/performance.md records.
if(PMAPI_BUILD_BENCHMARKS)
  find_package(benchmark REQUIRED)
  pkg_check_modules(PAPI REQUIRED IMPORTED_TARGET papi)
  file(GLOB PMAPI_BENCH_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/bench/*.cpp)
  add_executable(pmapi_bench ${PMAPI_BENCH_SOURCES})
  target_link_libraries(pmapi_bench PRIVATE pmapi benchmark::benchmark PkgConfig::PAPI)
  target_include_directories(pmapi_bench PRIVATE ${PROJECT_SOURCE_DIR}/include)
  target_compile_options(pmapi_bench PRIVATE ${PMAPI_WARNINGS})
  # A smoke run in the test suite: every benchmark must at least work.
  add_test(NAME bench.smoke COMMAND pmapi_bench --benchmark_min_time=0.001)
endif()
