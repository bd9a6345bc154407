# Every function prototyped in include/pmapi.h must be exported by
# libpmapi.so with C linkage: the check dlopens the built library and dlsyms
# each name it finds in the header, then calls the families Linux cannot
# offer to see that they answer Pmapi_Unsupported instead of crashing.
add_executable(exports_check ${CMAKE_CURRENT_LIST_DIR}/exports/exports_check.cpp)
target_include_directories(exports_check PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_compile_definitions(exports_check PRIVATE
  PMAPI_HEADER="${PROJECT_SOURCE_DIR}/include/pmapi.h"
  PMAPI_METRICS_HEADER="${PROJECT_SOURCE_DIR}/include/pmapi_metrics.h"
  PMAPI_SHARED_LIBRARY="$<TARGET_FILE:pmapi>")
target_compile_options(exports_check PRIVATE ${PMAPI_WARNINGS})
target_link_libraries(exports_check PRIVATE GTest::gtest_main ${CMAKE_DL_LIBS})
add_dependencies(exports_check pmapi)
gtest_discover_tests(exports_check DISCOVERY_TIMEOUT 60)
