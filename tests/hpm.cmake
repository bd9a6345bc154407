# libhpm's tests (tests/hpm/): scenario programs, each run by run_scenario.py
# in a scratch directory and checked through its report; the Fortran
# programs when gfortran is there; the installed tree; and libhpm's row of
# the benchmark table.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(HPM_TEST_DIR ${CMAKE_CURRENT_LIST_DIR}/hpm)

add_executable(hpm_scenarios ${HPM_TEST_DIR}/hpm_scenarios.c)
target_link_libraries(hpm_scenarios PRIVATE hpm Threads::Threads)
target_compile_options(hpm_scenarios PRIVATE ${PMAPI_WARNINGS} -pedantic)

# Each case counts its own thread's getppid calls only: cases may run at once.
set(HPM_CASES nested threads threads_early get_counters event_set_names event_set_group_number
    event_set_group_name event_set_group_in_list event_set_file event_set_file_fifo
    event_set_file_nul event_set_bad stop_without_start unbalanced out_of_range more_sections
    mpi_rank terminate_twice before_init init_twice started_twice open_at_terminate fork_child)
foreach(case ${HPM_CASES})
  add_test(NAME hpm.${case}
           COMMAND ${Python3_EXECUTABLE} ${HPM_TEST_DIR}/run_scenario.py ${case}
                   $<TARGET_FILE:hpm_scenarios>)
  set_tests_properties(hpm.${case} PROPERTIES ENVIRONMENT
                       "XDG_RUNTIME_DIR=${CMAKE_BINARY_DIR}/test-runtime")
endforeach()

if(CMAKE_Fortran_COMPILER_LOADED)
  set(HPM_FORTRAN_CASES fortran_8 fortran_noheader)
  # The threaded Fortran case uses OpenMP (libgomp comes with gfortran).
  find_package(OpenMP COMPONENTS Fortran)
  if(OpenMP_Fortran_FOUND)
    add_executable(hpm_fortran ${HPM_TEST_DIR}/hpm_fortran.F90)
    target_link_libraries(hpm_fortran PRIVATE hpm OpenMP::OpenMP_Fortran)
    target_compile_options(hpm_fortran PRIVATE -Wall -Werror)
    list(APPEND HPM_FORTRAN_CASES fortran)
  endif()
  add_executable(hpm_fortran_8 ${HPM_TEST_DIR}/hpm_fortran_8.F90)
  target_link_libraries(hpm_fortran_8 PRIVATE hpm)
  # F_HPM_FILE_NAMES: the expanded lines are longer than 132 characters.
  target_compile_options(hpm_fortran_8 PRIVATE -Wall -Werror -ffree-line-length-none
                                               -fdefault-integer-8)
  add_executable(hpm_fortran_noheader ${HPM_TEST_DIR}/hpm_fortran_noheader.f90)
  target_link_libraries(hpm_fortran_noheader PRIVATE hpm)
  target_compile_options(hpm_fortran_noheader PRIVATE -Wall -Werror)
  foreach(case ${HPM_FORTRAN_CASES})
    add_test(NAME hpm.${case}
             COMMAND ${Python3_EXECUTABLE} ${HPM_TEST_DIR}/run_scenario.py ${case}
                     $<TARGET_FILE:hpm_${case}> $<TARGET_FILE:hpm_scenarios>)
    set_tests_properties(hpm.${case} PROPERTIES ENVIRONMENT
                         "XDG_RUNTIME_DIR=${CMAKE_BINARY_DIR}/test-runtime")
  endforeach()
endif()

# The installed tree: libhpm.pc, -lhpm, the C and Fortran examples. Not in a
# sanitizer build: a bare compiler's client cannot load a sanitized libhpm.so
# (install.client is excluded there for the same reason).
if(NOT PMAPI_SANITIZE)
  add_test(NAME hpm.install_client
           COMMAND ${HPM_TEST_DIR}/install_client.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
                   ${CMAKE_INSTALL_LIBDIR} ${CMAKE_C_COMPILER} "${CMAKE_Fortran_COMPILER}")
  set_tests_properties(hpm.install_client PROPERTIES TIMEOUT 300)
endif()

# Nothing allocated per call after a section's first use. Not in a sanitizer
# build: the test replaces malloc, which the sanitizers' runtimes own there.
if(NOT PMAPI_SANITIZE)
  add_executable(hpm_no_alloc ${HPM_TEST_DIR}/hpm_no_alloc.c)
  target_link_libraries(hpm_no_alloc PRIVATE hpm Threads::Threads)
  target_compile_options(hpm_no_alloc PRIVATE ${PMAPI_WARNINGS})
  add_test(NAME hpm.no_allocation COMMAND hpm_no_alloc)
  set_tests_properties(hpm.no_allocation PROPERTIES ENVIRONMENT
    "HPM_OUTPUT_NAME=${CMAKE_CURRENT_BINARY_DIR}/hpm_no_alloc.perfhpm;XDG_RUNTIME_DIR=${CMAKE_BINARY_DIR}/test-runtime")
endif()

if(TARGET pmapi_bench)
  # tests/bench/hpm_bench.cpp measures hpmStart+hpmStop against pm_start/stop_mythread.
  target_link_libraries(pmapi_bench PRIVATE hpm)
endif()

# A nested section's wall time comes off its parent's exclusive time, to the nanosecond.
add_test(NAME hpm.exclusive_wall
         COMMAND ${Python3_EXECUTABLE} ${HPM_TEST_DIR}/check_exclusive_wall.py
                 $<TARGET_FILE:hpm_scenarios>)
set_tests_properties(hpm.exclusive_wall PROPERTIES ENVIRONMENT
                     "XDG_RUNTIME_DIR=${CMAKE_BINARY_DIR}/test-runtime")
