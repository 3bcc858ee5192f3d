// pmixrun's upcalls (see host_module.h). One node: a fence gathers only
// this node's contribution, no other node holds a process's data, and a
// connect or disconnect has nobody else to agree with.
#include "host_module.h"

#include "job_table.h"
#include "name_service.h"
#include "open_mpi_log.h"
#include "runtime.h"

#include <pmix.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace pmixrun {
namespace {

HostEvents *g_events = nullptr;

void free_data(void *data)
{
    std::free(data);
}

pmix_status_t queue(HostTask task);

// The contribution is ours (malloc'ed by the library): it goes back as the
// result and is freed once the library has read it. Answered from the main
// thread, after this upcall returned: the library above may hold a lock that
// its callback takes again.
pmix_status_t on_fence(const pmix_proc_t[], size_t, const pmix_info_t[], size_t, char *data, size_t ndata,
                       pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    return queue([=](Runtime &) { cbfunc(PMIX_SUCCESS, data, ndata, cbdata, free_data, data); });
}

pmix_status_t on_direct_modex(const pmix_proc_t *, const pmix_info_t[], size_t, pmix_modex_cbfunc_t, void *)
{
    return PMIX_ERR_NOT_FOUND;
}

// Hands `task` to the main thread; PMIX_ERR_OUT_OF_RESOURCE when there is
// no queue (a module used outside pmixrun's main()).
pmix_status_t queue(HostTask task)
{
    if (g_events == nullptr) return PMIX_ERR_OUT_OF_RESOURCE;
    g_events->push(std::move(task));
    return PMIX_SUCCESS;
}

pmix_status_t on_abort(const pmix_proc_t *proc, void *, int status, const char msg[], pmix_proc_t[], size_t,
                       pmix_op_cbfunc_t, void *)
{
    const pmix_proc_t who = proc != nullptr ? *proc : pmix_proc_t{};
    const std::string message = msg != nullptr ? msg : "";
    const pmix_status_t rc = queue([who, status, message](Runtime &rt) { rt.on_abort(who, status, message); });
    // The runtime ends the job; the caller need not wait for that.
    return rc == PMIX_SUCCESS ? PMIX_OPERATION_SUCCEEDED : rc;
}

pmix_status_t on_client_finalized(const pmix_proc_t *proc, void *, pmix_op_cbfunc_t, void *)
{
    ns_proc_finalized(proc);
    return PMIX_OPERATION_SUCCEEDED;
}

// A malloc'ed copy of info (nullptr for none); false when out of memory.
bool copy_infos(const pmix_info_t info[], size_t ninfo, pmix_info_t **copy_p, size_t *ncopy_p)
{
    *copy_p = nullptr;
    *ncopy_p = 0;
    if (ninfo == 0 || info == nullptr) return true;
    PMIX_INFO_CREATE(*copy_p, ninfo);
    if (*copy_p == nullptr) return false;
    *ncopy_p = ninfo;
    for (size_t i = 0; i < ninfo; ++i) PMIx_Info_xfer(&(*copy_p)[i], &info[i]);
    return true;
}

pmix_status_t on_spawn(const pmix_proc_t *proc, const pmix_info_t job_info[], size_t ninfo, const pmix_app_t apps[],
                       size_t napps, pmix_spawn_cbfunc_t cbfunc, void *cbdata)
{
    auto call = std::make_shared<SpawnCall>();
    if (proc != nullptr) call->requester = *proc;
    call->cbfunc = cbfunc;
    call->cbdata = cbdata;
    if (!copy_infos(job_info, ninfo, &call->job_info, &call->ninfo)) return PMIX_ERR_NOMEM;
    PMIX_APP_CREATE(call->apps, napps);
    if (call->apps == nullptr) return PMIX_ERR_NOMEM;
    call->napps = napps;
    for (size_t a = 0; a < napps; ++a) {
        pmix_app_t &copy = call->apps[a];
        copy.cmd = apps[a].cmd != nullptr ? strdup(apps[a].cmd) : nullptr;
        PMIX_ARGV_COPY(copy.argv, apps[a].argv);
        PMIX_ARGV_COPY(copy.env, apps[a].env);
        copy.cwd = apps[a].cwd != nullptr ? strdup(apps[a].cwd) : nullptr;
        copy.maxprocs = apps[a].maxprocs;
    }
    return queue([call](Runtime &rt) { rt.spawn(*call); });
}

// An InfoCall holding a copy of info.
std::shared_ptr<InfoCall> info_call(const pmix_proc_t *requester, uint32_t number, const pmix_info_t info[],
                                    size_t ninfo, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    auto call = std::make_shared<InfoCall>();
    if (requester != nullptr) call->requester = *requester;
    call->number = number;
    call->cbfunc = cbfunc;
    call->cbdata = cbdata;
    return copy_infos(info, ninfo, &call->info, &call->ninfo) ? call : nullptr;
}

pmix_status_t on_allocate(const pmix_proc_t *client, pmix_alloc_directive_t directive, const pmix_info_t data[],
                          size_t ndata, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    auto call = info_call(client, directive, data, ndata, cbfunc, cbdata);
    if (call == nullptr) return PMIX_ERR_NOMEM;
    return queue([call](Runtime &rt) { rt.allocate(*call); });
}

pmix_status_t on_job_control(const pmix_proc_t *requestor, const pmix_proc_t targets[], size_t ntargets,
                             const pmix_info_t directives[], size_t ndirs, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    auto call = info_call(requestor, 0, directives, ndirs, cbfunc, cbdata);
    if (call == nullptr) return PMIX_ERR_NOMEM;
    if (targets != nullptr) call->targets.assign(targets, targets + ntargets);
    return queue([call](Runtime &rt) { rt.job_control(*call); });
}

pmix_status_t on_connect(const pmix_proc_t[], size_t, const pmix_info_t[], size_t, pmix_op_cbfunc_t, void *)
{
    return PMIX_OPERATION_SUCCEEDED;
}

// PMIx_Log's host channels: one line on pmixrun's stderr per entry, naming
// the process ("[nspace:rank] key: text"), written by the main thread, which
// then calls back (never inside the upcall: OpenPMIx's server waits there).
// Open MPI's help messages (PMIX_LOG_MSG, open_mpi_log.h) are printed as
// their text, as mpirun prints them.
void on_log(const pmix_proc_t *client, const pmix_info_t data[], size_t ndata, const pmix_info_t[], size_t,
            pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    std::vector<std::string> lines;
    const std::string who =
        client != nullptr ? std::string(client->nspace) + ":" + std::to_string(client->rank) : std::string("?");
    for (size_t i = 0; i < ndata; ++i) {
        std::string help;
        if (data[i].value.type == PMIX_BYTE_OBJECT && PMIX_CHECK_KEY(&data[i], PMIX_LOG_MSG) &&
            open_mpi_help_text(data[i].value.data.bo, &help)) {
            while (!help.empty() && help.back() == '\n') help.pop_back();
            lines.push_back(std::move(help));
            continue;
        }
        if (data[i].value.type != PMIX_STRING || data[i].value.data.string == nullptr) continue;
        lines.push_back("[" + who + "] " + data[i].key + ": " + data[i].value.data.string);
    }
    const pmix_status_t status = lines.size() == ndata ? PMIX_SUCCESS
                                 : lines.empty()       ? PMIX_ERR_NOT_SUPPORTED
                                                       : PMIX_ERR_PARTIAL_SUCCESS;
    const pmix_status_t rc = queue([lines = std::move(lines), status, cbfunc, cbdata](Runtime &) {
        for (const std::string &line : lines) std::fprintf(stderr, "%s\n", line.c_str());
        std::fflush(stderr);
        if (cbfunc != nullptr) cbfunc(status, cbdata);
    });
    if (rc != PMIX_SUCCESS && cbfunc != nullptr) cbfunc(rc, cbdata);
}

// The answers are taken from the job table here; the callback is the main
// thread's, after this upcall returned.
pmix_status_t on_query(pmix_proc_t *requester, pmix_query_t *queries, size_t nqueries, pmix_info_cbfunc_t cbfunc,
                       void *cbdata)
{
    pmix_data_array_t *answers = nullptr;
    pmix_status_t status = PMIX_SUCCESS;
    const pmix_status_t rc = answer_queries(requester, queries, nqueries, &answers, &status);
    if (rc != PMIX_SUCCESS) return rc;
    return queue([=](Runtime &) {
        cbfunc(status, static_cast<pmix_info_t *>(answers->array), answers->size, cbdata, release_answers, answers);
    });
}

struct GroupAnswer {
    pmix_info_t *info = nullptr;
    size_t ninfo = 0;
};

void release_group_answer(void *cbdata)
{
    auto *answer = static_cast<GroupAnswer *>(cbdata);
    if (answer->info != nullptr) PMIX_INFO_FREE(answer->info, answer->ninfo);
    delete answer;
}

// Every member is on this node, so the library asks only for what it
// cannot decide alone: a context id, unique for pmixrun's life. One upcall
// per group, so every member gets the same. Ids are taken on the main
// thread, which is the only one that touches the counter. The members'
// collected data (PMIX_GROUP_ENDPT_DATA, which OpenPMIx's server hands up
// for the host to gather across nodes) goes back as it came: on one node it
// is already all of it.
pmix_status_t on_group(pmix_group_operation_t op, char[], const pmix_proc_t[], size_t, const pmix_info_t directives[],
                       size_t ndirs, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    bool wants_id = false;
    for (size_t i = 0; i < ndirs; ++i) {
        if (PMIX_CHECK_KEY(&directives[i], PMIX_GROUP_ASSIGN_CONTEXT_ID)) wants_id = PMIX_INFO_TRUE(&directives[i]);
    }
    auto *held = new GroupAnswer;
    size_t ncopied = 0;
    for (size_t i = 0; i < ndirs; ++i) ncopied += PMIX_CHECK_KEY(&directives[i], PMIX_GROUP_ENDPT_DATA) ? 1 : 0;
    held->ninfo = ncopied + (op == PMIX_GROUP_CONSTRUCT && wants_id ? 1 : 0);
    if (held->ninfo > 0) PMIX_INFO_CREATE(held->info, held->ninfo);
    size_t next = 0;
    for (size_t i = 0; held->info != nullptr && i < ndirs; ++i) {
        if (PMIX_CHECK_KEY(&directives[i], PMIX_GROUP_ENDPT_DATA)) PMIx_Info_xfer(&held->info[next++], &directives[i]);
    }
    if (held->ninfo > 0 && held->info == nullptr) {
        delete held;
        return PMIX_ERR_NOMEM;
    }
    const bool assign = op == PMIX_GROUP_CONSTRUCT && wants_id;
    return queue([=](Runtime &) {
        static size_t next_context_id = 1;
        if (assign) {
            const size_t id = next_context_id++;
            PMIX_INFO_LOAD(&held->info[held->ninfo - 1], PMIX_GROUP_CONTEXT_ID, &id, PMIX_SIZE);
        }
        cbfunc(PMIX_SUCCESS, held->info, held->ninfo, cbdata, release_group_answer, held);
    });
}

// A tool's stdin for the command line job's readers (--stdin); answered
// once their pipes took it, from the main thread.
pmix_status_t on_push_stdin(const pmix_proc_t *, const pmix_proc_t targets[], size_t ntargets,
                            const pmix_info_t directives[], size_t ndirs, const pmix_byte_object_t *bo,
                            pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    bool end = false;
    for (size_t i = 0; i < ndirs; ++i) {
        if (PMIX_CHECK_KEY(&directives[i], PMIX_IOF_COMPLETE)) end = PMIX_INFO_TRUE(&directives[i]);
    }
    std::vector<pmix_proc_t> to(targets, targets + ntargets);
    std::string data = bo != nullptr && bo->bytes != nullptr ? std::string(bo->bytes, bo->size) : std::string();
    return queue([to = std::move(to), data = std::move(data), end, cbfunc, cbdata](Runtime &rt) {
        auto done = [cbfunc, cbdata](pmix_status_t status) {
            if (cbfunc != nullptr) cbfunc(status, cbdata);
        };
        StdinForwarder *forwarder = rt.stdin_forwarder();
        if (forwarder == nullptr) return done(PMIX_ERR_NOT_AVAILABLE);
        const std::string main_nspace = rt.main_job().nspace;
        std::vector<uint32_t> ranks;
        bool all = false;
        for (const pmix_proc_t &target : to) {
            if (main_nspace != std::string(target.nspace, strnlen(target.nspace, PMIX_MAX_NSLEN))) continue;
            if (target.rank == PMIX_RANK_WILDCARD) all = true;
            ranks.push_back(target.rank);
        }
        if (!all && ranks.empty()) return done(PMIX_ERR_NOT_FOUND);  // only the command line's job reads stdin
        forwarder->push(ranks, all, data, end, done);
    });
}

}  // namespace

pmix_status_t on_session_control(const pmix_proc_t *requestor, uint32_t session_id, const pmix_info_t directives[],
                                 size_t ndirs, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    auto call = info_call(requestor, session_id, directives, ndirs, cbfunc, cbdata);
    if (call == nullptr) return PMIX_ERR_NOMEM;
    return queue([call](Runtime &rt) { rt.session_control(*call); });
}

HostEvents::HostEvents()
{
    if (::pipe2(fds_, O_CLOEXEC | O_NONBLOCK) != 0) fds_[0] = fds_[1] = -1;
}

HostEvents::~HostEvents()
{
    for (int fd : fds_) {
        if (fd >= 0) ::close(fd);
    }
}

void HostEvents::push(HostTask task)
{
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(task));
    }
    const char byte = 1;
    (void)!::write(fds_[1], &byte, 1);  // a full pipe already wakes the supervisor
}

std::deque<HostTask> HostEvents::take()
{
    char drain[64];
    while (::read(fds_[0], drain, sizeof drain) > 0) {
    }
    std::lock_guard lock(mutex_);
    std::deque<HostTask> taken;
    taken.swap(queue_);
    return taken;
}

pmix_server_module_t make_host_module(HostEvents *events)
{
    g_events = events;
    pmix_server_module_t module;
    std::memset(&module, 0, sizeof module);
    module.client_finalized = on_client_finalized;
    module.abort = on_abort;
    module.fence_nb = on_fence;
    module.direct_modex = on_direct_modex;
    module.publish = ns_publish;
    module.lookup = ns_lookup;
    module.unpublish = ns_unpublish;
    module.spawn = on_spawn;
    module.connect = on_connect;
    module.disconnect = on_connect;
    module.query = on_query;
    module.group = on_group;
    module.log = on_log;
    module.allocate = on_allocate;
    module.job_control = on_job_control;
    module.push_stdin = on_push_stdin;
    return module;
}

}  // namespace pmixrun
