# pmcount and pmlist (src/tools/): unit tests of their pure parts, and the installed binaries
# run the way users run them against a workload with exactly known counts (tests/tools/).

# One binary per tool: both have an options.h of their own.
add_executable(pmcount_unit_test tools/pmcount_options_test.cpp
               tools/pmcount_aggregation_test.cpp tools/pmcount_printer_test.cpp
               tools/tools_common_test.cpp tools/pmcount_multiplex_test.cpp
               tools/pmcount_final_interval_test.cpp tools/output_file_test.cpp
               tools/option_table_test.cpp tools/report_formats_test.cpp
               tools/picture_writers_test.cpp)
target_link_libraries(pmcount_unit_test PRIVATE pmcount_pure GTest::gtest_main)
add_executable(pmlist_unit_test tools/pmlist_options_test.cpp tools/pmlist_text_wrap_test.cpp)
target_link_libraries(pmlist_unit_test PRIVATE pmlist_pure GTest::gtest_main)
foreach(test pmcount_unit_test pmlist_unit_test)
  target_compile_options(${test} PRIVATE ${PMAPI_WARNINGS})
  gtest_discover_tests(${test} DISCOVERY_TIMEOUT 60)
endforeach()

# getppid calls, processes, threads, exit statuses and signals on demand.
add_executable(pmcount_workload tools/workload.c)
target_link_libraries(pmcount_workload PRIVATE Threads::Threads)
target_compile_options(pmcount_workload PRIVATE -Wall -Wextra -Werror)

# One install into a scratch prefix, shared by the sections below (a fixture, so it runs first
# and once).
set(PMCOUNT_TEST_PREFIX ${CMAKE_CURRENT_BINARY_DIR}/tools-prefix)
add_test(NAME tools.install
         COMMAND ${CMAKE_COMMAND} --install ${PROJECT_BINARY_DIR} --prefix ${PMCOUNT_TEST_PREFIX})
set_tests_properties(tools.install PROPERTIES FIXTURES_SETUP tools_installed TIMEOUT 120)
# A section that cannot run here (no tracefs, not root) exits 77: ctest shows it skipped, and
# its output says why. binaries: every installed binary runs from the tree (run paths).
foreach(section exact exit signals attach system bad pmlist misc unprivileged binaries merge)
  add_test(NAME tools.${section}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/installed_tools.sh ${section}
                   ${PMCOUNT_TEST_PREFIX} $<TARGET_FILE:pmcount_workload>)
  set_tests_properties(tools.${section} PROPERTIES FIXTURES_REQUIRED tools_installed TIMEOUT 120
                       SKIP_RETURN_CODE 77)
endforeach()

# pmlist's search (words, wildcards, did you mean, countable first, wrapping on a terminal) and
# pmcount -e's wildcards, exact and bounded (tests/tools/event_search.sh).
foreach(section pmlist pmcount)
  add_test(NAME tools.search.${section}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/event_search.sh ${section}
                   ${PMCOUNT_TEST_PREFIX} $<TARGET_FILE:pmcount_workload>)
  set_tests_properties(tools.search.${section} PROPERTIES FIXTURES_REQUIRED tools_installed
                       TIMEOUT 120 SKIP_RETURN_CODE 77)
endforeach()

# pmcount -x and -j against perf stat -x, and -j on the same commands, field by field, and
# pmcount's own --json against its installed schema (tests/tools/pmcount_perf_compat.py).
foreach(section csv json schema)
  add_test(NAME tools.perf_compat.${section}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/pmcount_perf_compat.py ${section}
                   ${PMCOUNT_TEST_PREFIX} $<TARGET_FILE:pmcount_workload>)
  set_tests_properties(tools.perf_compat.${section} PROPERTIES FIXTURES_REQUIRED tools_installed
                       TIMEOUT 120 SKIP_RETURN_CODE 77)
endforeach()

# pmcount --timeline rendered by headless chromium: a chart per event, a point per interval
# printed (tests/tools/picture_render.py; skipped, with the reason, without chromium).
add_test(NAME tools.timeline_render
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/picture_render.py timeline
                 $<TARGET_FILE:pmcount> $<TARGET_FILE:pmcount_workload>)
set_tests_properties(tools.timeline_render PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)

# pmcount -I's last interval, with the exit of the command hidden from pmcount until the next
# interval (tools/late_reap.c): the race of issue 26, made to happen on every run. An LD_PRELOAD
# shim cannot come before a sanitizer's runtime: not in those builds.
if(NOT PMAPI_SANITIZE)
  add_library(pmcount_late_reap MODULE tools/late_reap.c)
  target_link_libraries(pmcount_late_reap PRIVATE ${CMAKE_DL_LIBS})
  set_target_properties(pmcount_late_reap PROPERTIES COMPILE_OPTIONS "-Wall;-Wextra;-Werror"
                                                     LINK_OPTIONS "")
  add_test(NAME tools.final_interval
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/installed_tools.sh final_interval
                   ${PMCOUNT_TEST_PREFIX} $<TARGET_FILE:pmcount_workload>
                   $<TARGET_FILE:pmcount_late_reap>)
  set_tests_properties(tools.final_interval PROPERTIES FIXTURES_REQUIRED tools_installed
                       TIMEOUT 120 SKIP_RETURN_CODE 77)
endif()

# pmcount -T: multiplexed sets, with a workload whose getppid calls fall mid-slice
# (tests/tools/mx_workload.c says why that makes the split exact).
add_executable(pmcount_mx_workload tools/mx_workload.c)
# Never sanitized (the options replace the directory's -fsanitize=...): a sanitizer runtime
# calls getppid() at start-up, at no chosen place in a slice, and the split would not be exact.
set_target_properties(pmcount_mx_workload PROPERTIES COMPILE_OPTIONS "-Wall;-Wextra;-Werror"
                                                     LINK_OPTIONS "")
foreach(section counts system auto bad)
  add_test(NAME tools.multiplex.${section}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/pmcount_multiplex.sh ${section}
                   ${PMCOUNT_TEST_PREFIX} $<TARGET_FILE:pmcount_mx_workload>)
  set_tests_properties(tools.multiplex.${section} PROPERTIES FIXTURES_REQUIRED tools_installed
                       TIMEOUT 120 SKIP_RETURN_CODE 77)
endforeach()

# pmc (compat/netbsd/tools/pmc.c) compiles without a warning where pmc_evid_t is unsigned
# (arm: sys/pmc.h): with a cross compiler when this machine has one, otherwise skipped.
find_program(PMAPI_AARCH64_CC NAMES aarch64-linux-gnu-gcc)
if(PMAPI_AARCH64_CC)
  add_test(NAME tools.pmc_aarch64_warnings
           COMMAND ${PMAPI_AARCH64_CC} -std=c11 -Wall -Wextra -pedantic -Werror -fsyntax-only
                   -I${PROJECT_SOURCE_DIR}/compat/netbsd/include
                   ${PROJECT_SOURCE_DIR}/compat/netbsd/tools/pmc.c)
endif()

# scripts/bench's argument check, which must come before it builds or benchmarks anything.
add_test(NAME tools.bench_usage
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/bench_usage.sh ${PROJECT_SOURCE_DIR})

# hpmcount, hpmstat, pmlist's AIX queries and pmcycles (src/tools/aix, src/tools/pmlist): their
# command lines and report layout as unit tests, and the installed commands run the way AIX
# scripts run them (tools/aix_commands.sh: IBM's examples and the issue's lines, exact with
# tracepoint counts through a site group table).
add_executable(hpm_unit_test tools/hpm_unit_test.cpp)
target_link_libraries(hpm_unit_test PRIVATE hpm_pure GTest::gtest_main)
add_executable(pmlist_aix_unit_test tools/pmlist_aix_options_test.cpp)
target_link_libraries(pmlist_aix_unit_test PRIVATE pmlist_pure GTest::gtest_main)
foreach(test hpm_unit_test pmlist_aix_unit_test)
  target_compile_options(${test} PRIVATE ${PMAPI_WARNINGS})
  gtest_discover_tests(${test} DISCOVERY_TIMEOUT 60)
endforeach()
foreach(section hpmcount hpmstat pmlist pmcycles)
  add_test(NAME tools.aix.${section}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/aix_commands.sh ${section}
                   ${PMCOUNT_TEST_PREFIX} $<TARGET_FILE:pmcount_workload>)
  set_tests_properties(tools.aix.${section} PROPERTIES FIXTURES_REQUIRED tools_installed
                       TIMEOUT 120 SKIP_RETURN_CODE 77)
endforeach()
