# pmixpp_add_criterion_test(NAME <name> SOURCES <files...> [LIBS <targets...>]
#                           [ENV <VAR=VALUE...>] [LABELS <labels...>])
# Builds one Criterion executable and registers it with CTest. Every test runs
# with our build tree first on the library path, so no test can silently pick
# up Debian's OpenPMIx libpmix.so.2 (tests/loader proves it).
# pmixpp_test_timeout(<out-var> <seconds>): seconds times
# PMIXPP_TEST_TIMEOUT_SCALE (cmake/PmixppSanitizers.cmake), for every TIMEOUT
# a test of this tree sets.
function(pmixpp_test_timeout out seconds)
  math(EXPR scaled "${seconds} * ${PMIXPP_TEST_TIMEOUT_SCALE}")
  set(${out} ${scaled} PARENT_SCOPE)
endfunction()

function(pmixpp_add_criterion_test)
  # JOBS: Criterion workers at once (2, one per core of the machine CI runs
  # on); more for a suite whose cases mostly wait on their processes.
  cmake_parse_arguments(T "" "NAME;TIMEOUT;JOBS" "SOURCES;LIBS;ENV;LABELS" ${ARGN})
  if(NOT T_JOBS)
    set(T_JOBS 2)
  endif()
  add_executable(${T_NAME} ${T_SOURCES})
  pmixpp_reuse_test_pch(${T_NAME})
  target_link_libraries(${T_NAME} PRIVATE PkgConfig::CRITERION pmixpp_test_warnings ${T_LIBS})
  if(TARGET pmixpp_criterion_tsan_arena)
    target_sources(${T_NAME} PRIVATE $<TARGET_OBJECTS:pmixpp_criterion_tsan_arena>)
  endif()
  target_include_directories(${T_NAME} PRIVATE
    "${PROJECT_SOURCE_DIR}/include" "${PROJECT_SOURCE_DIR}/src" "${PROJECT_SOURCE_DIR}/tests")
  set_target_properties(${T_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests/bin")
  add_test(NAME ${T_NAME} COMMAND ${T_NAME} --jobs=${T_JOBS} --short-filename)
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  pmixpp_test_timeout(T_TIMEOUT ${T_TIMEOUT})
  set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT}
    ENVIRONMENT "LD_LIBRARY_PATH=${CMAKE_BINARY_DIR}/lib;PMIXPP_BUILD_DIR=${CMAKE_BINARY_DIR};PMIXPP_SOURCE_DIR=${PROJECT_SOURCE_DIR};${T_ENV}"
    LABELS "${T_LABELS}")
endfunction()
