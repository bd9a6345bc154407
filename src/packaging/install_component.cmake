# SPDX-License-Identifier: MIT
# pmapi_install_component(<target> <component>): installs the shared library <target> into
# <libdir> and its imported target pmapi::<component> into <libdir>/cmake/pmapi, where
# find_package(pmapi COMPONENTS <component>) finds it (pmapiConfig.cmake.in). One export file
# per component: a library this build left out (libpmapi-mpi without MPI) has no file, and
# find_package then reports that component as not found.
function(pmapi_install_component target component)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${component})
  install(TARGETS ${target} EXPORT pmapi_${component}Targets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT pmapi_${component}Targets NAMESPACE pmapi::
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/pmapi)
endfunction()
