# xsdt_add_provider(TARGET PROVIDER_FILE): the `dtrace -h` / `dtrace -G`
# build step of a provider file for one target, with xsdt-dtrace.
#
#   include(path/to/xsdt/sdt/dtrace/xsdt-dtrace.cmake)
#   add_executable(httpd main.c)
#   xsdt_add_provider(httpd httpd_provider.d)   # main.c: #include "httpd_provider.h"
#
# Writes <name>.h (name: the provider file's name without its extension)
# into ${CMAKE_CURRENT_BINARY_DIR}/xsdt-dtrace/<target>/ and puts that
# directory on the target's include path; compiles <name>.o, which defines
# the probes' semaphores, with the target's C compiler (CC: the compiler,
# plus --target=${CMAKE_C_COMPILER_TARGET} for clang when set; CFLAGS:
# ${CMAKE_C_FLAGS}), so a cross build gets an object for its target; links
# that object into the target.
#
# The tool: the xsdt-dtrace target in xsdt's own build, else the cache
# variable XSDT_DTRACE_EXECUTABLE (looked up on PATH when unset).
# The probe headers the generated header includes (<xsdt/usdt.h>): the
# xsdt::usdt target when the project has it, else the cache variable
# XSDT_INCLUDE_DIRS (xsdt's sdt/include and arches/<arch>/include), else
# the compiler's default include path.
include_guard(GLOBAL)

set(XSDT_INCLUDE_DIRS "" CACHE STRING
  "xsdt's probe headers for xsdt_add_provider: sdt/include;arches/<arch>/include")

# A word that xsdt-dtrace's shell-style split of $CC gives back as it is.
function(_xsdt_shell_quote out word)
  if(word MATCHES "^[A-Za-z0-9@%+=:,./_-]+$")
    set(${out} "${word}" PARENT_SCOPE)
  else()
    string(REPLACE "'" "'\\''" word "${word}")
    set(${out} "'${word}'" PARENT_SCOPE)
  endif()
endfunction()

function(xsdt_add_provider target provider_file)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "xsdt_add_provider: no target '${target}'")
  endif()
  get_filename_component(provider "${provider_file}" ABSOLUTE
    BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(name "${provider}" NAME_WLE)
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/xsdt-dtrace/${target}")
  set(header "${dir}/${name}.h")
  set(object "${dir}/${name}.o")
  file(MAKE_DIRECTORY "${dir}")

  if(TARGET xsdt-dtrace)
    set(tool "$<TARGET_FILE:xsdt-dtrace>")
    set(tool_dependency xsdt-dtrace)
  else()
    if(NOT XSDT_DTRACE_EXECUTABLE)
      find_program(XSDT_DTRACE_EXECUTABLE xsdt-dtrace)
    endif()
    if(NOT XSDT_DTRACE_EXECUTABLE)
      message(FATAL_ERROR "xsdt_add_provider: xsdt-dtrace not found; set "
        "XSDT_DTRACE_EXECUTABLE")
    endif()
    set(tool "${XSDT_DTRACE_EXECUTABLE}")
    set(tool_dependency "${XSDT_DTRACE_EXECUTABLE}")
  endif()

  # The target's C compiler (a C++-only project: its C++ compiler).
  if(CMAKE_C_COMPILER)
    set(lang C)
  elseif(CMAKE_CXX_COMPILER)
    set(lang CXX)
  else()
    message(FATAL_ERROR "xsdt_add_provider: the project enables neither C "
      "nor CXX, so there is no compiler for the semaphores' object")
  endif()
  _xsdt_shell_quote(cc "${CMAKE_${lang}_COMPILER}")
  if(CMAKE_${lang}_COMPILER_TARGET AND
     CMAKE_${lang}_COMPILER_ID MATCHES "Clang")
    _xsdt_shell_quote(triple "--target=${CMAKE_${lang}_COMPILER_TARGET}")
    string(APPEND cc " ${triple}")
  endif()
  set(cflags "${CMAKE_${lang}_FLAGS}")

  add_custom_command(OUTPUT "${header}"
    COMMAND "${tool}" -h -s "${provider}" -o "${header}"
    DEPENDS "${provider}" ${tool_dependency}
    COMMENT "xsdt-dtrace -h ${provider_file}"
    VERBATIM)
  add_custom_command(OUTPUT "${object}"
    COMMAND "${CMAKE_COMMAND}" -E env "CC=${cc}" "CFLAGS=${cflags}"
            "${tool}" -G -s "${provider}" -o "${object}"
    DEPENDS "${provider}" ${tool_dependency}
    COMMENT "xsdt-dtrace -G ${provider_file}"
    VERBATIM)
  set_source_files_properties("${object}" PROPERTIES
    EXTERNAL_OBJECT TRUE GENERATED TRUE)
  target_sources(${target} PRIVATE "${header}" "${object}")
  target_include_directories(${target} PRIVATE "${dir}")
  if(TARGET xsdt::usdt)
    target_link_libraries(${target} PRIVATE xsdt::usdt)
  elseif(XSDT_INCLUDE_DIRS)
    target_include_directories(${target} PRIVATE ${XSDT_INCLUDE_DIRS})
  endif()
endfunction()
