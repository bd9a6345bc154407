# Validation (docs/validation.md): workloads with known counts counted by
# libpmapi, perf stat and PAPI in one run. Functional, not timed.
pkg_check_modules(PAPI IMPORTED_TARGET papi)
if(PAPI_FOUND)
  set(PMAPI_VALIDATION_DIR ${CMAKE_CURRENT_LIST_DIR}/validation)
  add_executable(pmapi_workload ${PMAPI_VALIDATION_DIR}/workload_main.cpp
                                ${PMAPI_VALIDATION_DIR}/workloads.cpp
                                ${PMAPI_VALIDATION_DIR}/regions.cpp)
  target_link_libraries(pmapi_workload PRIVATE pmapi PkgConfig::PAPI)
  target_compile_options(pmapi_workload PRIVATE ${PMAPI_WARNINGS})

  add_executable(pmapi_validate ${PMAPI_VALIDATION_DIR}/validate_main.cpp
                                ${PMAPI_VALIDATION_DIR}/workloads.cpp
                                ${PMAPI_VALIDATION_DIR}/regions.cpp
                                ${PMAPI_VALIDATION_DIR}/spawn.cpp)
  target_link_libraries(pmapi_validate PRIVATE Threads::Threads)
  target_compile_options(pmapi_validate PRIVATE ${PMAPI_WARNINGS})

  add_test(NAME validation.counts COMMAND pmapi_validate $<TARGET_FILE:pmapi_workload>)
  set_tests_properties(validation.counts PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
endif()
