#include "server/requests/peer_identity.h"

namespace pmixpp::server {

bool peer_user(Server &server, const Peer &peer, uid_t *uid_p, gid_t *gid_p)
{
    if (const ClientRecord *client = server.find_client(peer.proc)) {
        *uid_p = client->uid;
        *gid_p = client->gid;
        return true;
    }
    if (peer.kernel.known == 0) return false;
    *uid_p = peer.kernel.uid;
    *gid_p = peer.kernel.gid;
    return true;
}

pmix_status_t append_user(uid_t uid, gid_t gid, wire::InfoArray &info)
{
    wire::InfoArray grown;
    pmix_status_t rc = grown.allocate(info.size() + 2);
    for (size_t i = 0; i < info.size() && rc == PMIX_SUCCESS; ++i) rc = PMIx_Info_xfer(&grown[i], &info[i]);
    if (rc != PMIX_SUCCESS) return rc;
    const uint32_t user = static_cast<uint32_t>(uid);
    const uint32_t group = static_cast<uint32_t>(gid);
    PMIX_INFO_LOAD(&grown[info.size()], PMIX_USERID, &user, PMIX_UINT32);
    PMIX_INFO_LOAD(&grown[info.size() + 1], PMIX_GRPID, &group, PMIX_UINT32);
    info = std::move(grown);
    return PMIX_SUCCESS;
}

pmix_status_t append_peer_user(Server &server, const Peer &peer, wire::InfoArray &info)
{
    uid_t uid = 0;
    gid_t gid = 0;
    if (!peer_user(server, peer, &uid, &gid)) return PMIX_SUCCESS;
    return append_user(uid, gid, info);
}

}  // namespace pmixpp::server
