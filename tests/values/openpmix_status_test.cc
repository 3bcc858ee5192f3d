// PMIx_Error_string against the real OpenPMIx 4.2.2 (Debian's libpmix2),
// loaded beside ours: every code of a wide range, the event codes and the
// host range included, must read the same. The library is on every CI
// machine (the scripts install libpmix2); without it the test is skipped
// and says how to get it.
#include <criterion/criterion.h>

#include <dlfcn.h>

#include <cstdlib>
#include <string>

#include <pmix.h>

namespace {

using ErrorString = const char *(*)(pmix_status_t);

// Far wider than any status: OpenPMIx's lowest is near -1400 and hosts
// define theirs below PMIX_EXTERNAL_ERR_BASE (-3000).
constexpr pmix_status_t kLowest = -20000;
constexpr pmix_status_t kHighest = 2000;

std::string debian_library()
{
    const char *given = std::getenv("PMIXPP_OPENPMIX_LIBPMIX");
    return given != nullptr && *given != '\0' ? given : OPENPMIX_LIBPMIX;
}

}  // namespace

Test(openpmix_status, every_code_reads_as_openpmix_reads_it)
{
    const std::string path = debian_library();
    // RTLD_DEEPBIND: its own symbols first, though ours are loaded already.
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (handle == nullptr) {
        cr_skip_test("OpenPMIx's library %s cannot be loaded (%s): apt-get install libpmix2, or set "
                     "PMIXPP_OPENPMIX_LIBPMIX to its path",
                     path.c_str(), dlerror());
    }
    auto theirs = reinterpret_cast<ErrorString>(dlsym(handle, "PMIx_Error_string"));
    cr_assert_not_null(theirs, "%s has no PMIx_Error_string", path.c_str());
    cr_assert_neq(reinterpret_cast<void *>(theirs), reinterpret_cast<void *>(&PMIx_Error_string),
                  "dlsym found our own PMIx_Error_string, not OpenPMIx's");
    size_t differ = 0;
    for (pmix_status_t status = kLowest; status <= kHighest; ++status) {
        const std::string want = theirs(status);
        const char *got = PMIx_Error_string(status);
        if (got == nullptr || want != got) {
            if (++differ <= 20) {
                cr_expect_fail("status %d: OpenPMIx says '%s', we say '%s'", status, want.c_str(),
                               got == nullptr ? "(null)" : got);
            }
        }
    }
    for (pmix_status_t status : {PMIX_EXTERNAL_ERR_BASE - 1, -1000000, 1000000, -2147483647 - 1, 2147483647}) {
        cr_expect_str_eq(PMIx_Error_string(status), theirs(status), "status %d", status);
    }
    cr_expect_eq(differ, 0u, "%zu codes read differently from OpenPMIx's", differ);
    dlclose(handle);
}
