# Every function prototyped in include/pmapi.h must be exported by
# libpmapi.so with C linkage: the check dlopens the built library and dlsyms
# each name it finds in the header, then calls the families Linux cannot
# offer to see that they answer Pmapi_Unsupported instead of crashing.
add_executable(exports_check ${CMAKE_CURRENT_LIST_DIR}/exports/exports_check.cpp)
target_include_directories(exports_check PRIVATE ${PROJECT_SOURCE_DIR}/include)
# pmapi.h and the extension headers installed beside it, whose functions libpmapi.so exports.
set(exported_headers pmapi.h pmapi_topology.h pmapi_metrics.h pmapi_catalog.h pmapi_select.h)
list(TRANSFORM exported_headers PREPEND ${PROJECT_SOURCE_DIR}/include/)
string(REPLACE ";" ":" exported_headers "${exported_headers}")
target_compile_definitions(exports_check PRIVATE
  PMAPI_EXPORTED_HEADERS="${exported_headers}"
  PMAPI_SHARED_LIBRARY="$<TARGET_FILE:pmapi>")
target_compile_options(exports_check PRIVATE ${PMAPI_WARNINGS})
target_link_libraries(exports_check PRIVATE GTest::gtest_main ${CMAKE_DL_LIBS})
add_dependencies(exports_check pmapi)
gtest_discover_tests(exports_check DISCOVERY_TIMEOUT 60)
