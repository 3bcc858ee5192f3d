// PMIx_Fence / PMIx_Fence_nb: over the whole local job they meet in the
// fence arena (client/core/fence_arena.h); otherwise the server tracks the
// collective (locally, then through its host), and with PMIX_COLLECT_DATA
// the reply carries everyone's committed data, which goes into our store so
// later Gets stay local, or names where the server left it in shared memory
// for our gds to read.
#include <pmix.h>

#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "client/core/fence_arena.h"
#include "client/core/host_mode.h"
#include "client/core/local_data.h"
#include "client/core/requests.h"
#include "client/core/session.h"
#include "common/runtime/latch.h"

using namespace pmixpp;

namespace {

using FenceDone = std::function<void(pmix_status_t status)>;

void store_modex(const client::Session &session, const wire::Bytes &blob)
{
    std::vector<wire::ProcData> procs;
    if (wire::decode_modex(blob.data(), blob.size(), &procs) != PMIX_SUCCESS) {
        return;
    }
    for (const auto &pd : procs) {
        // Our own data is already here, with the scopes we put it with.
        if (client::is_self(session, pd.proc) || pd.info.empty()) {
            continue;
        }
        if (session.store->put_modex(pd.proc.nspace, pd.proc.rank, PMIX_GLOBAL, pd.info.data(), pd.info.size()) ==
            PMIX_SUCCESS) {
            client::mark_collected(session, pd.proc);
        }
    }
}

// Collected data the server left in shared memory: our gds reads it from
// there. The namespaces it cannot reach are returned: their peers' data is
// then asked of the server when needed, as if no fence had brought it.
std::set<std::string> import_shared(const client::Session &session, const std::vector<wire::SharedModex> &shared)
{
    std::set<std::string> unreachable;
    for (const wire::SharedModex &entry : shared) {
        const bool ours =
            entry.nspace == std::string(session.self.nspace, strnlen(session.self.nspace, PMIX_MAX_NSLEN));
        pmix_byte_object_t blob{};
        blob.bytes = reinterpret_cast<char *>(const_cast<uint8_t *>(entry.blob.data()));
        blob.size = entry.blob.size();
        // Our own puts stay ours: they carry every scope we put them with.
        if (session.store->import_modex(entry.nspace.c_str(), blob, ours ? session.self.rank : PMIX_RANK_UNDEF) !=
            PMIX_SUCCESS) {
            unreachable.insert(entry.nspace);
            continue;
        }
        // The import dropped what we kept of the other ranks: only what this
        // fence covers counts as collected now.
        client::forget_collected(session, entry.nspace.c_str());
    }
    return unreachable;
}

// The namespaces a fence covers whole: ours for an empty proc list, else
// those named with a wildcard rank.
std::vector<std::string> whole_nspaces(const client::Session &session, const pmix_proc_t procs[], size_t nprocs)
{
    std::vector<std::string> names;
    if (nprocs == 0) {
        names.emplace_back(session.self.nspace);
    }
    for (size_t i = 0; i < nprocs; ++i) {
        if (procs[i].rank == PMIX_RANK_WILDCARD) {
            names.emplace_back(procs[i].nspace, strnlen(procs[i].nspace, PMIX_MAX_NSLEN));
        }
    }
    return names;
}

pmix_status_t start_fence(const std::shared_ptr<client::Session> &session, const pmix_proc_t procs[], size_t nprocs,
                          const pmix_info_t info[], size_t ninfo, FenceDone done)
{
    if ((procs == nullptr && nprocs > 0) || (info == nullptr && ninfo > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (session->singleton) {
        return client::post_callback(*session, [done] { done(PMIX_SUCCESS); });
    }
    wire::FenceRequest request;
    if (procs != nullptr) {
        request.procs.assign(procs, procs + nprocs);
    }
    pmix_status_t rc = request.directives.assign_copy(info, ninfo);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    auto timeout = client::timeout_of(info, ninfo, std::chrono::milliseconds{1000});
    std::vector<std::string> covered;
    if (client::flag_of(info, ninfo, PMIX_COLLECT_DATA)) {
        covered = whole_nspaces(*session, procs, nprocs);
    }
    return client::send_message(session, request, timeout,
                                [session, done, covered](pmix_status_t st, const wire::Frame *frame) {
                                    wire::FenceReply reply;
                                    pmix_status_t status = client::read_reply(st, frame, &reply);
                                    std::set<std::string> unreachable;
                                    if (status == PMIX_SUCCESS) {
                                        if (!reply.data.empty()) store_modex(*session, reply.data);
                                        unreachable = import_shared(*session, reply.shared);
                                    }
                                    for (const auto &nspace : covered) {
                                        if (status == PMIX_SUCCESS && unreachable.count(nspace) == 0) {
                                            client::mark_nspace_collected(*session, nspace.c_str());
                                        }
                                    }
                                    done(status);
                                });
}

pmix_status_t host_fence(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo)
{
    if (runtime::ProgressEngine::process().on_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    try {
        auto latch = std::make_shared<runtime::Latch<>>();
        pmix_status_t rc =
            client::host_fence_nb(procs, nprocs, info, ninfo, [latch](pmix_status_t st) { latch->complete(st); });
        return rc != PMIX_SUCCESS ? rc : latch->wait();
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace

pmix_status_t PMIx_Fence(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo)
{
    auto session = client::current_session();
    if (!session) {
        return client::host_mode() ? host_fence(procs, nprocs, info, ninfo) : PMIX_ERR_INIT;
    }
    if ((procs == nullptr && nprocs > 0) || (info == nullptr && ninfo > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (session->singleton) {
        return PMIX_SUCCESS;  // nobody else to wait for
    }
    if (client::check_may_block(*session) != PMIX_SUCCESS) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    try {
        pmix_status_t status = PMIX_SUCCESS;
        if (client::arena_fence(*session, procs, nprocs, info, ninfo, &status)) {
            return status;  // met the other ranks in the fence arena
        }
        auto latch = std::make_shared<runtime::Latch<>>();
        pmix_status_t rc =
            start_fence(session, procs, nprocs, info, ninfo, [latch](pmix_status_t st) { latch->complete(st); });
        return rc != PMIX_SUCCESS ? rc : latch->wait();
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Fence_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo,
                            pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    auto session = client::current_session();
    if (!session && !client::host_mode()) {
        return PMIX_ERR_INIT;
    }
    try {
        FenceDone done = [cbfunc, cbdata](pmix_status_t st) {
            if (cbfunc != nullptr) {
                cbfunc(st, cbdata);
            }
        };
        if (!session) {
            return client::host_fence_nb(procs, nprocs, info, ninfo, std::move(done));
        }
        if ((procs == nullptr && nprocs > 0) || (info == nullptr && ninfo > 0)) {
            return PMIX_ERR_BAD_PARAM;
        }
        if (!session->singleton && client::arena_fence_nb(*session, procs, nprocs, info, ninfo, done)) {
            return PMIX_SUCCESS;  // meets the other ranks in the fence arena
        }
        return start_fence(session, procs, nprocs, info, ninfo, std::move(done));
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
