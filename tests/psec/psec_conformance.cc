// The psec conformance suite: every security module passes the same tests.
// Built once per module (PMIXPP_PSEC_UNDER_TEST, and PMIX_MCA_psec in the
// test's environment), next to that module's own cases.
#include "psec/psec_test_support.h"

using namespace pmixpp::tests::psec;

TestSuite(psec, .fini = finalize);

Test(psec, module_is_complete)
{
    const pmixpp_psec_module_t *module = load_module();
    cr_assert_geq(module->struct_size, sizeof(pmixpp_psec_module_t));
    cr_assert_str_eq(module->name, module_name());
    cr_assert(module->create_credential && module->validate_credential);
}

Test(psec, create_and_validate_round_trip)
{
    const pmixpp_psec_module_t *module = load_module();
    Credential credential;
    cr_assert_eq(module->create_credential(&credential.object), PMIX_SUCCESS);
    const pmixpp_peer_identity_t kernel = own_identity();
    uid_t uid = 12345;
    gid_t gid = 12345;
    cr_assert_eq(module->validate_credential(&kernel, &credential.object, &uid, &gid), PMIX_SUCCESS);
    cr_assert_eq(uid, getuid());
    cr_assert_eq(gid, getgid());
}

Test(psec, garbage_credentials_refused)
{
    const pmixpp_psec_module_t *module = load_module();
    const pmixpp_peer_identity_t kernel = own_identity();
    char text[] = "MUNGE:this-is-not-a-credential:";
    char binary[] = {'\x01', '\0', '\xff', 'A', '\0', 'z'};
    std::string huge(200000, 'M');
    const pmix_byte_object_t garbage[] = {
        {text, sizeof(text) - 1},
        {binary, sizeof(binary)},
        {huge.data(), huge.size()},
    };
    for (const pmix_byte_object_t &cred : garbage) {
        uid_t uid = 777;
        gid_t gid = 777;
        cr_assert_eq(module->validate_credential(&kernel, &cred, &uid, &gid), PMIX_ERR_INVALID_CRED,
                     "a %zu-byte garbage credential was accepted", cred.size);
        cr_assert_eq(uid, 777u, "uid_p must stay untouched on failure");
        cr_assert_eq(gid, 777u);
    }
}

Test(psec, unknown_identity_without_credential_refused)
{
    const pmixpp_psec_module_t *module = load_module();
    const pmixpp_peer_identity_t unknown = kernel_identity(0, 0, false);
    const pmix_byte_object_t empty{nullptr, 0};
    uid_t uid = 0;
    gid_t gid = 0;
    cr_assert_eq(module->validate_credential(&unknown, &empty, &uid, &gid), PMIX_ERR_INVALID_CRED);
    cr_assert_eq(module->validate_credential(nullptr, nullptr, &uid, &gid), PMIX_ERR_INVALID_CRED);
}

Test(psec, bad_arguments_get_bad_param)
{
    const pmixpp_psec_module_t *module = load_module();
    cr_assert_eq(module->create_credential(nullptr), PMIX_ERR_BAD_PARAM);
    const pmixpp_peer_identity_t kernel = own_identity();
    const pmix_byte_object_t empty{nullptr, 0};
    gid_t gid = 0;
    uid_t uid = 0;
    cr_assert_eq(module->validate_credential(&kernel, &empty, nullptr, &gid), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(module->validate_credential(&kernel, &empty, &uid, nullptr), PMIX_ERR_BAD_PARAM);
}

// Portable credentials (psec 1.1, PMIx_Get_credential): made without a
// connection, checked without one, never empty.
Test(psec, portable_credential_round_trip)
{
    const pmixpp_psec_module_t *module = load_module();
    cr_assert(module->create_portable_credential && module->validate_portable_credential);
    Credential credential;
    cr_assert_eq(module->create_portable_credential(&credential.object), PMIX_SUCCESS);
    cr_assert_not_null(credential.object.bytes);
    cr_assert_gt(credential.object.size, 0u);
    uid_t uid = 12345;
    gid_t gid = 12345;
    cr_assert_eq(module->validate_portable_credential(&credential.object, &uid, &gid), PMIX_SUCCESS);
    cr_assert_eq(uid, geteuid());
    cr_assert_eq(gid, getegid());
}

Test(psec, portable_garbage_refused)
{
    const pmixpp_psec_module_t *module = load_module();
    char text[] = "MUNGE:this-is-not-a-credential:";
    std::string huge(200000, 'M');
    const pmix_byte_object_t garbage[] = {{text, sizeof(text) - 1}, {huge.data(), huge.size()}, {nullptr, 0}};
    for (const pmix_byte_object_t &cred : garbage) {
        uid_t uid = 777;
        gid_t gid = 777;
        cr_assert_eq(module->validate_portable_credential(&cred, &uid, &gid), PMIX_ERR_INVALID_CRED,
                     "a %zu-byte garbage credential was accepted", cred.size);
        cr_assert_eq(uid, 777u, "uid_p must stay untouched on failure");
    }
    uid_t uid = 0;
    cr_assert_eq(module->validate_portable_credential(nullptr, &uid, nullptr), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(module->create_portable_credential(nullptr), PMIX_ERR_BAD_PARAM);
}
