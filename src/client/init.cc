// Client life cycle: PMIx_Init (reference counted), PMIx_Initialized,
// PMIx_Finalize, PMIx_Abort. The work is in core/lifecycle.cc.
#include <pmix.h>

#include <chrono>
#include <memory>
#include <new>
#include <string>

#include "client/core/host_mode.h"
#include "client/core/requests.h"
#include "client/core/session.h"
#include "common/runtime/latch.h"

using namespace pmixpp;

pmix_status_t PMIx_Init(pmix_proc_t *proc, pmix_info_t info[], size_t ninfo)
{
    if (info == nullptr && ninfo > 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    try {
        return client::initialize(info, ninfo, proc);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Finalize(const pmix_info_t info[], size_t ninfo)
{
    try {
        return client::finalize(info, ninfo);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

int PMIx_Initialized(void)
{
    return client::initialized() ? 1 : 0;
}

// Blocks until the server has handed the request to its host (which may
// terminate us meanwhile). Like OpenPMIx, a process without a server gets
// PMIX_ERR_UNREACH and decides itself how to exit.
pmix_status_t PMIx_Abort(int status, const char msg[], pmix_proc_t procs[], size_t nprocs)
{
    auto session = client::current_session();
    if (!session) {
        // A host is not anybody's client: nobody above it to abort it.
        return client::host_mode() ? PMIX_ERR_UNREACH : PMIX_ERR_INIT;
    }
    if (procs == nullptr && nprocs > 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (session->singleton) {
        return PMIX_ERR_UNREACH;
    }
    if (client::check_may_block(*session) != PMIX_SUCCESS) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    try {
        wire::AbortRequest request;
        request.status = status;
        if (msg != nullptr) {
            request.message.assign(msg, strnlen(msg, wire::kMaxMessageLength));
        }
        request.procs.assign(procs, procs + nprocs);
        auto done = std::make_shared<runtime::Latch<>>();
        pmix_status_t rc = client::send_message(session, request, std::chrono::milliseconds{0},
                                                [done](pmix_status_t st, const wire::Frame *reply) {
                                                    wire::StatusReply r;
                                                    done->complete(client::read_reply(st, reply, &r));
                                                });
        return rc != PMIX_SUCCESS ? rc : done->wait();
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

// Our progress thread runs on its own; nothing to drive here.
void PMIx_Progress(void) {}
