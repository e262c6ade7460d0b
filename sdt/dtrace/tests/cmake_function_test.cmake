# The dtrace.cmake-function test (cmake -P): configures and builds
# cmake-project/ with xsdt_add_provider, runs the program, and checks with
# readelf that the probe's note keeps the `__` of its name and points at
# the semaphore that the -G object defines.
#   -DPROJECT_DIR -DBINARY_DIR -DGENERATOR -DC_COMPILER -DDTRACE
#   -DDTRACE_CMAKE -DINCLUDE_DIRS (directories separated by "|") -DREADELF
string(REPLACE "|" ";" include_dirs "${INCLUDE_DIRS}")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc
    OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${BINARY_DIR}")
# Not through run(): its ARGN would split the include directories' list.
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${PROJECT_DIR}"
  -B "${BINARY_DIR}" -G "${GENERATOR}" "-DCMAKE_C_COMPILER=${C_COMPILER}"
  "-DXSDT_DTRACE_CMAKE=${DTRACE_CMAKE}"
  "-DXSDT_DTRACE_EXECUTABLE=${DTRACE}"
  "-DXSDT_INCLUDE_DIRS=${include_dirs}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configure failed (${rc}):\n${out}\n${err}")
endif()
run("build" "${CMAKE_COMMAND}" --build "${BINARY_DIR}")

run("demo" "${BINARY_DIR}/demo")
if(NOT out STREQUAL "request__start enabled=0\n")
  message(FATAL_ERROR "demo printed '${out}'")
endif()

# The note: provider demo, name request__start (the `__` kept), and a
# semaphore address.
run("readelf -n" "${READELF}" -n -W "${BINARY_DIR}/demo")
set(hex "0x([0-9a-f]+)")
if(NOT out MATCHES "Provider: demo\n *Name: request__start\n *Location: ${hex}, Base: ${hex}, Semaphore: ${hex}")
  message(FATAL_ERROR "no note for demo:request__start in:\n${out}")
endif()
set(note_semaphore "${CMAKE_MATCH_3}")
if(note_semaphore MATCHES "^0+$")
  message(FATAL_ERROR "the note of demo:request__start has no semaphore")
endif()
if(NOT out MATCHES "Provider: demo\n *Name: idle\n")
  message(FATAL_ERROR "no note for demo:idle in:\n${out}")
endif()

# The semaphore is the 2-byte object the -G object defined, at the note's
# address.
run("readelf -s" "${READELF}" -s -W "${BINARY_DIR}/demo")
if(NOT out MATCHES " ([0-9a-f]+) +2 OBJECT +[A-Z]+ +[A-Z]+ +[0-9]+ demo_request__start_semaphore\n")
  message(FATAL_ERROR "no 2-byte demo_request__start_semaphore in:\n${out}")
endif()
math(EXPR symbol "0x${CMAKE_MATCH_1}" OUTPUT_FORMAT HEXADECIMAL)
math(EXPR noted "0x${note_semaphore}" OUTPUT_FORMAT HEXADECIMAL)
if(NOT symbol STREQUAL noted)
  message(FATAL_ERROR "the note's semaphore ${noted} is not "
    "demo_request__start_semaphore (${symbol})")
endif()
message(STATUS "demo:request__start semaphore at ${noted}")
