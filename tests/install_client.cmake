# install.client: install this build into a scratch prefix and build and run
# a C client against the installed tree only (tests/install_client.sh).
# It installs whatever is built, so it runs after the libraries exist.
add_test(NAME install.client
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/install_client.sh ${PROJECT_BINARY_DIR}
                 ${PROJECT_SOURCE_DIR} ${CMAKE_INSTALL_LIBDIR} ${CMAKE_C_COMPILER})
# Two compiles, two links, a CMake configure: give it room on a slow VM.
set_tests_properties(install.client PROPERTIES TIMEOUT 300)
