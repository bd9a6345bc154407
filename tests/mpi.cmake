# libpmapi-mpi (src/mpi, docs/mpi.md). The cross-rank summary (no MPI in it): a unit test, in
# every build.
add_executable(mpi_summary_test mpi/cross_rank_summary_test.cpp mpi/cross_rank_wall_test.cpp)
target_link_libraries(mpi_summary_test PRIVATE pmreport GTest::gtest_main)
target_compile_options(mpi_summary_test PRIVATE ${PMAPI_WARNINGS})
gtest_discover_tests(mpi_summary_test DISCOVERY_TIMEOUT 60)

# The choice of events from PMAPI_MPI_EVENTS (no MPI in it either): against libpmapi.
add_executable(mpi_rank_counters_test mpi/rank_counters_test.cpp
               ${PROJECT_SOURCE_DIR}/src/mpi/rank_counters.cpp)
target_include_directories(mpi_rank_counters_test PRIVATE ${PROJECT_SOURCE_DIR}/src/mpi)
target_link_libraries(mpi_rank_counters_test PRIVATE pmapi GTest::gtest_main)
target_compile_options(mpi_rank_counters_test PRIVATE ${PMAPI_WARNINGS})
gtest_discover_tests(mpi_rank_counters_test DISCOVERY_TIMEOUT 60)

# Real 4-rank mpirun jobs against a scratch install of the project, in the sections of
# tests/mpi/run_mpi.py; only where MPI was found. Not in sanitizer builds (scripts/sanitize): the subject is the library inside programs built
# outside them (mpirun, a workload built with mpicc), and a sanitized library needs the
# sanitizer's runtime in the program.
if(NOT TARGET pmapi_mpi OR PMAPI_SANITIZE)
  return()
endif()
find_package(Python3 COMPONENTS Interpreter REQUIRED)
find_package(MPI COMPONENTS C REQUIRED)  # its imported targets are per directory

# The workload without the library: for LD_PRELOAD and pmcount. The driver builds the linked
# one itself against the installed tree (mpicc + pkg-config pmapi-mpi), as a user would.
add_executable(mpi_getppid_ranks mpi/getppid_ranks.c)
target_link_libraries(mpi_getppid_ranks PRIVATE MPI::MPI_C Threads::Threads)
target_compile_options(mpi_getppid_ranks PRIVATE -Wall -Wextra -Werror)

set(PMAPI_MPI_TEST_PREFIX ${CMAKE_CURRENT_BINARY_DIR}/mpi-prefix)
add_test(NAME mpi.install
         COMMAND ${CMAKE_COMMAND} --install ${PROJECT_BINARY_DIR} --prefix ${PMAPI_MPI_TEST_PREFIX})
set_tests_properties(mpi.install PROPERTIES FIXTURES_SETUP mpi_installed TIMEOUT 120)
foreach(section linked preload regions bad_rank abort pmcount)
  add_test(NAME mpi.${section}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/mpi/run_mpi.py ${section}
                   ${PMAPI_MPI_TEST_PREFIX} ${CMAKE_INSTALL_LIBDIR}
                   $<TARGET_FILE:mpi_getppid_ranks>)
  # One job at a time: each runs 4 ranks oversubscribed on this machine's cores.
  set_tests_properties(mpi.${section} PROPERTIES FIXTURES_REQUIRED mpi_installed TIMEOUT 180
                       SKIP_RETURN_CODE 77 RESOURCE_LOCK mpirun)
endforeach()

# The benchmark rows (tests/mpi/bench_mpi.py, docs/mpi.md "Cost").
add_executable(mpi_init_finalize_bench mpi/init_finalize_bench.c)
target_link_libraries(mpi_init_finalize_bench PRIVATE MPI::MPI_C)
target_compile_options(mpi_init_finalize_bench PRIVATE -Wall -Wextra -Werror)
