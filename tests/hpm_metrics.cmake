# The derived-metrics extension (include/pmapi_metrics.h) beyond its googletest binary
# (group_metrics_api_test.cpp): the header compiles strictly alone, and libhpm's report shows
# a group's metrics (tests/hpm/run_metrics.py, exact getppid/getpgid counts).
find_package(Python3 REQUIRED COMPONENTS Interpreter)

foreach(std c99 c11)
  add_test(NAME header.metrics.${std}
           COMMAND ${CMAKE_C_COMPILER} -std=${std} -Wall -Wextra -pedantic -Werror -Wwrite-strings
                   -I${PROJECT_SOURCE_DIR}/include -c ${CMAKE_CURRENT_LIST_DIR}/header/metrics_compile.c
                   -o ${CMAKE_CURRENT_BINARY_DIR}/metrics_compile_${std}.o)
endforeach()
add_test(NAME header.metrics.c++11
         COMMAND ${CMAKE_CXX_COMPILER} -x c++ -std=c++11 -Wall -Wextra -pedantic -Werror
                 -I${PROJECT_SOURCE_DIR}/include -c ${CMAKE_CURRENT_LIST_DIR}/header/metrics_compile.c
                 -o ${CMAKE_CURRENT_BINARY_DIR}/metrics_compile_cxx.o)

add_executable(hpm_metrics ${CMAKE_CURRENT_LIST_DIR}/hpm/hpm_metrics.c)
target_link_libraries(hpm_metrics PRIVATE hpm)
target_compile_options(hpm_metrics PRIVATE ${PMAPI_WARNINGS} -pedantic)

set(HPM_METRICS_CASES group_name group_number events_file event_list)
foreach(case ${HPM_METRICS_CASES})
  add_test(NAME hpm.metrics.${case}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/hpm/run_metrics.py ${case}
                   $<TARGET_FILE:hpm_metrics> $<TARGET_FILE:hpm_scenarios>)
  set_tests_properties(hpm.metrics.${case} PROPERTIES ENVIRONMENT
                       "XDG_CACHE_HOME=${CMAKE_BINARY_DIR}/test-cache")
endforeach()
if(TARGET hpm_fortran_noheader)
  add_test(NAME hpm.metrics.fortran
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/hpm/run_metrics.py fortran
                   $<TARGET_FILE:hpm_fortran_noheader> $<TARGET_FILE:hpm_scenarios>)
  set_tests_properties(hpm.metrics.fortran PROPERTIES ENVIRONMENT
                       "XDG_CACHE_HOME=${CMAKE_BINARY_DIR}/test-cache")
endif()
