// A private copy of the job data for a client that cannot use the shared
// one (its gds/shmem import of the Welcome's export failed, e.g. the segment
// is not visible in its mount namespace). The copy is an export that carries
// the data inline; only the caller's own namespace is served, the same data
// its Welcome already named.
#include "server/state/peer_io.h"
#include "server/requests/requests.h"

#include <cstdlib>
#include <new>

namespace pmixpp::server {

void handle_job_data(Server &server, Peer &peer, uint32_t tag, wire::JobDataRequest &request)
{
    wire::JobDataReply reply;
    if (request.nspace != peer.proc.nspace) {
        reply.status = PMIX_ERR_NO_PERMISSIONS;
        return reply_to(server, peer.id, tag, reply);
    }
    pmix_byte_object_t blob{};
    reply.status = server.store->export_nspace_inline(request.nspace.c_str(), &blob);
    if (reply.status == PMIX_SUCCESS && blob.bytes != nullptr) {
        try {
            const auto *first = reinterpret_cast<const uint8_t *>(blob.bytes);
            reply.data.assign(first, first + blob.size);
        } catch (const std::bad_alloc &) {
            reply.status = PMIX_ERR_NOMEM;
        }
    }
    std::free(blob.bytes);
    reply_to(server, peer.id, tag, reply);
}

}  // namespace pmixpp::server
