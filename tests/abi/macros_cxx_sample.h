/* Uses of the header macros compiled as C++ (with -Wold-style-cast); each
 * returns NULL when everything held, else what went wrong. */
#ifndef PMIXPP_TESTS_ABI_MACROS_CXX_SAMPLE_H
#define PMIXPP_TESTS_ABI_MACROS_CXX_SAMPLE_H

#ifdef __cplusplus
extern "C" {
#endif

const char *cxx_info_arrays(void);
const char *cxx_static_initializers_and_procs(void);
const char *cxx_argv_and_environment(void);
const char *cxx_data_buffers_and_arrays(void);

#ifdef __cplusplus
}
#endif

#endif
