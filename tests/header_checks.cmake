# <pmapi.h> must compile cleanly for every kind of client: C99, C11, C++11,
# C++17, with -Wall -Wextra -pedantic -Werror, under gcc and (when
# installed) clang.  Two layers:
#  - build targets with the project's compilers, so a header regression
#    breaks the build itself;
#  - ctest entries that invoke each available compiler directly, so clang is
#    covered too and the results show up as named tests.
# The sources are in tests/header/; they see only include/, as a client does.

set(PMAPI_HEADER_TEST_DIR ${CMAKE_CURRENT_SOURCE_DIR}/header)
set(PMAPI_HEADER_FLAGS -Wall -Wextra -pedantic -Werror -Wwrite-strings)

function(pmapi_header_target name lang std)
  if(lang STREQUAL "C")
    set(sources compile.c tid_guard.c)
  else()
    set(sources compile.cpp tid_guard.cpp)
  endif()
  list(TRANSFORM sources PREPEND ${PMAPI_HEADER_TEST_DIR}/)
  add_library(${name} OBJECT ${sources})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  target_compile_options(${name} PRIVATE ${PMAPI_HEADER_FLAGS})
  set_target_properties(${name} PROPERTIES
    ${lang}_STANDARD ${std} ${lang}_STANDARD_REQUIRED ON ${lang}_EXTENSIONS OFF)
endfunction()

pmapi_header_target(header_c99 C 99)
pmapi_header_target(header_c11 C 11)
pmapi_header_target(header_cxx11 CXX 11)
pmapi_header_target(header_cxx17 CXX 17)

# Bitfield positions are only observable at run time.
foreach(lang c cxx)
  if(lang STREQUAL "c")
    add_executable(header_bits_${lang} ${PMAPI_HEADER_TEST_DIR}/bits_run.c)
    set_target_properties(header_bits_${lang} PROPERTIES C_STANDARD 99 C_EXTENSIONS OFF)
  else()
    add_executable(header_bits_${lang} ${PMAPI_HEADER_TEST_DIR}/bits_run.cpp)
    set_target_properties(header_bits_${lang} PROPERTIES CXX_STANDARD 11 CXX_EXTENSIONS OFF)
  endif()
  target_include_directories(header_bits_${lang} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  target_compile_options(header_bits_${lang} PRIVATE ${PMAPI_HEADER_FLAGS})
  add_test(NAME header.bits.${lang} COMMAND header_bits_${lang})
endforeach()

# Direct compiler runs, one test per compiler x standard x source.
set(PMAPI_HEADER_OUT ${CMAKE_CURRENT_BINARY_DIR}/header_out)
file(MAKE_DIRECTORY ${PMAPI_HEADER_OUT})
find_program(PMAPI_GCC gcc)
find_program(PMAPI_GXX g++)
find_program(PMAPI_CLANG clang)
find_program(PMAPI_CLANGXX clang++)

function(pmapi_header_compile_test name compiler std source)
  add_test(NAME ${name}
           COMMAND ${compiler} -std=${std} ${PMAPI_HEADER_FLAGS} ${ARGN}
                   -I${PROJECT_SOURCE_DIR}/include -c ${PMAPI_HEADER_TEST_DIR}/${source}
                   -o ${PMAPI_HEADER_OUT}/${name}.o)
endfunction()

foreach(tool gcc clang)
  if(tool STREQUAL "gcc")
    set(cc ${PMAPI_GCC})
    set(cxx ${PMAPI_GXX})
  else()
    set(cc ${PMAPI_CLANG})
    set(cxx ${PMAPI_CLANGXX})
  endif()
  if(cc)
    foreach(std c99 c11)
      pmapi_header_compile_test(header.compile.${tool}.${std} ${cc} ${std} compile.c)
      pmapi_header_compile_test(header.tid_guard.${tool}.${std} ${cc} ${std} tid_guard.c)
    endforeach()
  else()
    message(STATUS "header checks: no ${tool} C compiler, skipping its tests")
  endif()
  if(cxx)
    foreach(std c++11 c++17)
      pmapi_header_compile_test(header.compile.${tool}.${std} ${cxx} ${std} compile.cpp)
      pmapi_header_compile_test(header.tid_guard.${tool}.${std} ${cxx} ${std} tid_guard.cpp)
    endforeach()
  endif()
endforeach()

# The checks themselves must be able to fail: the same compile with one
# deliberately false assertion added has to be rejected in every dialect
# (the C99 form is an array-size trick, easy to get silently wrong), and
# rejected for that assertion, not for some unrelated reason.
foreach(std c99 c11)
  pmapi_header_compile_test(header.selftest.${std} ${CMAKE_C_COMPILER} ${std} compile.c
                            -DPMAPI_TEST_BREAK_ON_PURPOSE)
  set_tests_properties(header.selftest.${std} PROPERTIES PASS_REGULAR_EXPRESSION deliberately_false)
endforeach()
pmapi_header_compile_test(header.selftest.c++11 ${CMAKE_CXX_COMPILER} c++11 compile.cpp
                          -DPMAPI_TEST_BREAK_ON_PURPOSE)
set_tests_properties(header.selftest.c++11 PROPERTIES PASS_REGULAR_EXPRESSION deliberately_false)
