# tests/netbsd_*_test.cpp exercise compat/netbsd: besides the core objects the
# glob in CMakeLists.txt links, they need the layer's objects and its test
# helpers; the tool's test also needs the tool and a workload to run under it.
file(GLOB PMC_NETBSD_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/netbsd_*_test.cpp)
foreach(source ${PMC_NETBSD_TESTS})
  get_filename_component(name ${source} NAME_WE)
  target_link_libraries(${name} PRIVATE pmc_objects)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/compat/netbsd/tests)
endforeach()

if(TARGET netbsd_tool_test)
  add_dependencies(netbsd_tool_test pmc_tool netbsd_getppid_calls)
  target_compile_definitions(netbsd_tool_test PRIVATE
    PMC_TOOL_PATH="$<TARGET_FILE:pmc_tool>"
    GETPPID_CALLS_PATH="$<TARGET_FILE:netbsd_getppid_calls>")
endif()

# The installed tree: header, pmc.pc, libpmc.so and bin/pmc, used as a client would.
add_test(NAME install.netbsd_client
         COMMAND ${PROJECT_SOURCE_DIR}/compat/netbsd/tests/install_client.sh ${PROJECT_BINARY_DIR}
                 ${PROJECT_SOURCE_DIR} ${CMAKE_INSTALL_LIBDIR} ${CMAKE_C_COMPILER})
set_tests_properties(install.netbsd_client PROPERTIES TIMEOUT 300)
