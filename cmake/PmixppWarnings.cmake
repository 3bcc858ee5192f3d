# Strict warnings everywhere; errors when PMIXPP_WERROR is on (CI turns it on).
option(PMIXPP_WERROR "Treat warnings as errors" OFF)

add_library(pmixpp_warnings INTERFACE)
target_compile_options(pmixpp_warnings INTERFACE
  -Wall -Wextra -Wshadow -Wformat=2 -Wundef
  $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor -Wold-style-cast>
  $<$<BOOL:${PMIXPP_WERROR}>:-Werror>)
