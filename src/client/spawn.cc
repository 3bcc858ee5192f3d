// PMIx_Spawn / PMIx_Spawn_nb: the server relays the job to its host's spawn
// upcall, which starts it and names its namespace. In the host process
// itself the call goes to that upcall directly (host mode). The host decides where
// it runs and in which session (PMIX_SESSION_ID, PMIX_ALLOC_ID, ...) and
// whether it outlives its parent (PMIX_SPAWN_CHILD_SEP).
#include <pmix.h>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

#include "client/core/host_call.h"
#include "client/core/host_mode.h"
#include "client/core/requests.h"

using namespace pmixpp;

namespace {

using SpawnDone = std::function<void(pmix_status_t, std::shared_ptr<wire::SpawnReply>)>;

bool valid_apps(const pmix_app_t apps[], size_t napps)
{
    if (apps == nullptr || napps == 0) return false;
    for (size_t i = 0; i < napps; ++i) {
        if (apps[i].cmd == nullptr || apps[i].cmd[0] == '\0') return false;
        if (apps[i].info == nullptr && apps[i].ninfo > 0) return false;
    }
    return true;
}

// An app without a working directory starts in the caller's, as
// OpenPMIx's client tells the host (which otherwise uses its own).
pmix_status_t default_to_our_cwd(wire::AppArray &apps)
{
    for (size_t i = 0; i < apps.size(); ++i) {
        if (apps[i].cwd != nullptr) continue;
        char *cwd = ::getcwd(nullptr, 0);
        if (cwd == nullptr) return errno == ENOMEM ? PMIX_ERR_NOMEM : PMIX_ERR_NOT_FOUND;
        apps[i].cwd = cwd;
    }
    return PMIX_SUCCESS;
}

pmix_status_t start_spawn(const pmix_info_t job_info[], size_t ninfo, const pmix_app_t apps[], size_t napps,
                          SpawnDone done)
{
    std::shared_ptr<client::Session> session = client::current_session();
    if (!session && !client::host_mode()) return PMIX_ERR_INIT;
    if (!valid_apps(apps, napps) || (job_info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    wire::SpawnRequest request;
    pmix_status_t rc = request.job_info.assign_copy(job_info, ninfo);
    if (rc != PMIX_SUCCESS) return rc;
    if ((rc = request.apps.assign_copy(apps, napps)) != PMIX_SUCCESS) return rc;
    if ((rc = default_to_our_cwd(request.apps)) != PMIX_SUCCESS) return rc;
    if (!session) {
        // The host spawning: its own spawn upcall launches the job.
        return client::host_spawn_nb(request.job_info.data(), request.job_info.size(), request.apps.data(),
                                     request.apps.size(), std::move(done));
    }
    return client::send_for_reply<wire::SpawnReply>(
        session, request, client::timeout_of(job_info, ninfo, client::kServerTimeoutMargin), std::move(done));
}

}  // namespace

pmix_status_t PMIx_Spawn(const pmix_info_t job_info[], size_t ninfo, const pmix_app_t apps[], size_t napps,
                         pmix_nspace_t nspace)
{
    try {
        std::shared_ptr<wire::SpawnReply> reply;
        const pmix_status_t rc = client::wait_for_reply<wire::SpawnReply>(
            [&](SpawnDone done) { return start_spawn(job_info, ninfo, apps, napps, std::move(done)); }, &reply);
        if (rc == PMIX_SUCCESS && nspace != nullptr && reply) PMIX_LOAD_NSPACE(nspace, reply->nspace.c_str());
        return rc;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Spawn_nb(const pmix_info_t job_info[], size_t ninfo, const pmix_app_t apps[], size_t napps,
                            pmix_spawn_cbfunc_t cbfunc, void *cbdata)
{
    try {
        return start_spawn(job_info, ninfo, apps, napps,
                           [cbfunc, cbdata](pmix_status_t st, std::shared_ptr<wire::SpawnReply> reply) {
                               if (cbfunc == nullptr) return;
                               pmix_nspace_t nspace = {};
                               if (st == PMIX_SUCCESS && reply) PMIX_LOAD_NSPACE(nspace, reply->nspace.c_str());
                               cbfunc(st, nspace, cbdata);
                           });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
