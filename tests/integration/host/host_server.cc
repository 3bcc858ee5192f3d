// The server side of the test host: PMIx_server_init / finalize, the host
// module's upcalls, and the bounded waits on the library's callbacks.
#include "integration/host/host_internal.h"

#include <pmix.h>

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace pmixpp::itest {
namespace {

Host *g_current = nullptr;

// ---- upcalls ------------------------------------------------------------

struct OpCall {
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
};

void complete_op_later(void *arg)
{
    auto *call = static_cast<OpCall *>(arg);
    call->cbfunc(PMIX_SUCCESS, call->cbdata);
    delete call;
}

// Sync mode answers "done" at once; async mode acknowledges from a host
// thread later, the way a real RM that forwards the event would.
pmix_status_t acknowledge(pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    Host *host = Host::current();
    if (host == nullptr || !host->options().async_upcalls || cbfunc == nullptr) {
        return PMIX_OPERATION_SUCCEEDED;
    }
    host->run_later(complete_op_later, new OpCall{cbfunc, cbdata});
    return PMIX_SUCCESS;
}

pmix_status_t on_client_connected(const pmix_proc_t *, void *, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (Host *host = Host::current()) host->counters().connected++;
    return acknowledge(cbfunc, cbdata);
}

pmix_status_t on_client_finalized(const pmix_proc_t *, void *, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (Host *host = Host::current()) host->counters().finalized++;
    return acknowledge(cbfunc, cbdata);
}

pmix_status_t on_abort(const pmix_proc_t *, void *, int status, const char[], pmix_proc_t[], size_t,
                       pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (Host *host = Host::current()) {
        host->counters().last_abort_status = status;
        host->counters().aborts++;
    }
    return acknowledge(cbfunc, cbdata);
}

struct FenceCall {
    pmix_modex_cbfunc_t cbfunc;
    void *cbdata;
    char *data;
    size_t ndata;
};

void release_fence_data(void *data) { std::free(data); }

void complete_fence_later(void *arg)
{
    auto *call = static_cast<FenceCall *>(arg);
    call->cbfunc(PMIX_SUCCESS, call->data, call->ndata, call->cbdata, release_fence_data, call->data);
    delete call;
}

// One node: the gathered data of the job is exactly this node's contribution.
pmix_status_t on_fence(const pmix_proc_t[], size_t, const pmix_info_t[], size_t, char *data, size_t ndata,
                       pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    Host *host = Host::current();
    if (host != nullptr) host->counters().fences++;
    if (cbfunc == nullptr) return PMIX_ERR_BAD_PARAM;
    if (host == nullptr || !host->options().async_upcalls) {
        cbfunc(PMIX_SUCCESS, data, ndata, cbdata, nullptr, nullptr);
        return PMIX_SUCCESS;
    }
    // The library owns `data` only until this upcall returns: keep a copy.
    char *copy = static_cast<char *>(std::malloc(ndata > 0 ? ndata : 1));
    if (copy == nullptr) return PMIX_ERR_NOMEM;
    if (ndata > 0) std::memcpy(copy, data, ndata);
    host->run_later(complete_fence_later, new FenceCall{cbfunc, cbdata, copy, ndata});
    return PMIX_SUCCESS;
}

// Every process runs on this node, so nobody else can hold the data.
pmix_status_t on_direct_modex(const pmix_proc_t *, const pmix_info_t[], size_t, pmix_modex_cbfunc_t, void *)
{
    if (Host *host = Host::current()) host->counters().direct_modex++;
    return PMIX_ERR_NOT_FOUND;
}

pmix_server_module_t make_module()
{
    pmix_server_module_t module;
    std::memset(&module, 0, sizeof(module));
    module.client_connected = on_client_connected;
    module.client_finalized = on_client_finalized;
    module.abort = on_abort;
    module.fence_nb = on_fence;
    module.direct_modex = on_direct_modex;
    return module;
}

int remove_entry(const char *path, const struct stat *, int, struct FTW *)
{
    std::remove(path);
    return 0;
}

// A server that hangs in finalize must fail the test, not stall it: the
// call runs on its own thread, which is abandoned if it never returns.
pmix_status_t finalize_bounded(int timeout_ms)
{
    auto *op = new OpWait;
    std::thread([op] { op_wait_callback(PMIx_server_finalize(), op); }).detach();
    std::unique_lock<std::mutex> guard(op->lock);
    if (!op->changed.wait_for(guard, std::chrono::milliseconds(timeout_ms), [op] { return op->done; })) {
        std::fprintf(stderr, "itest host: PMIx_server_finalize did not return within %d ms\n", timeout_ms);
        return PMIX_ERR_TIMEOUT;
    }
    const pmix_status_t status = op->status;
    guard.unlock();
    delete op;
    return status;
}

} // namespace

// ---- waiting for the library's callbacks ------------------------------------

void op_wait_callback(pmix_status_t status, void *cbdata)
{
    auto *op = static_cast<OpWait *>(cbdata);
    std::lock_guard<std::mutex> guard(op->lock);
    op->status = status;
    op->done = true;
    op->changed.notify_all();
}

pmix_status_t Host::wait_op(pmix_status_t rc, OpWait *op, const char *what)
{
    if (rc == PMIX_OPERATION_SUCCEEDED) rc = PMIX_SUCCESS;
    else if (rc == PMIX_SUCCESS) rc = PMIX_ERR_WOULD_BLOCK;  // a callback is coming
    if (rc != PMIX_ERR_WOULD_BLOCK) {
        delete op;
        return rc;
    }
    std::unique_lock<std::mutex> guard(op->lock);
    const bool done = op->changed.wait_for(guard, std::chrono::milliseconds(options_.op_timeout_ms),
                                           [op] { return op->done; });
    if (!done) {
        // The library may still call back later: leave `op` alive for it.
        std::fprintf(stderr, "itest host: %s did not call back within %d ms\n", what, options_.op_timeout_ms);
        return PMIX_ERR_TIMEOUT;
    }
    const pmix_status_t status = op->status;
    guard.unlock();
    delete op;
    return status;
}

// ---- life cycle --------------------------------------------------------------

Host *Host::current() { return g_current; }

Host::~Host() { stop(); }

pmix_status_t Host::make_tmpdir(std::string *error_p)
{
    const char *base = std::getenv("TMPDIR");
    std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/pmixpp-itest.XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
        if (error_p) *error_p = "mkdtemp " + pattern + ": " + std::strerror(errno);
        return PMIX_ERROR;
    }
    tmpdir_ = pattern;
    if (options_.world_reachable) chmod(tmpdir_.c_str(), 0755);
    return PMIX_SUCCESS;
}

pmix_status_t Host::start(const HostOptions &options, std::string *error_p)
{
    if (g_current != nullptr || started_) {
        if (error_p) *error_p = "a host is already running in this process";
        return PMIX_ERR_INIT;
    }
    options_ = options;
    hostname_ = options.hostname;
    if (hostname_.empty()) {
        char name[HOST_NAME_MAX + 1] = {0};
        gethostname(name, sizeof(name) - 1);
        hostname_ = name;
    }
    pmix_status_t rc = make_tmpdir(error_p);
    if (rc != PMIX_SUCCESS) return rc;

    void *list = PMIx_Info_list_start();
    PMIx_Info_list_add(list, PMIX_SERVER_TMPDIR, tmpdir_.c_str(), PMIX_STRING);
    PMIx_Info_list_add(list, PMIX_SYSTEM_TMPDIR, tmpdir_.c_str(), PMIX_STRING);
    PMIx_Info_list_add(list, PMIX_SERVER_NSPACE, "itest-server", PMIX_STRING);
    const pmix_rank_t server_rank = 0;
    PMIx_Info_list_add(list, PMIX_SERVER_RANK, &server_rank, PMIX_PROC_RANK);
    PMIx_Info_list_add(list, PMIX_HOSTNAME, hostname_.c_str(), PMIX_STRING);
    if (options_.world_reachable) {
        const uint32_t mode = 0777;
        PMIx_Info_list_add(list, PMIX_SOCKET_MODE, &mode, PMIX_UINT32);
    }
    pmix_data_array_t array;
    rc = PMIx_Info_list_convert(list, &array);
    PMIx_Info_list_release(list);
    if (rc != PMIX_SUCCESS) {
        if (error_p) *error_p = "PMIx_Info_list_convert: " + status_name(rc);
        return rc;
    }
    pmix_server_module_t module = make_module();
    g_current = this;
    rc = PMIx_server_init(&module, static_cast<pmix_info_t *>(array.array), array.size);
    PMIx_Data_array_destruct(&array);
    if (rc != PMIX_SUCCESS) {
        g_current = nullptr;
        if (error_p) *error_p = "PMIx_server_init: " + status_name(rc);
        nftw(tmpdir_.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        return rc;
    }
    started_ = true;
    return PMIX_SUCCESS;
}

void Host::run_later(void (*fn)(void *), void *arg)
{
    std::lock_guard<std::mutex> guard(workers_lock_);
    workers_.emplace_back(fn, arg);
}

void Host::join_workers()
{
    std::vector<std::thread> workers;
    {
        std::lock_guard<std::mutex> guard(workers_lock_);
        workers.swap(workers_);
    }
    for (std::thread &worker : workers) worker.join();
}

pmix_status_t Host::shutdown_server()
{
    if (!started_) return PMIX_SUCCESS;
    join_workers();
    const std::vector<std::string> nspaces = nspaces_;
    for (const std::string &nspace : nspaces) deregister_job(nspace);
    join_workers();
    const pmix_status_t rc = finalize_bounded(options_.op_timeout_ms);
    join_workers();
    started_ = false;
    g_current = nullptr;
    return rc;
}

pmix_status_t Host::stop()
{
    kill_children();
    const pmix_status_t rc = shutdown_server();
    if (!tmpdir_.empty()) nftw(tmpdir_.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    tmpdir_.clear();
    return rc;
}

std::string status_name(pmix_status_t rc)
{
    const char *text = PMIx_Error_string(rc);
    return std::string(text != nullptr ? text : "?") + " (" + std::to_string(rc) + ")";
}

} // namespace pmixpp::itest
