# Reads the arches' data files, arches/<arch>/arch.json, for CMake: the
# toolchain files, the conformance tests, libxsdt's choice of machdep and the
# host tools' arch registry all ask here, none keeps its own copy.
# docs/porting.md lists the fields.
#
#   xsdt_arch_list(<out>)                 every arch (arches/*/arch.json),
#                                         sorted by name
#   xsdt_read_arch(<arch> <prefix>)       sets <prefix>_FILE (the arch.json),
#                                         _TRIPLE, _DATA_MODEL,
#                                         _OBJDUMP_MACHINE, _PREDEFINED,
#                                         _CHAR_SIGNED (ON
#                                         or OFF), _NATIVE (ON when the arch
#                                         needs no emulator), and the lists
#                                         _ALIASES, _SHARES, _EMULATOR,
#                                         _PACKAGES, _TRAITS,
#                                         _EMULATED_TRAITS, _CFLAGS, _VARIANTS
#                                         and _VARIANT_<name>_CFLAGS; an
#                                         unknown arch or a damaged file is a
#                                         fatal error
#   xsdt_arch_for_processor(<cpu> <out>)  the arch whose name, alias or
#                                         triple's first word is <cpu> (a
#                                         CMAKE_SYSTEM_PROCESSOR: x86_64,
#                                         AMD64, i686, arm64...; case
#                                         ignored), or ""
#   xsdt_toolchain_arch()                 for toolchains/<family>.cmake: the
#                                         target settings of XSDT_ARCH
#   xsdt_write_backend_selector(<file>)   writes the <xsdt/arch/usdt.h> of
#                                         an installed tree: the backend of
#                                         the target being compiled, chosen
#                                         by each arch's "predefined"
include_guard(GLOBAL)
set(XSDT_ARCHES_DIR ${CMAKE_CURRENT_LIST_DIR}/../arches)
cmake_path(NORMAL_PATH XSDT_ARCHES_DIR)
# The functions find arches/ from their own file, not from a variable: the
# first include may happen in a function's scope (a toolchain file read by
# conformance/CMakeLists.txt), whose variables do not outlive it.

function(xsdt_arch_list out)
  get_filename_component(root ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../arches ABSOLUTE)
  file(GLOB files ${root}/*/arch.json)
  set(arches "")
  foreach(file ${files})
    get_filename_component(dir ${file} DIRECTORY)
    get_filename_component(arch ${dir} NAME)
    list(APPEND arches ${arch})
  endforeach()
  list(SORT arches)
  set(${out} ${arches} PARENT_SCOPE)
endfunction()

# A JSON array of strings as a CMake list; an absent key is an empty list,
# anything else than an array is an error.
function(_xsdt_json_list json file key out)
  set(items "")
  string(JSON type ERROR_VARIABLE missing TYPE "${json}" ${key})
  if(NOT missing)
    if(NOT type STREQUAL "ARRAY")
      message(FATAL_ERROR "xsdt: ${file}: \"${key}\" must be an array of strings")
    endif()
    string(JSON n LENGTH "${json}" ${key})
    if(n GREATER 0)
      math(EXPR last "${n} - 1")
      foreach(i RANGE ${last})
        string(JSON item GET "${json}" ${key} ${i})
        list(APPEND items "${item}")
      endforeach()
    endif()
  endif()
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

# A required string (or boolean) member.
function(_xsdt_json_member json file key out)
  string(JSON value ERROR_VARIABLE missing GET "${json}" ${key})
  if(missing)
    message(FATAL_ERROR "xsdt: ${file}: no \"${key}\" (docs/porting.md lists the fields)")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

function(xsdt_read_arch arch prefix)
  get_filename_component(root ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../arches ABSOLUTE)
  set(file ${root}/${arch}/arch.json)
  if(arch STREQUAL "" OR NOT EXISTS ${file})
    xsdt_arch_list(known)
    list(JOIN known ", " known)
    message(FATAL_ERROR "xsdt: no arches/${arch}/arch.json (the arches: ${known})")
  endif()
  file(READ ${file} json)
  string(JSON type ERROR_VARIABLE error TYPE "${json}")
  if(error OR NOT type STREQUAL "OBJECT")
    message(FATAL_ERROR "xsdt: ${file} is not a JSON object: ${error}")
  endif()
  set(${prefix}_FILE ${file} PARENT_SCOPE)
  foreach(key triple debian_arch predefined data_model objdump_machine char_signed)
    _xsdt_json_member("${json}" ${file} ${key} value)
    string(TOUPPER ${key} upper)
    set(${prefix}_${upper} "${value}" PARENT_SCOPE)
  endforeach()
  foreach(key aliases shares emulator packages traits emulated_traits cflags
              runtime_cflags)
    _xsdt_json_list("${json}" ${file} ${key} items)
    string(TOUPPER ${key} upper)
    set(${prefix}_${upper} "${items}" PARENT_SCOPE)
  endforeach()
  # The host arches whose kernel runs the arch's programs itself through the
  # sysroot's dynamic loader (arch.json "host_loader": {"x86_64": [words]},
  # i386 on x86-64): ${prefix}_HOST_LOADER_HOSTS, and the words of each in
  # ${prefix}_HOST_LOADER_<host>.
  set(hosts "")
  string(JSON type ERROR_VARIABLE no_loader TYPE "${json}" host_loader)
  if(NOT no_loader)
    if(NOT type STREQUAL "OBJECT")
      message(FATAL_ERROR "xsdt: ${file}: \"host_loader\" must be an object of host arch to command")
    endif()
    string(JSON n LENGTH "${json}" host_loader)
    if(n GREATER 0)
      math(EXPR last "${n} - 1")
      foreach(i RANGE ${last})
        string(JSON host MEMBER "${json}" host_loader ${i})
        list(APPEND hosts ${host})
        _xsdt_json_list("${json}" ${file} "host_loader;${host}" words)
        set(${prefix}_HOST_LOADER_${host} "${words}" PARENT_SCOPE)
      endforeach()
    endif()
  endif()
  set(${prefix}_HOST_LOADER_HOSTS "${hosts}" PARENT_SCOPE)
  # Variants (arch.json "variants", ci/arch_facts.py): their names, and
  # the cflags of each (its own, else the base's).
  set(variants "")
  string(JSON type ERROR_VARIABLE no_variants TYPE "${json}" variants)
  if(NOT no_variants)
    if(NOT type STREQUAL "OBJECT")
      message(FATAL_ERROR "xsdt: ${file}: \"variants\" must be an object")
    endif()
    string(JSON n LENGTH "${json}" variants)
    if(n GREATER 0)
      math(EXPR last "${n} - 1")
      foreach(i RANGE ${last})
        string(JSON name MEMBER "${json}" variants ${i})
        list(APPEND variants ${name})
        string(JSON type ERROR_VARIABLE own_cflags_missing TYPE "${json}" variants ${name} cflags)
        if(own_cflags_missing)
          _xsdt_json_list("${json}" ${file} cflags flags)
        else()
          _xsdt_json_list("${json}" ${file} "variants;${name};cflags" flags)
        endif()
        set(${prefix}_VARIANT_${name}_CFLAGS "${flags}" PARENT_SCOPE)
      endforeach()
    endif()
  endif()
  set(${prefix}_VARIANTS "${variants}" PARENT_SCOPE)
  _xsdt_json_list("${json}" ${file} emulator emulator)
  if(emulator)
    set(${prefix}_NATIVE OFF PARENT_SCOPE)
  else()
    set(${prefix}_NATIVE ON PARENT_SCOPE)
  endif()
endfunction()

function(xsdt_arch_for_processor processor out)
  string(TOLOWER "${processor}" cpu)
  xsdt_arch_list(arches)
  foreach(arch ${arches})
    xsdt_read_arch(${arch} a)
    string(REGEX REPLACE "-.*" "" triple_cpu "${a_TRIPLE}")
    set(names ${arch} ${a_ALIASES} ${triple_cpu})
    list(TRANSFORM names TOLOWER)
    if(cpu IN_LIST names)
      set(${out} ${arch} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "" PARENT_SCOPE)
endfunction()

# The part of a toolchain file that is the arch's: XSDT_ARCH (-DXSDT_ARCH=,
# an arch directory name) gives CMAKE_SYSTEM_NAME/PROCESSOR,
# CMAKE_CROSSCOMPILING_EMULATOR and XSDT_TRIPLE, XSDT_EMULATOR,
# XSDT_ARCH_PACKAGES, XSDT_ARCH_NATIVE, XSDT_ARCH_CFLAGS (also
# CMAKE_<LANG>_FLAGS_INIT). A macro: it sets them in the scope
# that reads the toolchain file.
macro(xsdt_toolchain_arch)
  if(NOT XSDT_ARCH)
    xsdt_arch_list(_xsdt_known)
    list(JOIN _xsdt_known ", " _xsdt_known)
    message(FATAL_ERROR "xsdt: this toolchain file needs -DXSDT_ARCH=<arch>, "
                        "one of: ${_xsdt_known}")
  endif()
  # try_compile projects read the toolchain file again, without the cache.
  list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES XSDT_ARCH)
  xsdt_read_arch(${XSDT_ARCH} _xsdt_arch)
  set(CMAKE_SYSTEM_NAME Linux)
  set(CMAKE_SYSTEM_PROCESSOR ${XSDT_ARCH})
  set(XSDT_TRIPLE ${_xsdt_arch_TRIPLE})
  set(XSDT_EMULATOR ${_xsdt_arch_EMULATOR})
  set(CMAKE_CROSSCOMPILING_EMULATOR ${_xsdt_arch_EMULATOR})
  set(XSDT_ARCH_PACKAGES ${_xsdt_arch_PACKAGES})
  set(XSDT_ARCH_NATIVE ${_xsdt_arch_NATIVE})
  # The flags every compiler of the arch needs (armhf: -mthumb, which clang
  # does not default to).
  set(XSDT_ARCH_CFLAGS ${_xsdt_arch_CFLAGS})
  list(JOIN XSDT_ARCH_CFLAGS " " _xsdt_arch_cflags)
  set(CMAKE_C_FLAGS_INIT "${_xsdt_arch_cflags}")
  set(CMAKE_CXX_FLAGS_INIT "${_xsdt_arch_cflags}")
endmacro()

# The installed <xsdt/arch/usdt.h>: one tree of headers for every target.
# Each backend is installed as <xsdt/arches/<arch>/usdt.h>, and this header
# includes the one whose arch.json "predefined" condition the compiler
# meets (its predefined macros), so that a single -I<prefix>/include (or
# none, in /usr/include) serves native and cross builds alike. A target no
# arch claims is an #error that lists the arches.
function(xsdt_write_backend_selector file)
  xsdt_arch_list(arches)
  string(CONCAT text
    "/* Generated by xsdt's build from each arches/<arch>/arch.json\n"
    " * (\"predefined\"): the probe backend of the target being compiled. */\n")
  set(keyword "#if")
  foreach(arch ${arches})
    xsdt_read_arch(${arch} a)
    string(APPEND text "${keyword} ${a_PREDEFINED}\n"
                       "#include <xsdt/arches/${arch}/usdt.h>\n")
    set(keyword "#elif")
  endforeach()
  list(JOIN arches ", " names)
  string(APPEND text "#else\n"
    "#error \"xsdt: no probe backend for this target (xsdt has: ${names})\"\n"
    "#endif\n")
  file(CONFIGURE OUTPUT ${file} CONTENT "${text}" @ONLY)
endfunction()
