# Programs that load libpmapi the ways real hosts do (tests/load_order/): dlopen'd and dlclose'd
# (a JVM), behind libhpm, under OpenMP. Each is its own process: what they test is the
# process's set of loaded objects.
set(LOAD_ORDER_DIR ${CMAKE_CURRENT_LIST_DIR}/load_order)
set(LOAD_ORDER_ENV "XDG_RUNTIME_DIR=${CMAKE_BINARY_DIR}/test-runtime")

# A library that starts threads through its own pthread_create import: one linked with the
# inheritance programs, one they dlopen after programming counting.
foreach(starter load_order_starter load_order_late_starter)
  add_library(${starter} SHARED ${LOAD_ORDER_DIR}/thread_starter.c)
  target_compile_options(${starter} PRIVATE ${PMAPI_WARNINGS})
  target_link_libraries(${starter} PRIVATE Threads::Threads)
  # Bound at load and read-only after (full RELRO): the slot to redirect sits on a protected page.
  target_link_options(${starter} PRIVATE LINKER:-z,relro,-z,now)
endforeach()

function(load_order_program name source)
  add_executable(${name} ${LOAD_ORDER_DIR}/${source})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  target_compile_options(${name} PRIVATE ${PMAPI_WARNINGS})
  target_link_libraries(${name} PRIVATE Threads::Threads ${CMAKE_DL_LIBS})
  add_dependencies(${name} pmapi)
  if(source STREQUAL "inherit_probe.c")
    target_link_libraries(${name} PRIVATE load_order_starter)
    add_dependencies(${name} load_order_late_starter)
    target_compile_definitions(${name} PRIVATE
                               LATE_STARTER_PATH="$<TARGET_FILE:load_order_late_starter>")
  endif()
endfunction()

foreach(case dlclose_cycles dlclose_thread_exit)
  load_order_program(load_order_${case} ${case}.c)
  add_test(NAME load_order.${case} COMMAND load_order_${case} $<TARGET_FILE:pmapi>)
endforeach()

# libpmc carries a private copy of the core and its catalog (compat/netbsd/CMakeLists.txt).
if(TARGET pmc)
  add_test(NAME load_order.dlclose_cycles_libpmc
           COMMAND load_order_dlclose_cycles $<TARGET_FILE:pmc> pmc_event_count)
  set_tests_properties(load_order.dlclose_cycles_libpmc PROPERTIES ENVIRONMENT "${LOAD_ORDER_ENV}")
endif()

# libhpm's runs are freed after hpmTerminate, with or without dlclose.
load_order_program(load_order_hpm_cycles hpm_cycles.c)
add_dependencies(load_order_hpm_cycles hpm)
add_test(NAME load_order.hpm_cycles COMMAND load_order_hpm_cycles $<TARGET_FILE:hpm>)

load_order_program(load_order_inherit_dlopen inherit_probe.c)
target_compile_definitions(load_order_inherit_dlopen PRIVATE INHERIT_VIA_DLOPEN)
add_test(NAME load_order.inherit_dlopen COMMAND load_order_inherit_dlopen $<TARGET_FILE:pmapi>)

# The same, the program too bound at load with full RELRO.
load_order_program(load_order_inherit_bind_now inherit_probe.c)
target_compile_definitions(load_order_inherit_bind_now PRIVATE INHERIT_VIA_DLOPEN)
target_link_options(load_order_inherit_bind_now PRIVATE LINKER:-z,relro,-z,now)
add_test(NAME load_order.inherit_bind_now
         COMMAND load_order_inherit_bind_now $<TARGET_FILE:pmapi>)

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
load_order_program(load_order_hpm_terminate_race hpm_terminate_race.c)
link_only_libhpm(load_order_hpm_terminate_race)
add_test(NAME load_order.hpm_terminate_race COMMAND load_order_hpm_terminate_race)
set(load_order_tests load_order.dlclose_cycles load_order.dlclose_thread_exit
    load_order.hpm_cycles load_order.inherit_dlopen load_order.inherit_bind_now
    load_order.inherit_hpm load_order.hpm_terminate_race)

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
  # The OpenMP runtime is not built with ThreadSanitizer: its own synchronization is invisible to
  # TSan, which says to ignore what happens inside it.
  set(openmp_env "${LOAD_ORDER_ENV}")
  if(PMAPI_SANITIZE MATCHES "thread")
    list(APPEND openmp_env "TSAN_OPTIONS=halt_on_error=1:ignore_noninstrumented_modules=1")
  endif()
  set_tests_properties(load_order.inherit_openmp_dlopen load_order.inherit_openmp_hpm
                       PROPERTIES ENVIRONMENT "${openmp_env}" SKIP_RETURN_CODE 77)
endif()
set_tests_properties(${load_order_tests} PROPERTIES ENVIRONMENT "${LOAD_ORDER_ENV}"
                     SKIP_RETURN_CODE 77)
