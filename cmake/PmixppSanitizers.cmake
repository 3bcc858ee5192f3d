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
