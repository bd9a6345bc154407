# SPDX-License-Identifier: MIT
# pmapi_install_pkg_config(<name>.pc.in <stem>): installs <name>.pc into <libdir>/pkgconfig.
# A .pc file must name the prefix actually installed to, and that is known only at install time
# (`cmake --install build --prefix /opt/x`). So the template is configured twice: now, with
# every value but the prefix (<stem>_PC_LIBDIR and <stem>_PC_INCLUDEDIR, relative to ${prefix}
# unless absolute), and again by the install script, which fills in <stem>_PC_PREFIX.
function(pmapi_install_pkg_config template stem)
  get_filename_component(name ${template} NAME_WE)
  set(${stem}_PC_PREFIX "@${stem}_PC_PREFIX@")
  foreach(kind LIBDIR INCLUDEDIR)
    if(IS_ABSOLUTE "${CMAKE_INSTALL_${kind}}")
      set(${stem}_PC_${kind} "${CMAKE_INSTALL_${kind}}")
    else()
      set(${stem}_PC_${kind} "\${prefix}/${CMAKE_INSTALL_${kind}}")
    endif()
  endforeach()
  set(stage ${CMAKE_CURRENT_BINARY_DIR}/${name}.pc.stage)
  set(final ${CMAKE_CURRENT_BINARY_DIR}/${name}.pc)
  configure_file(${template} ${stage} @ONLY)
  install(CODE "
    set(${stem}_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
    configure_file(\"${stage}\" \"${final}\" @ONLY)
  ")
  install(FILES ${final} DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()
