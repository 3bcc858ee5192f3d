/* Runs the C++ uses of the header macros (macros_cxx_sample.cc). */
#include <criterion/criterion.h>

#include "macros_cxx_sample.h"

#define EXPECT_CLEAN(call)                                                                                             \
    do {                                                                                                               \
        const char *failed = (call);                                                                                   \
        cr_expect_null(failed, "%s: %s does not hold", #call, failed);                                                 \
    } while (0)

Test(macros_cxx, info_arrays)
{
    EXPECT_CLEAN(cxx_info_arrays());
}
Test(macros_cxx, static_initializers_and_procs)
{
    EXPECT_CLEAN(cxx_static_initializers_and_procs());
}
Test(macros_cxx, argv_and_environment)
{
    EXPECT_CLEAN(cxx_argv_and_environment());
}
Test(macros_cxx, data_buffers_and_arrays)
{
    EXPECT_CLEAN(cxx_data_buffers_and_arrays());
}
