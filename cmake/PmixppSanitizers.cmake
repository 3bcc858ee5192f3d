# PMIXPP_SANITIZE=address,undefined or thread builds everything (library,
# components, tests, tools) with those sanitizers; any finding aborts the
# process, so a test that provokes one fails. Real consumers built without
# them (Open MPI, python3-pmix) cannot load such a library: sanitizer runs
# leave out the `compat` label (docs/reliability.md).
set(PMIXPP_SANITIZE "" CACHE STRING "Sanitizers to build with: address,undefined | thread | empty")
if(PMIXPP_SANITIZE)
  add_compile_options(-fsanitize=${PMIXPP_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${PMIXPP_SANITIZE})
endif()
