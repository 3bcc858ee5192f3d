// The server side of the test host: PMIx_server_init / finalize and the
// bounded waits on the library's callbacks (the upcalls: host_upcalls.cc).
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

}  // namespace

// ---- waiting for the library's callbacks ------------------------------------

void op_wait_callback(pmix_status_t status, void *cbdata)
{
    auto *op = static_cast<OpWait *>(cbdata);
    std::lock_guard<std::mutex> guard(op->lock);
    op->status = status;
    op->done = true;
    op->changed.notify_all();
}

// Every call handed here was given op_wait_callback. OpenPMIx 4.2 answers
// such a call PMIX_SUCCESS and calls back later; Open MPI's pmix3x/ext3x and
// python3-pmix wait only on PMIX_SUCCESS and take anything else, also
// PMIX_OPERATION_SUCCEEDED (the answer for a call WITHOUT a callback), as a
// failure. So does this host.
pmix_status_t Host::wait_op(pmix_status_t rc, OpWait *op, const char *what)
{
    if (rc == PMIX_OPERATION_SUCCEEDED) {
        std::fprintf(stderr,
                     "itest host: %s was given a callback but returned PMIX_OPERATION_SUCCEEDED "
                     "(OpenPMIx returns PMIX_SUCCESS and calls back)\n",
                     what);
        return rc;  // `op` stays alive: a callback may still come
    }
    if (rc != PMIX_SUCCESS) {
        delete op;
        return rc;
    }
    std::unique_lock<std::mutex> guard(op->lock);
    const bool done =
        op->changed.wait_for(guard, std::chrono::milliseconds(options_.op_timeout_ms), [op] { return op->done; });
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

Host *Host::current()
{
    return g_current;
}

// ---- abort -------------------------------------------------------------------

pmix_status_t Host::record_abort(AbortRecord record, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    counters_.last_abort_status = record.status;
    counters_.aborts++;
    std::lock_guard<std::mutex> guard(abort_lock_);
    const bool first = !abort_seen_;
    if (first) abort_ = std::move(record);
    abort_seen_ = true;
    abort_changed_.notify_all();
    if (!options_.hold_aborts || cbfunc == nullptr || !first) return PMIX_OPERATION_SUCCEEDED;
    held_abort_cbfunc_ = cbfunc;
    held_abort_cbdata_ = cbdata;
    return PMIX_SUCCESS;
}

bool Host::wait_for_abort(int timeout_ms, AbortRecord *record_p)
{
    std::unique_lock<std::mutex> guard(abort_lock_);
    if (!abort_changed_.wait_for(guard, std::chrono::milliseconds(timeout_ms), [this] { return abort_seen_; })) {
        return false;
    }
    *record_p = abort_;
    return true;
}

void Host::release_abort(pmix_status_t status)
{
    pmix_op_cbfunc_t cbfunc = nullptr;
    void *cbdata = nullptr;
    {
        std::lock_guard<std::mutex> guard(abort_lock_);
        std::swap(cbfunc, held_abort_cbfunc_);
        std::swap(cbdata, held_abort_cbdata_);
    }
    if (cbfunc != nullptr) cbfunc(status, cbdata);
}

void Host::expect_upcalls_on(std::thread::id loop)
{
    loop_thread_ = loop;
    loop_thread_set_.store(true, std::memory_order_release);
}

void Host::note_upcall_thread()
{
    if (loop_thread_set_.load(std::memory_order_acquire) && std::this_thread::get_id() != loop_thread_) {
        counters_.upcalls_off_loop++;
    }
}

Host::~Host()
{
    stop();
}

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
    PMIx_Info_list_add(list, PMIX_SERVER_RANK, &options_.server_rank, PMIX_PROC_RANK);
    if (options_.event_base != nullptr) {
        PMIx_Info_list_add(list, PMIX_EVENT_BASE, options_.event_base, PMIX_POINTER);
    }
    if (!options_.omit_hostname_at_init) PMIx_Info_list_add(list, PMIX_HOSTNAME, hostname_.c_str(), PMIX_STRING);
    if (options_.share_topology) {
        const bool share = true;
        PMIx_Info_list_add(list, PMIX_SERVER_SHARE_TOPOLOGY, &share, PMIX_BOOL);
    }
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
    pmix_server_module_t module = make_module(options_);
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
    release_abort(PMIX_ERR_UNREACH);
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

}  // namespace pmixpp::itest
