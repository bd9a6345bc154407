# The stress tests (tests/stress_*.cpp): not *_test.cpp, so that they get the label "stress"
# and a longer timeout here (`ctest -L stress` runs them alone, `ctest -LE stress` skips them).
foreach(name stress_threads stress_system)
  add_executable(${name} ${CMAKE_CURRENT_LIST_DIR}/${name}.cpp)
  target_link_libraries(${name} PRIVATE pmapi_objects pmapi_test_support GTest::gtest_main)
  target_compile_options(${name} PRIVATE ${PMAPI_WARNINGS})
  # stress_system counts a rare system call machine-wide (tests/CMakeLists.txt).
  set(lock ${name})
  if(name STREQUAL stress_system)
    set(lock machine_wide_rare_syscall)
  endif()
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS stress TIMEOUT 300
                       RESOURCE_LOCK ${lock})
endforeach()
