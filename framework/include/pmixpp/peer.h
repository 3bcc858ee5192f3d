/*
 * What the kernel says about the process at the other end of a connection.
 * ptl components fill it when they accept a connection; psec components
 * decide from it (and from any credential the peer sent) who the peer is.
 */
#ifndef PMIXPP_PEER_H
#define PMIXPP_PEER_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pmixpp_peer_identity {
    size_t struct_size; /* sizeof(pmixpp_peer_identity_t) as compiled */
    int known;          /* 1: uid and gid below come from the kernel, not the peer */
    int pid_known;      /* 1: pid below comes from the kernel */
    uid_t uid;
    gid_t gid;
    pid_t pid;
    /* Since ptl interface 1.1: 1 when uid (only) is the kernel's and gid and
     * pid are still to be learned by the module's complete_identity (ptl/tcp
     * learns the uid in microseconds, the rest by scanning /proc). */
    int uid_known;
} pmixpp_peer_identity_t;

#ifdef __cplusplus
}
#endif

#endif /* PMIXPP_PEER_H */
