/*
 * psec framework interface: security. A client's psec module makes a
 * credential that goes into the connection handshake; the server's module of
 * the same name turns that credential, together with what the kernel reported
 * about the connection, into the uid/gid the server then checks against what
 * the host registered. Never trust what a peer merely claims.
 */
#ifndef PMIXPP_PSEC_H
#define PMIXPP_PSEC_H

#include <pmixpp/component.h>
#include <pmixpp/peer.h>
#include <pmix_common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMIXPP_PSEC_API_MAJOR 1
#define PMIXPP_PSEC_API_MINOR 1

typedef struct pmixpp_psec_module {
    size_t struct_size; /* sizeof(pmixpp_psec_module_t) as compiled */
    const char *name;

    /* Client: a credential proving who this process is. cred_p->bytes is
     * malloc'ed (may be NULL with size 0 when the kernel is the proof). */
    pmix_status_t (*create_credential)(pmix_byte_object_t *cred_p);

    /* Server: who sent this credential over a connection the kernel
     * described as `kernel`. PMIX_ERR_INVALID_CRED when it cannot be
     * established (forged, replayed, expired, or nothing to go on). */
    pmix_status_t (*validate_credential)(const pmixpp_peer_identity_t *kernel, const pmix_byte_object_t *cred,
                                         uid_t *uid_p, gid_t *gid_p);

    /* Since 1.1; check struct_size before calling, NULL means not offered.
     * PMIx_Get_credential / PMIx_Validate_credential: a credential that
     * stands on its own, without the connection it came over, so that an
     * application can hand it to another process (or keep it) and have it
     * checked later. cred_p->bytes is malloc'ed and never empty. */
    pmix_status_t (*create_portable_credential)(pmix_byte_object_t *cred_p);

    /* Whose portable credential this is. PMIX_ERR_INVALID_CRED for one this
     * module did not make, a damaged, replayed or expired one. The caller
     * decides whether that uid/gid may pass. */
    pmix_status_t (*validate_portable_credential)(const pmix_byte_object_t *cred, uid_t *uid_p, gid_t *gid_p);
} pmixpp_psec_module_t;

#ifdef __cplusplus
}
#endif

#endif /* PMIXPP_PSEC_H */
