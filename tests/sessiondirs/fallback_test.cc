// The fallback orders of PMIX_SYSTEM_TMPDIR and PMIX_SERVER_TMPDIR.
#include "common/runtime/tmpdirs.h"

#include <criterion/criterion.h>

#include <cstdlib>

using pmixpp::runtime::server_tmpdir_fallback;
using pmixpp::runtime::system_tmpdir_fallback;

namespace {

void clear_all()
{
    for (const char *name : {"PMIX_SYSTEM_TMPDIR", "PMIX_SERVER_TMPDIR", "TMPDIR", "TEMP", "TMP"}) unsetenv(name);
}

}  // namespace

TestSuite(fallback, .init = clear_all, .fini = clear_all);

Test(fallback, nothing_set_means_tmp)
{
    cr_assert_eq(system_tmpdir_fallback(), "/tmp");
    cr_assert_eq(server_tmpdir_fallback(), "/tmp");
}

Test(fallback, tmp_then_temp_then_tmpdir)
{
    setenv("TMP", "/x/tmp", 1);
    cr_assert_eq(system_tmpdir_fallback(), "/x/tmp");
    cr_assert_eq(server_tmpdir_fallback(), "/x/tmp");
    setenv("TEMP", "/x/temp", 1);
    cr_assert_eq(system_tmpdir_fallback(), "/x/temp");
    cr_assert_eq(server_tmpdir_fallback(), "/x/temp");
    setenv("TMPDIR", "/x/tmpdir", 1);
    cr_assert_eq(system_tmpdir_fallback(), "/x/tmpdir");
    cr_assert_eq(server_tmpdir_fallback(), "/x/tmpdir");
}

Test(fallback, server_envar_wins_for_the_server_only)
{
    setenv("TMPDIR", "/x/tmpdir", 1);
    setenv("PMIX_SERVER_TMPDIR", "/x/server", 1);
    cr_assert_eq(server_tmpdir_fallback(), "/x/server");
    cr_assert_eq(system_tmpdir_fallback(), "/x/tmpdir");
}

Test(fallback, empty_values_are_skipped)
{
    setenv("PMIX_SERVER_TMPDIR", "", 1);
    setenv("TMPDIR", "", 1);
    setenv("TEMP", "/x/temp", 1);
    cr_assert_eq(server_tmpdir_fallback(), "/x/temp");
    cr_assert_eq(system_tmpdir_fallback(), "/x/temp");
}

// OpenPMIx's servers, clients and tools read PMIX_SYSTEM_TMPDIR from the
// environment too: a tool pointed at a private system tmpdir that way finds
// the system server there.
Test(fallback, system_envar_wins_for_the_system_only)
{
    setenv("TMPDIR", "/x/tmpdir", 1);
    setenv("PMIX_SYSTEM_TMPDIR", "/x/system", 1);
    cr_assert_eq(system_tmpdir_fallback(), "/x/system");
    cr_assert_eq(server_tmpdir_fallback(), "/x/tmpdir");
    setenv("PMIX_SYSTEM_TMPDIR", "", 1);
    cr_assert_eq(system_tmpdir_fallback(), "/x/tmpdir");
}
