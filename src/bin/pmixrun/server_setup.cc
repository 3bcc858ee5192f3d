#include "server_setup.h"

#include "authorization.h"
#include "job_table.h"
#include "node_cpuset.h"

#include <pmix.h>
#include <pmix_server.h>
#include <pmixpp/util.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>

namespace pmixrun {
namespace {

// One callback of the server, waited for on the main thread.
struct Wait {
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
    pmix_status_t status = PMIX_ERR_TIMEOUT;
    pmix_info_t *info = nullptr;  // setup_application's result, our copy
    size_t ninfo = 0;

    ~Wait()
    {
        if (info != nullptr) PMIX_INFO_FREE(info, ninfo);
    }
    void finish(pmix_status_t rc)
    {
        std::lock_guard lock(mutex);
        status = rc;
        done = true;
        cv.notify_all();
    }
    pmix_status_t wait()
    {
        std::unique_lock lock(mutex);
        cv.wait(lock, [this] { return done; });
        return status;
    }
};

void on_op(pmix_status_t status, void *cbdata)
{
    static_cast<Wait *>(cbdata)->finish(status);
}

void on_application(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *provided, pmix_op_cbfunc_t release,
                    void *release_cbdata)
{
    auto *wait = static_cast<Wait *>(provided);
    if (status == PMIX_SUCCESS && ninfo > 0) {
        PMIX_INFO_CREATE(wait->info, ninfo);
        for (size_t i = 0; wait->info != nullptr && i < ninfo; ++i) PMIx_Info_xfer(&wait->info[i], &info[i]);
        wait->ninfo = wait->info != nullptr ? ninfo : 0;
    }
    if (release != nullptr) release(PMIX_SUCCESS, release_cbdata);
    wait->finish(status);
}

void on_tool_connected(pmix_info_t info[], size_t ninfo, pmix_tool_connection_cbfunc_t cbfunc, void *cbdata)
{
    // Only our own user's (or root's) tools: a tool may control every job.
    for (size_t i = 0; i < ninfo; ++i) {
        std::string why;
        if (!PMIX_CHECK_KEY(&info[i], PMIX_USERID) || info[i].value.type != PMIX_UINT32) continue;
        if (may_connect_tool(static_cast<uid_t>(info[i].value.data.uint32), &why)) break;
        say_refusal("tool connection", why);
        return cbfunc(PMIX_ERR_NO_PERMISSIONS, nullptr, cbdata);
    }
    // Tools (a pmixpp_ps-like monitor) get a namespace of their own.
    static unsigned next = 0;
    pmix_proc_t tool;
    const std::string name =
        std::string(kNamePrefix) + "tool-" + std::to_string(::getpid()) + "-" + std::to_string(++next);
    PMIX_LOAD_PROCID(&tool, name.c_str(), 0);
    cbfunc(PMIX_SUCCESS, &tool, cbdata);
}

std::string server_nspace()
{
    char host[256] = "localhost";
    (void)::gethostname(host, sizeof host - 1);
    return kNamePrefix + std::string(host) + "-" + std::to_string(::getpid());
}

std::string status_text(const char *what, pmix_status_t rc)
{
    return std::string(what) + " failed: " + PMIx_Error_string(rc);
}

}  // namespace

bool start_server(const Options &options, HostEvents *events, std::string *why_p)
{
    static pmix_server_module_t module = make_host_module(events);
    module.tool_connected = on_tool_connected;
    const std::string nspace = server_nspace();
    const bool yes = true;
    const pmix_rank_t rank = 0;
    const bool no = false;
    pmix_info_t info[10];
    size_t n = 0;
    // PMIx_Session_control has no slot in the 4.2 module: pmixpp takes it here.
    PMIX_INFO_LOAD(&info[n++], PMIXPP_SERVER_SESSION_CONTROL, reinterpret_cast<void *>(&on_session_control),
                   PMIX_POINTER);
    PMIX_INFO_LOAD(&info[n++], PMIX_SERVER_NSPACE, nspace.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&info[n++], PMIX_SERVER_RANK, &rank, PMIX_PROC_RANK);
    // pmixrun prints its jobs' output itself (output.cc): the library must
    // not print what pmixrun delivers to the tools that pull it.
    PMIX_INFO_LOAD(&info[n++], PMIX_IOF_LOCAL_OUTPUT, &no, PMIX_BOOL);
    // Tools find this pmixrun by its pid or namespace files. The node-wide
    // system server file is claimed only when asked: a user's launcher is
    // not the system server, and two pmixruns side by side must not collide
    // (nor may another user's file stop every later pmixrun).
    PMIX_INFO_LOAD(&info[n++], PMIX_SERVER_TOOL_SUPPORT, &yes, PMIX_BOOL);
    if (options.system_server) PMIX_INFO_LOAD(&info[n++], PMIX_SERVER_SYSTEM_SUPPORT, &yes, PMIX_BOOL);
    if (!options.tmpdir.empty()) {
        PMIX_INFO_LOAD(&info[n++], PMIX_SERVER_TMPDIR, options.tmpdir.c_str(), PMIX_STRING);
        PMIX_INFO_LOAD(&info[n++], PMIX_SYSTEM_TMPDIR, options.tmpdir.c_str(), PMIX_STRING);
    }
    // Our topology (by pointer: it lives as long as pmixrun): the server
    // need not discover the node a second time.
    if (node_topology().topology != nullptr) {
        PMIX_INFO_LOAD(&info[n++], PMIX_TOPOLOGY2, const_cast<pmix_topology_t *>(&node_topology()), PMIX_POINTER);
    }
    const pmix_status_t rc = PMIx_server_init(&module, info, n);
    for (size_t i = 0; i < n; ++i) PMIX_INFO_DESTRUCT(&info[i]);
    if (rc != PMIX_SUCCESS) {
        *why_p = "cannot start the PMIx server: " + std::string(PMIx_Error_string(rc)) +
                 " (the lines above say why; check --mca settings and PMIX_MCA_* variables)";
        return false;
    }
    return true;
}

namespace {

// The file written under a fresh name in the same directory (O_EXCL |
// O_NOFOLLOW: nothing planted there is followed or reused), then renamed
// over PATH. A link at PATH is replaced, never followed: root's pmixrun
// once overwrote the file a planted link pointed at.
bool write_file_replacing(const std::string &path, const std::string &text, std::string *why_p)
{
    const std::string temporary = path + ".pmixrun-" + std::to_string(::getpid()) + ".tmp";
    pmixpp::util::UniqueFd fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (!fd) {
        *why_p = "--report-uri: cannot create " + temporary + ": " + std::strerror(errno) +
                 " (choose a directory of your own)";
        return false;
    }
    const bool written = ::write(fd.get(), text.data(), text.size()) == static_cast<ssize_t>(text.size());
    const int write_error = errno;
    fd.reset();
    if (!written || ::rename(temporary.c_str(), path.c_str()) != 0) {
        *why_p = "--report-uri: cannot write " + path + ": " + std::strerror(written ? errno : write_error);
        ::unlink(temporary.c_str());
        return false;
    }
    return true;
}

}  // namespace

bool report_uri(const Options &options, std::string *why_p)
{
    pmix_proc_t self;
    PMIX_LOAD_PROCID(&self, server_nspace().c_str(), 0);
    pmix_value_t *value = nullptr;
    const pmix_status_t rc = PMIx_Get(&self, PMIX_SERVER_URI, nullptr, 0, &value);
    if ((rc != PMIX_SUCCESS || value->type != PMIX_STRING) && options.report_uri.empty()) {
        if (value != nullptr) PMIX_VALUE_RELEASE(value);
        return true;  // nobody needs it but queries, which then go unanswered
    }
    if (rc != PMIX_SUCCESS || value->type != PMIX_STRING) {
        *why_p = "--report-uri: the server's URI is unknown (" + std::string(PMIx_Error_string(rc)) + ")";
        if (value != nullptr) PMIX_VALUE_RELEASE(value);
        return false;
    }
    const std::string uri = value->data.string;
    PMIX_VALUE_RELEASE(value);
    set_server_uri(uri);  // tools ask for it with PMIX_SERVER_URI
    if (options.report_uri.empty()) return true;
    if (options.report_uri == "-") {
        std::printf("%s\n", uri.c_str());
        std::fflush(stdout);
        return true;
    }
    return write_file_replacing(options.report_uri, uri + "\n", why_p);
}

bool prepare_job(const Job &job, std::string *why_p)
{
    pmix_info_t *setup = nullptr;
    size_t nsetup = 0;
    pmix_status_t rc = setup_info(job, &setup, &nsetup);
    Wait application;
    if (rc == PMIX_SUCCESS)
        rc = PMIx_server_setup_application(job.nspace.c_str(), setup, nsetup, on_application, &application);
    if (rc == PMIX_SUCCESS) rc = application.wait();
    if (setup != nullptr) PMIX_INFO_FREE(setup, nsetup);
    if (rc != PMIX_SUCCESS) {
        *why_p = status_text("PMIx_server_setup_application", rc);
        return false;
    }
    pmix_info_t *info = nullptr;
    size_t ninfo = 0;
    rc = job_info(job, application.info, application.ninfo, &info, &ninfo);
    if (rc == PMIX_SUCCESS)
        rc = PMIx_server_register_nspace(job.nspace.c_str(), static_cast<int>(job.size()), info, ninfo, nullptr,
                                         nullptr);
    if (info != nullptr) PMIX_INFO_FREE(info, ninfo);
    if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) {
        *why_p = status_text("PMIx_server_register_nspace", rc);
        return false;
    }
    Wait local;
    rc = PMIx_server_setup_local_support(job.nspace.c_str(), application.info, application.ninfo, on_op, &local);
    if (rc == PMIX_SUCCESS) rc = local.wait();
    if (rc != PMIX_SUCCESS) {
        *why_p = status_text("PMIx_server_setup_local_support", rc);
        return false;
    }
    return true;
}

void release_job(const Job &job)
{
    for (const Proc &proc : job.procs) {
        pmix_proc_t id;
        PMIX_LOAD_PROCID(&id, job.nspace.c_str(), proc.rank);
        PMIx_server_deregister_client(&id, nullptr, nullptr);
    }
    PMIx_server_deregister_nspace(job.nspace.c_str(), nullptr, nullptr);
}

void stop_server()
{
    PMIx_server_finalize();
}

}  // namespace pmixrun
