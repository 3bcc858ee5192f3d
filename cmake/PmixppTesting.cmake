# pmixpp_add_criterion_test(NAME <name> SOURCES <files...> [LIBS <targets...>]
#                           [ENV <VAR=VALUE...>] [LABELS <labels...>])
# Builds one Criterion executable and registers it with CTest. Every test runs
# with our build tree first on the library path, so no test can silently pick
# up Debian's OpenPMIx libpmix.so.2 (tests/loader proves it).
function(pmixpp_add_criterion_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "SOURCES;LIBS;ENV;LABELS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE PkgConfig::CRITERION pmixpp_test_warnings ${T_LIBS})
  target_include_directories(${T_NAME} PRIVATE
    "${PROJECT_SOURCE_DIR}/include" "${PROJECT_SOURCE_DIR}/src" "${PROJECT_SOURCE_DIR}/tests")
  set_target_properties(${T_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests/bin")
  add_test(NAME ${T_NAME} COMMAND ${T_NAME} --jobs=2 --short-filename)
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT}
    ENVIRONMENT "LD_LIBRARY_PATH=${CMAKE_BINARY_DIR}/lib;PMIXPP_BUILD_DIR=${CMAKE_BINARY_DIR};PMIXPP_SOURCE_DIR=${PROJECT_SOURCE_DIR};${T_ENV}"
    LABELS "${T_LABELS}")
endfunction()
