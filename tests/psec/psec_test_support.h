// Shared by the psec conformance suite and the per-module cases.
#ifndef PMIXPP_TESTS_PSEC_SUPPORT_H
#define PMIXPP_TESTS_PSEC_SUPPORT_H

#include "framework/src/selected_modules.h"

#include <pmixpp/psec.h>

#include <criterion/criterion.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

namespace pmixpp::tests::psec {

// "native" or "munge"; the ctest ENV sets PMIX_MCA_psec to the same name.
inline const char *module_name()
{
    return PMIXPP_PSEC_UNDER_TEST;
}

// Munge needs munged. Where the test script promises one
// (PMIXPP_REQUIRE_MUNGE=1) its absence fails the test; elsewhere it skips.
void require_backend();

inline const pmixpp_psec_module_t *load_module()
{
    require_backend();
    std::vector<framework::SelectedModule> modules;
    const pmix_status_t rc = framework::select("psec", &modules);
    cr_assert_eq(rc, PMIX_SUCCESS, "select(psec) failed: %d", rc);
    cr_assert_eq(modules.size(), 1u, "PMIX_MCA_psec=%s should select one component, got %zu", module_name(),
                 modules.size());
    cr_assert_str_eq(modules[0].component.c_str(), module_name());
    return static_cast<const pmixpp_psec_module_t *>(modules[0].module);
}

inline pmixpp_peer_identity_t kernel_identity(uid_t uid, gid_t gid, bool known = true)
{
    pmixpp_peer_identity_t peer{};
    peer.struct_size = sizeof(peer);
    peer.known = known ? 1 : 0;
    peer.pid_known = known ? 1 : 0;
    peer.uid = uid;
    peer.gid = gid;
    peer.pid = getpid();
    return peer;
}

inline pmixpp_peer_identity_t own_identity()
{
    return kernel_identity(getuid(), getgid());
}

// A credential the test owns (bytes from malloc, as the module hands them).
struct Credential {
    pmix_byte_object_t object{nullptr, 0};
    Credential() = default;
    Credential(const Credential &) = delete;
    Credential &operator=(const Credential &) = delete;
    ~Credential() { std::free(object.bytes); }
};

inline void finalize()
{
    framework::finalize();
}

}  // namespace pmixpp::tests::psec

#endif
