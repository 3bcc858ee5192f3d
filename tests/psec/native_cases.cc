// psec/native's own cases: the kernel's word is the only thing it trusts.
#include "psec/psec_test_support.h"

#include <cstring>

using namespace pmixpp::tests::psec;

void pmixpp::tests::psec::require_backend() {}

TestSuite(native, .fini = finalize);

Test(native, credential_is_empty)
{
    const pmixpp_psec_module_t *module = load_module();
    Credential credential;
    credential.object.size = 99;
    cr_assert_eq(module->create_credential(&credential.object), PMIX_SUCCESS);
    cr_assert_null(credential.object.bytes);
    cr_assert_eq(credential.object.size, 0u);
}

// Its portable credential names the creator, as OpenPMIx's native does for
// tcp peers: effective uid then gid, 8 bytes. Any 8 bytes parse: it proves
// nothing (docs/credentials.md), the core decides whom to believe.
Test(native, portable_credential_is_uid_then_gid)
{
    const pmixpp_psec_module_t *module = load_module();
    Credential credential;
    cr_assert_eq(module->create_portable_credential(&credential.object), PMIX_SUCCESS);
    cr_assert_eq(credential.object.size, sizeof(uid_t) + sizeof(gid_t));
    uid_t uid = 0;
    gid_t gid = 0;
    std::memcpy(&uid, credential.object.bytes, sizeof(uid));
    std::memcpy(&gid, credential.object.bytes + sizeof(uid), sizeof(gid));
    cr_assert_eq(uid, geteuid());
    cr_assert_eq(gid, getegid());
    const uid_t forged[2] = {65534, 65534};
    pmix_byte_object_t other{reinterpret_cast<char *>(const_cast<uid_t *>(forged)), sizeof(forged)};
    cr_assert_eq(module->validate_portable_credential(&other, &uid, &gid), PMIX_SUCCESS);
    cr_assert_eq(uid, 65534u);
}

Test(native, identity_is_what_the_kernel_says)
{
    const pmixpp_psec_module_t *module = load_module();
    const pmixpp_peer_identity_t kernel = kernel_identity(4321, 8765);
    const pmix_byte_object_t empty{nullptr, 0};
    uid_t uid = 0;
    gid_t gid = 0;
    cr_assert_eq(module->validate_credential(&kernel, &empty, &uid, &gid), PMIX_SUCCESS);
    cr_assert_eq(uid, 4321u);
    cr_assert_eq(gid, 8765u);
}

Test(native, unknown_kernel_identity_refused_even_with_a_credential)
{
    const pmixpp_psec_module_t *module = load_module();
    const pmixpp_peer_identity_t unknown = kernel_identity(getuid(), getgid(), false);
    char claim[] = "uid=0";
    const pmix_byte_object_t credential{claim, sizeof(claim) - 1};
    uid_t uid = 0;
    gid_t gid = 0;
    cr_assert_eq(module->validate_credential(&unknown, &credential, &uid, &gid), PMIX_ERR_INVALID_CRED);
}

Test(native, truncated_identity_struct_refused)
{
    const pmixpp_psec_module_t *module = load_module();
    pmixpp_peer_identity_t kernel = own_identity();
    kernel.struct_size = sizeof(size_t) + sizeof(int);
    const pmix_byte_object_t empty{nullptr, 0};
    uid_t uid = 0;
    gid_t gid = 0;
    cr_assert_eq(module->validate_credential(&kernel, &empty, &uid, &gid), PMIX_ERR_INVALID_CRED);
}
