// PMIX_GROUP_ENDPT_DATA: a construct with members on other nodes hands the
// host's group upcall the committed data of its local members (as other
// nodes may see it: remote and global scope), and stores what the host
// brings back from the other nodes' servers, as a collecting fence does.
// The members then read each other's data without a direct modex. The blob
// is the fence's modex encoding (records that concatenate), so a host may
// join the servers' blobs as they come, as PRRTE's allgather does.
// PMIX_EMBED_BARRIER given as false collects nothing (OpenPMIx's rule).
#include "common/runtime/log.h"
#include "server/state/info_read.h"
#include "server/requests/group_ops.h"
#include "server/requests/requests.h"

namespace pmixpp::server {

namespace {

bool barrier_refused(const wire::InfoArray &directives)
{
    for (const pmix_info_t &info : directives) {
        if (PMIX_CHECK_KEY(&info, PMIX_EMBED_BARRIER)) return !PMIX_INFO_TRUE(&info);
    }
    return false;
}

}  // namespace

pmix_status_t add_endpoint_data(Server &server, const GroupCollective &collective, wire::InfoArray *directives_p)
{
    if (barrier_refused(*directives_p)) return PMIX_SUCCESS;
    std::vector<wire::ProcData> records;
    for (const Arrival &member : collective.arrived) {
        wire::ProcData data;
        pmix_status_t rc = proc_modex(server, member.proc, PMIX_REMOTE, &data);
        if (rc != PMIX_SUCCESS) return rc;
        records.push_back(std::move(data));
    }
    wire::Bytes blob;
    pmix_status_t rc = wire::encode_modex(records, &blob);
    if (rc != PMIX_SUCCESS) return rc;
    wire::InfoArray with;
    rc = with.allocate(directives_p->size() + 1);
    for (size_t i = 0; rc == PMIX_SUCCESS && i < directives_p->size(); ++i) {
        rc = PMIx_Info_xfer(&with[i], &(*directives_p)[i]);
    }
    if (rc != PMIX_SUCCESS) return rc;
    pmix_byte_object_t bytes{reinterpret_cast<char *>(blob.data()), blob.size()};  // copied by the load
    PMIX_INFO_LOAD(&with[directives_p->size()], PMIX_GROUP_ENDPT_DATA, &bytes, PMIX_BYTE_OBJECT);
    *directives_p = std::move(with);
    return PMIX_SUCCESS;
}

void store_endpoint_data(Server &server, const std::string &group, const wire::InfoArray &from_host)
{
    for (const pmix_info_t &info : from_host) {
        if (!PMIX_CHECK_KEY(&info, PMIX_GROUP_ENDPT_DATA) || info.value.type != PMIX_BYTE_OBJECT) continue;
        const pmix_byte_object_t &bytes = info.value.data.bo;
        if (bytes.bytes == nullptr || bytes.size == 0) continue;
        const auto *begin = reinterpret_cast<const uint8_t *>(bytes.bytes);
        const pmix_status_t rc = store_remote_blob(server, wire::Bytes(begin, begin + bytes.size));
        if (rc != PMIX_SUCCESS) {
            runtime::log_warning("server", "the host's PMIX_GROUP_ENDPT_DATA for group " + group +
                                               " is not endpoint data of this library (" + PMIx_Error_string(rc) +
                                               "): not stored; members on other nodes are reached through "
                                               "direct modex instead");
        }
    }
}

}  // namespace pmixpp::server
