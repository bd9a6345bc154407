# The installed reference documentation (docs/CMakeLists.txt, tests/docs/): man pages for every
# exported call and every tool, free of groff warnings, their prototypes the headers' own, and
# docs/*.md under <docdir>, named there by the pages and the tools' --help.
set(PMAPI_DOCS_TEST_PREFIX ${CMAKE_CURRENT_BINARY_DIR}/docs-prefix)
add_test(NAME docs.install
         COMMAND ${CMAKE_COMMAND} --install ${PROJECT_BINARY_DIR} --prefix ${PMAPI_DOCS_TEST_PREFIX})
# Every `cmake --install` of this build writes the same install_manifest.txt: one at a time.
set_tests_properties(docs.install PROPERTIES FIXTURES_SETUP docs_installed TIMEOUT 120
                     RESOURCE_LOCK cmake_install)
foreach(section names warnings docs defaults)
  add_test(NAME docs.${section}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/docs/installed_docs.sh ${section}
                   ${PMAPI_DOCS_TEST_PREFIX} ${CMAKE_INSTALL_FULL_DOCDIR} ${CMAKE_INSTALL_DOCDIR}
                   ${CMAKE_INSTALL_MANDIR} ${CMAKE_INSTALL_LIBDIR} ${CMAKE_INSTALL_BINDIR})
  set_tests_properties(docs.${section} PROPERTIES FIXTURES_REQUIRED docs_installed TIMEOUT 300)
endforeach()
# Every prototype of a page's SYNOPSIS is declared, the same, in an installed header.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME docs.synopsis
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/docs/synopsis_check.py
                 ${PMAPI_DOCS_TEST_PREFIX}/${CMAKE_INSTALL_MANDIR}
                 ${PMAPI_DOCS_TEST_PREFIX}/${CMAKE_INSTALL_INCLUDEDIR})
set_tests_properties(docs.synopsis PROPERTIES FIXTURES_REQUIRED docs_installed TIMEOUT 60)
