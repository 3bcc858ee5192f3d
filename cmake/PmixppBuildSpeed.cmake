# Build time on a 2-core machine: the scripts build this tree four times per
# CI run (plain, ASan+UBSan, TSan, fuzz), and a newcomer's first build is the
# demo's wait. Two measures live here; the scripts add ccache and a faster
# linker on top (scripts/lib/build.sh).
#
# Precompiled headers (PMIXPP_PCH): about 380 of the 430 headers a typical
# server source reads are the standard library's; parsing them was half of
# its compile time (groups.cc: 4.8 s without, 3.1 s with). Only standard and
# public PMIx headers go in, never our own, so a file that forgets an include
# of ours still fails to build. On by default with clang only: GCC 12 loses
# the "system header" mark of what comes from a precompiled header and then
# reports std::string's own inlined code (-Warray-bounds false positives in
# src/common/wire/frame.cc and a dozen tests), which -Werror turns into
# failed builds.
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  set(_pmixpp_pch_default ON)
else()
  set(_pmixpp_pch_default OFF)
endif()
option(PMIXPP_PCH "Precompile the standard headers the library and tests share" ${_pmixpp_pch_default})

set(PMIXPP_PCH_HEADERS
  <algorithm> <array> <atomic> <chrono> <cstddef> <cstdint> <cstdlib> <cstring>
  <deque> <functional> <map> <memory> <mutex> <new> <optional> <set> <string>
  <string_view> <unordered_map> <utility> <vector>
  <pmix_common.h> <pmix.h>)

# pmixpp_precompile_headers(<target>): the shared set for the C++ sources of
# <target> (C sources are left as they are).
function(pmixpp_precompile_headers target)
  if(NOT PMIXPP_PCH)
    return()
  endif()
  set(headers "")
  foreach(header IN LISTS PMIXPP_PCH_HEADERS)
    list(APPEND headers "$<$<COMPILE_LANGUAGE:CXX>:${header}>")
  endforeach()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()

# pmixpp_reuse_test_pch(<target>): a test program takes the one header
# precompiled for all tests (tests/CMakeLists.txt), instead of paying ~3 s
# to make its own. The shared header is C++ only, so a program with any C
# source (CMake would want a C header from it too) compiles without.
function(pmixpp_reuse_test_pch target)
  if(NOT PMIXPP_PCH OR NOT TARGET pmixpp_test_pch)
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  set(c_sources ${sources})
  list(FILTER c_sources INCLUDE REGEX "\\.c$")
  if(NOT c_sources)
    target_precompile_headers(${target} REUSE_FROM pmixpp_test_pch)
  endif()
endfunction()

# Unity builds (PMIXPP_UNITY): the library's ~230 small sources compiled 8 to
# a translation unit, so the headers they share are parsed once per batch
# (pmixpp_roles + pmixpp_common: ~200 s to ~60 s on 2 cores). A source whose
# file-local names (anonymous namespace) clash with a neighbour's is compiled
# on its own (SKIP below), though a shared helper is the better cure: today
# none is skipped. -DPMIXPP_UNITY_BATCH_SIZE=0 puts each target in one batch,
# which shows every such clash at once (whatever the batches happen to be).
option(PMIXPP_UNITY "Compile the library's sources in batches (unity build)" ON)
set(PMIXPP_UNITY_BATCH_SIZE 8 CACHE STRING "Sources per unity batch (0: one batch per target)")

# pmixpp_unity_build(<target> [SKIP <sources relative to this folder>...])
function(pmixpp_unity_build target)
  cmake_parse_arguments(U "" "" "SKIP" ${ARGN})
  if(NOT PMIXPP_UNITY)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${PMIXPP_UNITY_BATCH_SIZE})
  if(U_SKIP)
    set_source_files_properties(${U_SKIP} TARGET_DIRECTORY ${target}
      PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endif()
endfunction()
