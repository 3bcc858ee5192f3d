# PMIXPP_FUZZ=ON: a build dir for the libFuzzer targets of tests/fuzz. Needs
# clang (Debian: clang-14 and libclang-rt-14-dev), so configure a separate
# build directory with CC=clang CXX=clang++. Everything is compiled with
# libFuzzer's coverage instrumentation and, unless PMIXPP_SANITIZE says
# otherwise, with address,undefined (cmake/PmixppSanitizers.cmake applies
# them; include this file before it). Build only the targets with
# `cmake --build <dir> --target pmixpp_fuzz`; run them with tests/fuzz/run.sh.
option(PMIXPP_FUZZ "Build the libFuzzer targets of tests/fuzz (clang only)" OFF)
if(PMIXPP_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "PMIXPP_FUZZ=ON needs clang (found ${CMAKE_CXX_COMPILER_ID}): configure a "
                        "separate build directory with CC=clang CXX=clang++ "
                        "(Debian packages clang-14 and libclang-rt-14-dev)")
  endif()
  set(PMIXPP_SANITIZE "address,undefined" CACHE STRING "Sanitizers to build with: address,undefined | thread | empty")
  if(PMIXPP_SANITIZE MATCHES "thread")
    message(FATAL_ERROR "PMIXPP_FUZZ=ON runs with address,undefined; PMIXPP_SANITIZE=${PMIXPP_SANITIZE} cannot be combined with it")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
