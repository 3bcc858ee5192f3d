# PMIXPP_SANITIZE=address,undefined or thread builds everything (library,
# components, tests, tools) with those sanitizers; any finding aborts the
# process, so a test that provokes one fails. Real consumers built without
# them (Open MPI, python3-pmix) cannot load such a library: sanitizer runs
# leave out the `compat` label (docs/reliability.md, "Sanitizers").
set(PMIXPP_SANITIZE "" CACHE STRING "Sanitizers to build with: address,undefined | thread | empty")
# The flags, also handed to tests that build programs or components outside
# the tree against the installed library (tests/sdk): whatever loads a
# sanitized libpmix.so.2 must be built with the same sanitizers.
set(PMIXPP_SANITIZE_FLAGS "")
if(PMIXPP_SANITIZE)
  set(PMIXPP_SANITIZE_FLAGS "-fsanitize=${PMIXPP_SANITIZE} -fno-omit-frame-pointer")
  add_compile_options(-fsanitize=${PMIXPP_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${PMIXPP_SANITIZE})
  # For the tests that skip or widen a check under a sanitizer: GCC defines
  # __SANITIZE_ADDRESS__ and __SANITIZE_THREAD__, clang 14 neither.
  if(PMIXPP_SANITIZE MATCHES "address")
    add_compile_definitions(PMIXPP_UNDER_ASAN=1)
  endif()
  if(PMIXPP_SANITIZE MATCHES "thread")
    add_compile_definitions(PMIXPP_UNDER_TSAN=1)
  endif()
  # clang links its sanitizer runtime into executables only, which leaves
  # libpmix.so.2 and the components (linked with --no-undefined) with the
  # runtime's symbols unresolved. -shared-libsan links the shared runtime
  # everywhere, as GCC does; it lives in clang's own directory, hence the
  # rpath. (The fuzz build keeps clang's default: libFuzzer wants it.)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND NOT PMIXPP_FUZZ)
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-runtime-dir
                    OUTPUT_VARIABLE _pmixpp_sanitizer_runtime_dir OUTPUT_STRIP_TRAILING_WHITESPACE)
    set(_pmixpp_shared_libsan -shared-libsan "-Wl,-rpath,${_pmixpp_sanitizer_runtime_dir}")
    add_link_options(${_pmixpp_shared_libsan})
    string(JOIN " " PMIXPP_SANITIZE_FLAGS ${PMIXPP_SANITIZE_FLAGS} ${_pmixpp_shared_libsan})
  endif()
endif()

# Sanitized code runs several times slower (TSan most): every CTest timeout
# of the tree is multiplied by this factor (pmixpp_test_timeout).
if(PMIXPP_SANITIZE MATCHES "thread")
  set(_pmixpp_default_timeout_scale 4)
elseif(PMIXPP_SANITIZE)
  set(_pmixpp_default_timeout_scale 3)
else()
  set(_pmixpp_default_timeout_scale 1)
endif()
set(PMIXPP_TEST_TIMEOUT_SCALE "${_pmixpp_default_timeout_scale}" CACHE STRING
    "Factor applied to every test's CTest TIMEOUT (default 1; 3 with ASan, 4 with TSan)")

# pmixpp_static_cxx_runtime(<target>): link the C++ runtime (libstdc++,
# libgcc) into <target> and hide it, so that a rank loading libpmix.so.2
# (and the components it picks) maps no libstdc++.so.6, libgcc_s.so.1:
# the loader's work and page faults for those are a good part of what
# linking the library costs each process at start (bench/launch.sh). Our C
# API lets no C++ object or exception cross the boundary, so the
# application's own libstdc++, if any, never meets ours. Not with the
# sanitizers or the fuzzer, whose runtimes expect the shared one.
option(PMIXPP_STATIC_CXX_RUNTIME "Link libstdc++ and libgcc statically into libpmix and the components" ON)
function(pmixpp_static_cxx_runtime target)
  if(PMIXPP_STATIC_CXX_RUNTIME AND NOT PMIXPP_SANITIZE AND NOT PMIXPP_FUZZ
     AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc "LINKER:--exclude-libs,ALL")
  endif()
endfunction()
