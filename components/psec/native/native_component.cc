// psec/native: the kernel is the proof. Over ptl/usock (SO_PEERCRED) and over
// loopback ptl/tcp (sock_diag + /proc) the transport already knows the
// peer's uid and gid, so the client sends an empty credential and the server
// takes the kernel's word, never the client's.
//
// Priorities: native 40, munge 20. Native wins by default because every
// local transport identifies the peer for free, without a daemon. munge is
// used when the user asks for it (PMIX_MCA_psec=munge, or
// PMIX_SECURITY_MODE=munge handed to clients), and it is the module that can
// still vouch for a peer the kernel cannot identify (a remote tcp peer):
// native refuses such a peer with PMIX_ERR_INVALID_CRED, and a server that
// keeps the ordered psec list tries the next module (munge) with the
// credential the client sent.
//
// A portable credential (PMIx_Get_credential) cannot lean on a connection:
// as OpenPMIx's native module does for tcp peers, it is the creator's
// effective uid then gid, in host byte order (8 bytes). It names a user, it
// proves nothing: any process can write any uid into 8 bytes. The core
// accepts it only when it names the validating process's own uid and gid,
// and PMIX_CRED_TYPE "native" in the results tells the caller what it got;
// where proof matters, use munge (docs/credentials.md).
#include <pmixpp/component.hpp>
#include <pmixpp/psec.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace {

bool kernel_knows(const pmixpp_peer_identity_t *kernel)
{
    return kernel != nullptr && kernel->struct_size >= offsetof(pmixpp_peer_identity_t, gid) + sizeof(kernel->gid) &&
           kernel->known == 1;
}

pmix_status_t create_credential(pmix_byte_object_t *cred_p)
{
    if (cred_p == nullptr) return PMIX_ERR_BAD_PARAM;
    cred_p->bytes = nullptr;
    cred_p->size = 0;
    return PMIX_SUCCESS;
}

// A non-empty credential is not one native made (it makes none): refused,
// so that a mix-up of psec modules never passes silently.
pmix_status_t validate_credential(const pmixpp_peer_identity_t *kernel, const pmix_byte_object_t *cred, uid_t *uid_p,
                                  gid_t *gid_p)
{
    if (uid_p == nullptr || gid_p == nullptr) return PMIX_ERR_BAD_PARAM;
    if (cred != nullptr && cred->size != 0) return PMIX_ERR_INVALID_CRED;
    if (!kernel_knows(kernel)) return PMIX_ERR_INVALID_CRED;
    *uid_p = kernel->uid;
    *gid_p = kernel->gid;
    return PMIX_SUCCESS;
}

constexpr size_t portable_size = sizeof(uid_t) + sizeof(gid_t);

pmix_status_t create_portable_credential(pmix_byte_object_t *cred_p)
{
    if (cred_p == nullptr) return PMIX_ERR_BAD_PARAM;
    auto *bytes = static_cast<char *>(std::malloc(portable_size));
    if (bytes == nullptr) return PMIX_ERR_NOMEM;
    const uid_t uid = geteuid();
    const gid_t gid = getegid();
    std::memcpy(bytes, &uid, sizeof(uid));
    std::memcpy(bytes + sizeof(uid), &gid, sizeof(gid));
    cred_p->bytes = bytes;
    cred_p->size = portable_size;
    return PMIX_SUCCESS;
}

// Exactly the 8 bytes create_portable_credential makes; nothing else is ours.
pmix_status_t validate_portable_credential(const pmix_byte_object_t *cred, uid_t *uid_p, gid_t *gid_p)
{
    if (uid_p == nullptr || gid_p == nullptr) return PMIX_ERR_BAD_PARAM;
    if (cred == nullptr || cred->bytes == nullptr || cred->size != portable_size) return PMIX_ERR_INVALID_CRED;
    std::memcpy(uid_p, cred->bytes, sizeof(uid_t));
    std::memcpy(gid_p, cred->bytes + sizeof(uid_t), sizeof(gid_t));
    return PMIX_SUCCESS;
}

constexpr pmixpp_psec_module_t native_module = {
    .struct_size = sizeof(pmixpp_psec_module_t),
    .name = "native",
    .create_credential = create_credential,
    .validate_credential = validate_credential,
    .create_portable_credential = create_portable_credential,
    .validate_portable_credential = validate_portable_credential,
};

}  // namespace

struct NativeSecurity {
    static constexpr const char *version = "1.0.0";
    static constexpr int priority = 40;
    static constexpr uint16_t framework_major = PMIXPP_PSEC_API_MAJOR;
    static constexpr uint16_t framework_minor = PMIXPP_PSEC_API_MINOR;

    static const void *query(pmixpp::sdk::Services &, int &) { return &native_module; }
};

PMIXPP_CXX_COMPONENT(psec, native, NativeSecurity)
