# Run by cpack after the .deb packages are built (CPACK_POST_BUILD_SCRIPTS,
# packages.cmake): writes each package's Multi-Arch field, which CMake 3.25's
# DEB generator cannot, from CPACK_XSDT_DEB_MULTIARCH ("<package>=<value>"
# items). The package is unpacked and rebuilt with dpkg-deb; its files and
# their md5sums are unchanged.
foreach(deb ${CPACK_PACKAGE_FILES})
  if(NOT deb MATCHES "\\.deb$")
    continue()
  endif()
  execute_process(COMMAND dpkg-deb --field ${deb} Package
                  OUTPUT_VARIABLE package OUTPUT_STRIP_TRAILING_WHITESPACE
                  COMMAND_ERROR_IS_FATAL ANY)
  set(value "")
  foreach(item ${CPACK_XSDT_DEB_MULTIARCH})
    if(item MATCHES "^${package}=(.+)$")
      set(value ${CMAKE_MATCH_1})
    endif()
  endforeach()
  if(NOT value)
    message(FATAL_ERROR "xsdt: no Multi-Arch value for package ${package} "
                        "(CPACK_XSDT_DEB_MULTIARCH in packages.cmake)")
  endif()
  set(tree ${deb}.tree)
  file(REMOVE_RECURSE ${tree})
  execute_process(COMMAND dpkg-deb --raw-extract ${deb} ${tree}
                  COMMAND_ERROR_IS_FATAL ANY)
  # The field goes after Architecture (any line may be the first).
  file(READ ${tree}/DEBIAN/control control)
  string(REGEX REPLACE "\nMulti-Arch: [^\n]*" "" control "\n${control}")
  string(REGEX REPLACE "(\nArchitecture: [^\n]*)" "\\1\nMulti-Arch: ${value}"
         with_field "${control}")
  if(with_field STREQUAL control)
    message(FATAL_ERROR "xsdt: ${deb}: no Architecture field in DEBIAN/control")
  endif()
  string(SUBSTRING "${with_field}" 1 -1 with_field)
  file(WRITE ${tree}/DEBIAN/control "${with_field}")
  execute_process(COMMAND dpkg-deb --root-owner-group --build ${tree} ${deb}
                  OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
  file(REMOVE_RECURSE ${tree})
  message(STATUS "xsdt: ${package}: Multi-Arch: ${value}")
endforeach()
