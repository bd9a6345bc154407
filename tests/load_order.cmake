# Programs that load libpmapi the ways real hosts do (tests/load_order/): dlopen'd and dlclose'd
# (a JVM), behind libhpm, under OpenMP. Each is its own process: what they test is the
# process's set of loaded objects.
set(LOAD_ORDER_DIR ${CMAKE_CURRENT_LIST_DIR}/load_order)
set(LOAD_ORDER_ENV "XDG_RUNTIME_DIR=${CMAKE_BINARY_DIR}/test-runtime")

function(load_order_program name source)
  add_executable(${name} ${LOAD_ORDER_DIR}/${source})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  target_compile_options(${name} PRIVATE ${PMAPI_WARNINGS})
  target_link_libraries(${name} PRIVATE Threads::Threads ${CMAKE_DL_LIBS})
  add_dependencies(${name} pmapi)
endfunction()

foreach(case dlclose_cycles dlclose_thread_exit)
  load_order_program(load_order_${case} ${case}.c)
  add_test(NAME load_order.${case} COMMAND load_order_${case} $<TARGET_FILE:pmapi>)
endforeach()

load_order_program(load_order_inherit_dlopen inherit_probe.c)
target_compile_definitions(load_order_inherit_dlopen PRIVATE INHERIT_VIA_DLOPEN)
add_test(NAME load_order.inherit_dlopen COMMAND load_order_inherit_dlopen $<TARGET_FILE:pmapi>)

# Linked against libhpm only, by its file (the target would add libpmapi.so to the program's
# own needed list): libpmapi is libhpm's dependency, loaded after libc.
function(link_only_libhpm name)
  add_dependencies(${name} hpm)
  target_link_libraries(${name} PRIVATE $<TARGET_FILE:hpm>)
  target_link_options(${name} PRIVATE LINKER:-rpath,$<TARGET_FILE_DIR:hpm>
                      LINKER:-rpath-link,$<TARGET_FILE_DIR:pmapi>)
endfunction()
load_order_program(load_order_inherit_hpm inherit_probe.c)
target_compile_definitions(load_order_inherit_hpm PRIVATE INHERIT_VIA_HPM)
link_only_libhpm(load_order_inherit_hpm)
add_test(NAME load_order.inherit_hpm COMMAND load_order_inherit_hpm)
set(load_order_tests load_order.dlclose_cycles load_order.dlclose_thread_exit
    load_order.inherit_dlopen load_order.inherit_hpm)

find_package(OpenMP COMPONENTS C)
if(OpenMP_C_FOUND)
  foreach(via dlopen hpm)
    load_order_program(load_order_inherit_openmp_${via} inherit_probe.c)
    string(TOUPPER ${via} VIA)
    target_compile_definitions(load_order_inherit_openmp_${via} PRIVATE INHERIT_VIA_${VIA})
    target_link_libraries(load_order_inherit_openmp_${via} PRIVATE OpenMP::OpenMP_C)
  endforeach()
  link_only_libhpm(load_order_inherit_openmp_hpm)
  add_test(NAME load_order.inherit_openmp_dlopen
           COMMAND load_order_inherit_openmp_dlopen $<TARGET_FILE:pmapi>)
  add_test(NAME load_order.inherit_openmp_hpm COMMAND load_order_inherit_openmp_hpm)
  list(APPEND load_order_tests load_order.inherit_openmp_dlopen load_order.inherit_openmp_hpm)
endif()
set_tests_properties(${load_order_tests} PROPERTIES ENVIRONMENT "${LOAD_ORDER_ENV}"
                     SKIP_RETURN_CODE 77)
