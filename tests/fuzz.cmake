# libFuzzer targets (tests/fuzz/), built when PMAPI_BUILD_FUZZERS is on (clang only; the
# top-level CMakeLists.txt then compiles everything with -fsanitize=fuzzer-no-link so that the
# library reports coverage). scripts/fuzz builds the `pmapi_fuzzers` target in build-fuzz and
# runs every fuzzer listed in build-fuzz/fuzzers.list; docs/reliability.md says how.
#
# To add a fuzzer (say for pmcount's argument parser): write tests/fuzz/fuzz_<name>.cpp with
# LLVMFuzzerTestOneInput, put seed inputs in tests/fuzz/corpus/fuzz_<name>/, and add a line
#   pmapi_add_fuzzer(fuzz_<name> fuzz_<name>.cpp LIBS <the object library it needs>)
# below. scripts/fuzz picks it up from the list with no other change.
if(NOT PMAPI_BUILD_FUZZERS)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "PMAPI_BUILD_FUZZERS needs clang (libFuzzer): configure with CXX=clang++")
endif()

add_custom_target(pmapi_fuzzers)
set(PMAPI_FUZZ_LIST "")

# REAL_KERNEL marks a target that makes real perf system calls (slow): scripts/fuzz gives it a
# short run. CORPUS names another target's seed corpus to share; DEFINES are compile definitions.
function(pmapi_add_fuzzer name source)
  cmake_parse_arguments(FUZZ "REAL_KERNEL" "CORPUS" "LIBS;DEFINES" ${ARGN})
  if(NOT FUZZ_CORPUS)
    set(FUZZ_CORPUS ${name})
  endif()
  set(kind pure)
  if(FUZZ_REAL_KERNEL)
    set(kind real_kernel)
  endif()
  add_executable(${name} ${CMAKE_CURRENT_LIST_DIR}/fuzz/${source})
  target_link_libraries(${name} PRIVATE pmapi_objects pmapi_test_support ${FUZZ_LIBS})
  target_compile_options(${name} PRIVATE ${PMAPI_WARNINGS})
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  target_compile_definitions(${name} PRIVATE ${FUZZ_DEFINES})
  add_dependencies(pmapi_fuzzers ${name})
  # name, binary, seed corpus, kind: one line each, for scripts/fuzz.
  set(PMAPI_FUZZ_LIST
      "${PMAPI_FUZZ_LIST}${name}\t$<TARGET_FILE:${name}>\t${CMAKE_CURRENT_LIST_DIR}/fuzz/corpus/${FUZZ_CORPUS}\t${kind}\n"
      PARENT_SCOPE)
endfunction()

# The same inputs twice: through the in-memory perf kernel (fast, the long run) and through
# the real one (slow, a short run).
pmapi_add_fuzzer(fuzz_set_program_sim fuzz_set_program.cpp CORPUS fuzz_set_program
                 DEFINES PMAPI_FUZZ_SIMULATED_KERNEL)
pmapi_add_fuzzer(fuzz_set_program fuzz_set_program.cpp REAL_KERNEL)
pmapi_add_fuzzer(fuzz_event_table fuzz_event_table.cpp)
pmapi_add_fuzzer(fuzz_group_table fuzz_group_table.cpp)
pmapi_add_fuzzer(fuzz_group_formula fuzz_group_formula.cpp)
pmapi_add_fuzzer(pmcount_fuzz_options pmcount_fuzz_options.cpp LIBS pmcount_pure)
pmapi_add_fuzzer(fuzz_event_spec fuzz_event_spec.cpp)
pmapi_add_fuzzer(fuzz_event_search fuzz_event_search.cpp)

file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/fuzzers.list CONTENT "${PMAPI_FUZZ_LIST}")
