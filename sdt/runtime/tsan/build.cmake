# tsan.build: configures and builds libxsdt's test programs with
# -fsanitize=thread in a build tree of their own (kept between runs, so an
# unchanged tree rebuilds in seconds).
#   cmake -DSOURCE=<repo> -DBINARY=<tree> -DGENERATOR=<gen> -DCC=<c>
#         -DCXX=<c++> -DTARGETS=<a;b;...> -P build.cmake
foreach(var SOURCE BINARY GENERATOR CC CXX TARGETS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "tsan/build.cmake: -D${var}=... missing")
  endif()
endforeach()

# -O1 -g: reports with file:line and most frames kept, at a speed the
# stress tests can live with.
set(flags "-fsanitize=thread -O1 -g")
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY} -G ${GENERATOR}
    -DCMAKE_BUILD_TYPE=None
    -DCMAKE_C_COMPILER=${CC} -DCMAKE_CXX_COMPILER=${CXX}
    "-DCMAKE_C_FLAGS=${flags}" "-DCMAKE_CXX_FLAGS=${flags}"
    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread
    -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread
    # This tree is the TSan build: it adds no tsan.* tests of its own.
    -DXSDT_TSAN=OFF
    # Tests are listed when ctest runs them, not by running every binary
    # under TSan after each link; this tree's ctest is not used anyway.
    -DCMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE=PRE_TEST
    # One translation unit per target's sources: 105 CPU-s instead of 153
    # for a cold tree (2026-12-02); the tests' programs are the same.
    -DCMAKE_UNITY_BUILD=ON
  OUTPUT_FILE ${BINARY}.configure.log ERROR_FILE ${BINARY}.configure.log
  RESULT_VARIABLE status)
if(status)
  file(READ ${BINARY}.configure.log log)
  message(FATAL_ERROR "${log}\ntsan: configuring ${BINARY} failed")
endif()

# CMAKE_BUILD_PARALLEL_LEVEL in the environment sets the jobs; otherwise
# one per core, as the fuzzers' build does.
set(parallel)
if(NOT DEFINED ENV{CMAKE_BUILD_PARALLEL_LEVEL})
  cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
  set(parallel --parallel ${cores})
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} --build ${BINARY} ${parallel} --target ${TARGETS}
  RESULT_VARIABLE status)
if(status)
  message(FATAL_ERROR "tsan: building ${TARGETS} failed")
endif()
