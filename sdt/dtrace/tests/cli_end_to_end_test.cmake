# The dtrace.cli test (cmake -P): xsdt-dtrace's exit statuses and outputs
# as a build runs it. -DDTRACE (the tool) -DWORK_DIR -DC_COMPILER -DVERSION
set(work "${WORK_DIR}")
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}/out" "${work}/inc")

# run(EXPECT_STATUS ARGS...): runs xsdt-dtrace in ${work}; sets out, err.
function(run status)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${work}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${status}")
    message(FATAL_ERROR "exit status ${rc}, not ${status}: ${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()
function(expect text pattern)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "expected /${pattern}/ in:\n${text}")
  endif()
endfunction()
# No temporary directory may be left beside the outputs.
function(expect_no_leftovers)
  file(GLOB left "${work}/out/.xsdt-dtrace.*" "${work}/.xsdt-dtrace.*")
  if(left)
    message(FATAL_ERROR "temporary files left: ${left}")
  endif()
endfunction()

file(WRITE "${work}/good.d" "provider good {\n  probe a__b(int x);\n};\n")
file(WRITE "${work}/bad.d" "provider bad {\n  probe a int);\n};\n")

# Usage: --help and --version 0; an unknown option or no -h/-G: 2 with the
# usage.
run(0 "${DTRACE}" --help)
expect("${out}" "^usage: xsdt-dtrace ")
run(0 "${DTRACE}" --version)
expect("${out}" "^xsdt-dtrace ${VERSION}\n$")
run(2 "${DTRACE}" -q -h -s good.d)
expect("${err}" "^xsdt-dtrace: error: unknown option '-q'\nusage: ")
run(2 "${DTRACE}" -s good.d)
expect("${err}" "usage: ")

# A missing provider file, a malformed one: bad input, 2; an existing output
# stays.
run(2 "${DTRACE}" -h -s nosuch.d -o out/x.h)
expect("${err}" "xsdt-dtrace: error: cannot read 'nosuch.d': No such file")
file(WRITE "${work}/out/bad.h" "previous\n")
run(2 "${DTRACE}" -h -s bad.d -o out/bad.h)
expect("${err}" "^bad.d:2:11: error: expected '\\(' after probe name 'a'\n$")
file(READ "${work}/out/bad.h" kept)
expect("${kept}" "^previous\n$")
expect_no_leftovers()

# -C: an error in an included file is reported there (cpp's line markers).
file(WRITE "${work}/inc/more.d" "\n  probe broken int);\n")
file(WRITE "${work}/pp.d"
  "provider pp {\n#include \"more.d\"\n  probe ok(T);\n};\n")
run(2 "${DTRACE}" -C -Iinc -DT=int -h -s pp.d -o out/pp.h)
expect("${err}" "inc/more.d:2:16: error: expected '\\(' after probe name 'broken'")
file(WRITE "${work}/inc/more.d" "\n  probe fine(long);\n")
run(0 "${DTRACE}" -C -Iinc -DT=int -h -s pp.d -o out/pp.h)
file(READ "${work}/out/pp.h" header)
expect("${header}" "#define PP_FINE\\(arg1\\)")
expect("${header}" "#define PP_OK\\(arg1\\)")

# -G: a failing compiler is 1 and leaves no object; $CC and $CFLAGS are
# used (a -D from $CFLAGS reaches the compiler).
run(1 "${CMAKE_COMMAND}" -E env CC=false "${DTRACE}" -G -s good.d -o out/good.o)
expect("${err}" "xsdt-dtrace: error: the C compiler \\(false [^\n]*\\) exited with status 1\n")
if(EXISTS "${work}/out/good.o")
  message(FATAL_ERROR "a failed -G wrote out/good.o")
endif()
expect_no_leftovers()
# $CFLAGS and the -D option both reach the compiler: a redefinition.
run(1 "${CMAKE_COMMAND}" -E env "CC=${C_COMPILER}" "CFLAGS=-Werror -DTWICE=2"
  "${DTRACE}" -G -s good.d -o out/good.o -DTWICE=1)
expect("${err}" "TWICE")
run(0 "${CMAKE_COMMAND}" -E env "CC=${C_COMPILER}" "CFLAGS=-g0 -O2"
  "${DTRACE}" -G -s good.d -o out/good.o obj1.o obj2.o)
if(NOT EXISTS "${work}/out/good.o")
  message(FATAL_ERROR "-G wrote no out/good.o")
endif()
expect_no_leftovers()

# No -o: the base name in the working directory; -k keeps the temporaries;
# --types is noted.
run(0 "${DTRACE}" -k --types -x nolibs -64 -fPIC -h -s "${work}/good.d")
expect("${err}" "note: obsolete option --types used")
expect("${err}" "note: temporary files kept in ([^\n]+)")
if(NOT EXISTS "${work}/good.h" OR NOT IS_DIRECTORY "${work}/${CMAKE_MATCH_1}")
  message(FATAL_ERROR "no good.h, or no kept temporary directory:\n${err}")
endif()
