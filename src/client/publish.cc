// PMIx_Publish, PMIx_Lookup, PMIx_Unpublish: relayed to the server, which
// hands them to its host's name service (publish / lookup / unpublish
// upcalls: ranges, persistence and PMIX_WAIT are the host's business). The
// host's own calls go to those upcalls directly.
#include <pmix.h>

#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "client/core/host_mode.h"
#include "client/core/requests.h"
#include "client/core/session.h"
#include "common/runtime/latch.h"
#include "common/values/value_ops.h"

#include <pmixpp/util.hpp>

using namespace pmixpp;

namespace {

using OpDone = client::StatusDone;
using LookupDone = std::function<void(pmix_status_t, std::shared_ptr<wire::LookupReply>)>;

pmix_status_t session_for(std::shared_ptr<client::Session> *session_p)
{
    *session_p = client::current_session();
    return *session_p ? PMIX_SUCCESS : PMIX_ERR_INIT;
}

// The process that runs the server, with no session of its own: its own
// publish, lookup and unpublish upcalls answer (host mode).
bool host_asking()
{
    return !client::current_session() && client::host_mode();
}

using pmixpp::util::valid_key;

pmix_status_t keys_from(char **keys, std::vector<std::string> *out_p)
{
    for (char **key = keys; key != nullptr && *key != nullptr; ++key) {
        if (!valid_key(*key)) return PMIX_ERR_BAD_PARAM;
        out_p->emplace_back(*key);
    }
    return PMIX_SUCCESS;
}

pmix_status_t start_publish(const pmix_info_t info[], size_t ninfo, OpDone done)
{
    if (host_asking()) return client::host_publish_nb(info, ninfo, std::move(done));
    std::shared_ptr<client::Session> session;
    pmix_status_t rc = session_for(&session);
    if (rc != PMIX_SUCCESS) return rc;
    if (info == nullptr || ninfo == 0) return PMIX_ERR_BAD_PARAM;
    wire::PublishRequest request;
    if ((rc = request.info.assign_copy(info, ninfo)) != PMIX_SUCCESS) return rc;
    return client::send_status_request(session, request, client::timeout_of(info, ninfo, client::kServerTimeoutMargin),
                                       std::move(done));
}

pmix_status_t start_lookup(std::vector<std::string> keys, const pmix_info_t info[], size_t ninfo, LookupDone done)
{
    if (host_asking()) return client::host_lookup_nb(std::move(keys), info, ninfo, std::move(done));
    std::shared_ptr<client::Session> session;
    pmix_status_t rc = session_for(&session);
    if (rc != PMIX_SUCCESS) return rc;
    if (keys.empty() || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    wire::LookupRequest request;
    request.keys = std::move(keys);
    if ((rc = request.directives.assign_copy(info, ninfo)) != PMIX_SUCCESS) return rc;
    return client::send_message(session, request, client::timeout_of(info, ninfo, client::kServerTimeoutMargin),
                                [done](pmix_status_t st, const wire::Frame *frame) {
                                    auto reply = std::make_shared<wire::LookupReply>();
                                    const pmix_status_t status = client::read_reply(st, frame, reply.get());
                                    done(status, reply);
                                });
}

pmix_status_t start_unpublish(char **keys, const pmix_info_t info[], size_t ninfo, OpDone done)
{
    if (host_asking()) {
        std::vector<std::string> wanted;
        const pmix_status_t rc = keys_from(keys, &wanted);
        return rc != PMIX_SUCCESS ? rc : client::host_unpublish_nb(std::move(wanted), info, ninfo, std::move(done));
    }
    std::shared_ptr<client::Session> session;
    pmix_status_t rc = session_for(&session);
    if (rc != PMIX_SUCCESS) return rc;
    if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
    wire::UnpublishRequest request;
    if ((rc = keys_from(keys, &request.keys)) != PMIX_SUCCESS) return rc;
    if ((rc = request.directives.assign_copy(info, ninfo)) != PMIX_SUCCESS) return rc;
    return client::send_status_request(session, request, client::timeout_of(info, ninfo, client::kServerTimeoutMargin),
                                       std::move(done));
}

// Fills the caller's pdata entries with what was found, key by key.
pmix_status_t fill(pmix_pdata_t data[], size_t ndata, const wire::LookupReply &reply)
{
    for (const pmix_pdata_t &found : reply.data) {
        for (size_t i = 0; i < ndata; ++i) {
            if (std::strncmp(data[i].key, found.key, PMIX_MAX_KEYLEN) != 0) continue;
            data[i].proc = found.proc;
            values::value_destruct(&data[i].value);
            const pmix_status_t rc = values::value_xfer(&data[i].value, &found.value);
            if (rc != PMIX_SUCCESS) return rc;
        }
    }
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t PMIx_Publish(const pmix_info_t info[], size_t ninfo)
{
    try {
        return client::wait_for_status([&](OpDone done) { return start_publish(info, ninfo, std::move(done)); });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Publish_nb(const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    try {
        return start_publish(info, ninfo, [cbfunc, cbdata](pmix_status_t st) {
            if (cbfunc != nullptr) cbfunc(st, cbdata);
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Lookup(pmix_pdata_t data[], size_t ndata, const pmix_info_t info[], size_t ninfo)
{
    if (data == nullptr || ndata == 0) return PMIX_ERR_BAD_PARAM;
    if (runtime::ProgressEngine::process().on_progress_thread()) return PMIX_ERR_WOULD_BLOCK;
    try {
        std::vector<std::string> keys;
        for (size_t i = 0; i < ndata; ++i) {
            if (!valid_key(data[i].key)) return PMIX_ERR_BAD_PARAM;
            keys.emplace_back(data[i].key);
        }
        using ReplyLatch = runtime::Latch<std::shared_ptr<wire::LookupReply>>;
        auto latch = std::make_shared<ReplyLatch>();
        pmix_status_t rc = start_lookup(std::move(keys), info, ninfo,
                                        [latch](pmix_status_t st, std::shared_ptr<wire::LookupReply> reply) {
                                            latch->complete(st, std::move(reply));
                                        });
        if (rc != PMIX_SUCCESS) return rc;
        rc = latch->wait();
        const auto reply = latch->payload();
        if (reply) {
            const pmix_status_t filled = fill(data, ndata, *reply);
            if (rc == PMIX_SUCCESS) rc = filled;
        }
        return rc;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Lookup_nb(char **keys, const pmix_info_t info[], size_t ninfo, pmix_lookup_cbfunc_t cbfunc,
                             void *cbdata)
{
    try {
        std::vector<std::string> wanted;
        const pmix_status_t rc = keys_from(keys, &wanted);
        if (rc != PMIX_SUCCESS) return rc;
        return start_lookup(std::move(wanted), info, ninfo,
                            [cbfunc, cbdata](pmix_status_t st, std::shared_ptr<wire::LookupReply> reply) {
                                if (cbfunc == nullptr) return;
                                cbfunc(st, reply ? reply->data.data() : nullptr, reply ? reply->data.size() : 0,
                                       cbdata);
                            });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Unpublish(char **keys, const pmix_info_t info[], size_t ninfo)
{
    try {
        return client::wait_for_status(
            [&](OpDone done) { return start_unpublish(keys, info, ninfo, std::move(done)); });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Unpublish_nb(char **keys, const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                void *cbdata)
{
    try {
        return start_unpublish(keys, info, ninfo, [cbfunc, cbdata](pmix_status_t st) {
            if (cbfunc != nullptr) cbfunc(st, cbdata);
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
