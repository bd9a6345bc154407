# A C program written like the AIX pmapi clients (tests/aix_client/client.c), built against
# libpmapi as a client builds and run as a test; the sanitizer builds run it under ASan/UBSan.
add_executable(aix_client ${CMAKE_CURRENT_SOURCE_DIR}/aix_client/client.c)
target_link_libraries(aix_client PRIVATE pmapi)
set_target_properties(aix_client PROPERTIES C_STANDARD 99 C_EXTENSIONS OFF)
target_compile_options(aix_client PRIVATE -Wall -Wextra -pedantic -Werror)
add_test(NAME aix.client COMMAND aix_client)
set_tests_properties(aix.client PROPERTIES
                     ENVIRONMENT "XDG_RUNTIME_DIR=${CMAKE_BINARY_DIR}/test-runtime")
