# Strict warnings everywhere; errors when PMIXPP_WERROR is on (CI turns it on).
option(PMIXPP_WERROR "Treat warnings as errors" OFF)

set(PMIXPP_BASE_WARNINGS
  -Wall -Wextra -Wshadow -Wformat=2 -Wundef
  $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor>
  $<$<BOOL:${PMIXPP_WERROR}>:-Werror>)

# Library and program code.
add_library(pmixpp_warnings INTERFACE)
target_compile_options(pmixpp_warnings INTERFACE ${PMIXPP_BASE_WARNINGS}
  $<$<COMPILE_LANGUAGE:CXX>:-Wold-style-cast>)

# Tests: Criterion's Test() macro expands to C-style casts, so that one check is off.
add_library(pmixpp_test_warnings INTERFACE)
target_compile_options(pmixpp_test_warnings INTERFACE ${PMIXPP_BASE_WARNINGS})
