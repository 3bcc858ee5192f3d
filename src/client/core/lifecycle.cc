// PMIx_Init / PMIx_Finalize behind the C entry points: reference counting,
// singleton or connected start, orderly teardown, host mode (this process
// runs the server: no session, the server's state answers) and fork safety.
#include <pthread.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <shared_mutex>

#include <pmix.h>

#include "client/core/discovery.h"
#include "client/core/events.h"
#include "client/core/handshake.h"
#include "client/core/host_mode.h"
#include "client/core/params.h"
#include "client/core/requests.h"
#include "client/core/session.h"
#include "client/core/fence_arena.h"
#include "client/core/singleton.h"
#include "client/core/starts.h"
#include "common/runtime/latch.h"
#include "common/runtime/log.h"
#include "common/store/resolver.h"
#include "common/values/value_ops.h"
#include "framework/src/selected_modules.h"

namespace pmixpp::client {

namespace {

// Process-wide; allocated once and never destroyed, so no static destructor
// races a progress thread at exit.
struct Global {
    std::mutex lifecycle;      // serializes Init and Finalize
    std::shared_mutex access;  // guards `session`
    std::shared_ptr<Session> session;
    int refcount = 0;
    int host_refcount = 0;  // PMIx_Init calls of a host (no session)
};

std::atomic<Global *> g_global{nullptr};

// In a child of fork() the parent's session is unusable: its connection is
// shared with the parent and its progress thread does not exist. The child
// starts from a fresh, uninitialized Global; the old one (and its locks,
// which another parent thread may have held) is left alone on purpose, never
// destroyed: destroying it would close the parent's socket.
void forget_parent_state_in_child()
{
    g_global.store(new (std::nothrow) Global);
    forget_host_state_in_child();
}

Global &global()
{
    static std::once_flag once;
    std::call_once(once, [] {
        g_global.store(new Global);
        (void)pthread_atfork(nullptr, nullptr, forget_parent_state_in_child);
    });
    Global *g = g_global.load();
    if (g == nullptr) {  // out of memory in a forked child
        std::abort();
    }
    return *g;
}

void load_proc(pmix_proc_t *proc, const char *nspace, pmix_rank_t rank)
{
    std::memset(proc, 0, sizeof *proc);
    PMIX_LOAD_NSPACE(proc->nspace, nspace);
    proc->rank = rank;
}

struct event_base *event_base_of(const pmix_info_t info[], size_t ninfo)
{
    for (size_t i = 0; info != nullptr && i < ninfo; ++i) {
        if (std::strncmp(info[i].key, PMIX_EVENT_BASE, PMIX_MAX_KEYLEN) == 0 && info[i].value.type == PMIX_POINTER) {
            return static_cast<struct event_base *>(info[i].value.data.ptr);
        }
    }
    return nullptr;
}

// Undoes a (partial) start. Not on the progress thread.
void tear_down(const std::shared_ptr<Session> &session)
{
    session->finalizing = true;
    auto detach = [session] {
        detach_connection(*session);
        if (session->events) {
            session->events->clear();
        }
    };
    // Our own loop runs what was posted before it stops: posting the detach
    // and releasing wakes the progress thread once, where waiting for it
    // first took two wake-ups of each thread per process. A host's loop
    // (external mode) may not run it in time: wait for it there.
    if (session->engine->external() || session->engine->post(detach) != PMIX_SUCCESS) {
        (void)session->engine->run_and_wait(detach);
    }
    session->engine->release();
    if (!session->engine->running()) {
        framework::set_event_base(nullptr);  // the base is gone with the engine
    }
}

// The FinalizeRequest, waited for at most `wait`.
void say_goodbye(const std::shared_ptr<Session> &session, const pmix_info_t info[], size_t ninfo)
{
    wire::FinalizeRequest request;
    if (info != nullptr && ninfo > 0 && request.directives.assign_copy(info, ninfo) != PMIX_SUCCESS) {
        return;
    }
    auto wait = timeout_of(info, ninfo);
    if (wait.count() == 0) {
        wait = seconds_param(kFinalizeTimeoutParam, kDefaultFinalizeTimeout);
    }
    auto done = std::make_shared<runtime::Latch<>>();
    pmix_status_t rc = send_message(session, request, wait, [done](pmix_status_t st, const wire::Frame *reply) {
        wire::StatusReply status;
        done->complete(read_reply(st, reply, &status));
    });
    // On the progress thread the reply could never be read: do not wait.
    if (rc == PMIX_SUCCESS && !session->engine->on_progress_thread()) {
        (void)done->wait_for(wait);
    }
}

}  // namespace

pmix_status_t start_singleton(Session &session, const std::string &nspace)
{
    session.singleton = true;
    std::string name = nspace.empty() ? singleton_nspace(session.hostname) : nspace;
    load_proc(&session.self, name.c_str(), 0);
    load_proc(&session.server, name.c_str(), PMIX_RANK_UNDEF);
    pmix_status_t rc = create_store("", &session.store);
    if (rc == PMIX_SUCCESS) {
        rc = register_singleton(session.self.nspace, session.hostname, *session.store);
    }
    return rc;
}

// A client talks to one server through one transport, one security module
// and its server's gds: every other component .so loaded for the selection
// only costs each process memory (a tool keeps them: it may attach to other
// servers). A process that is also a server keeps everything (retain_only
// declines while another role holds a framework).
namespace {

void unload_unused_components(const Greeted &greeted, const store::Store &store)
{
    if (!greeted.ptl.empty()) (void)framework::retain_only("ptl", {greeted.ptl});
    if (!greeted.psec.empty()) (void)framework::retain_only("psec", {greeted.psec});
    (void)framework::retain_only("gds", {store.module_name()});
}

}  // namespace

pmix_status_t start_connected(const std::shared_ptr<Session> &session, const ServerContact &contact,
                              std::shared_ptr<ServerLink> *link_p)
{
    Greeted greeted;
    pmix_status_t rc = connect_and_greet(contact, &greeted);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    const wire::Welcome &w = greeted.welcome;
    if (session->self.nspace[0] == '\0') {
        load_proc(&session->self, w.peer_nspace.empty() ? contact.nspace.c_str() : w.peer_nspace.c_str(),
                  w.peer_nspace.empty() ? contact.rank : w.peer_rank);
    }
    pmix_proc_t server;
    load_proc(&server, w.server_nspace.empty() ? contact.server_nspace.c_str() : w.server_nspace.c_str(),
              w.server_nspace.empty() ? contact.server_rank : w.server_rank);
    if (!session->store) {
        session->store = std::move(greeted.store);
    }
    if (session->tool) {
        // A server keeps no job data for a tool: its own keys are local.
        (void)register_tool_self(session->self.nspace, session->self.rank, session->hostname, *session->store);
    }
    if (!session->arena) attach_arena(*session, w.info);  // the fence arena the Welcome names
    const bool needs_private_copy = greeted.needs_private_copy && !session->tool;
    rc = attach_connection(session, greeted.fd, server, link_p, greeted.openpmix.dialect);
    if (rc == PMIX_SUCCESS) {
        session->singleton = false;
    }
    if (rc == PMIX_SUCCESS && needs_private_copy) rc = fetch_private_job_data(session);
    if (rc == PMIX_SUCCESS && !session->tool) unload_unused_components(greeted, *session->store);
    return rc;
}

EventHome::EventHome() = default;
EventHome::~EventHome() = default;

bool EventHome::on_this_node(const pmix_proc_t & /*proc*/) const
{
    return true;
}

Session::Session() = default;
Session::~Session() = default;

bool Session::on_this_node(const pmix_proc_t &proc) const
{
    if (is_self(*this, proc) ||
        (proc.rank == server.rank && std::strncmp(proc.nspace, server.nspace, PMIX_MAX_NSLEN) == 0)) {
        return true;
    }
    store::GetRequest request;
    request.target = &proc;
    request.key = PMIX_HOSTNAME;
    request.self = &self;
    store::ValuePtr host;
    if (!store || store::get(*store, request, &host) != PMIX_SUCCESS || host->type != PMIX_STRING ||
        host->data.string == nullptr) {
        return true;  // we cannot tell: do not drop the event
    }
    return hostname == host->data.string;
}

std::shared_ptr<Session> current_session()
{
    Global &g = global();
    std::shared_lock lock(g.access);
    return g.session;
}

bool initialized()
{
    return current_session() != nullptr || host_mode();
}

bool is_self(const Session &session, const pmix_proc_t &proc)
{
    return proc.rank == session.self.rank && std::strncmp(proc.nspace, session.self.nspace, PMIX_MAX_NSLEN) == 0;
}

namespace {

// PMIx_Init without a launcher's server in the environment is a singleton.
pmix_status_t start_client(const std::shared_ptr<Session> &session)
{
    ServerContact contact;
    std::string problem;
    bool has_server = discover_server(&contact, &problem);
    if (!problem.empty()) {
        runtime::log_warning("client", problem + " (fix the environment the launcher gave us)");
    }
    return has_server ? start_connected(session, contact) : start_singleton(*session, "");
}

}  // namespace

pmix_status_t initialize(const pmix_info_t info[], size_t ninfo, pmix_proc_t *proc_p, Role role)
{
    Global &g = global();
    std::lock_guard lifecycle(g.lifecycle);
    if (g.refcount > 0) {
        ++g.refcount;
        if (proc_p != nullptr) {
            *proc_p = g.session->self;
        }
        return PMIX_SUCCESS;
    }
    // Like OpenPMIx: in a process that runs the server, PMIx_Init connects
    // nowhere and names the server's own proc.
    if (role == Role::client && host_mode()) {
        pmix_proc_t me;
        pmix_status_t rc = host_identity(&me);
        if (rc == PMIX_SUCCESS) {
            ++g.host_refcount;
            if (proc_p != nullptr) {
                *proc_p = me;
            }
        }
        return rc;
    }
    auto &engine = runtime::ProgressEngine::process();
    pmix_status_t rc = engine.acquire(event_base_of(info, ninfo));
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    framework::set_event_base(engine.base());
    auto session = std::make_shared<Session>();
    session->engine = &engine;
    session->events = std::make_unique<EventRegistry>();
    const char *host = std::getenv("PMIX_HOSTNAME");
    session->hostname = (host != nullptr && host[0] != '\0') ? host : local_hostname();

    session->tool = role == Role::tool;
    rc = session->tool ? start_tool(session, info, ninfo) : start_client(session);
    if (rc != PMIX_SUCCESS) {
        tear_down(session);
        return rc;
    }
    {
        std::unique_lock lock(g.access);
        session->published = true;
        g.session = session;
    }
    g.refcount = 1;
    if (proc_p != nullptr) {
        *proc_p = session->self;
    }
    return PMIX_SUCCESS;
}

pmix_status_t finalize(const pmix_info_t info[], size_t ninfo)
{
    if (info == nullptr && ninfo > 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    Global &g = global();
    std::lock_guard lifecycle(g.lifecycle);
    if (g.refcount == 0) {
        if (g.host_refcount == 0) {
            return PMIX_ERR_INIT;
        }
        --g.host_refcount;
        return PMIX_SUCCESS;
    }
    if (--g.refcount > 0) {
        return PMIX_SUCCESS;
    }
    std::shared_ptr<Session> session = g.session;
    // A tool just leaves: the server forgets it when its connection ends
    // (a host's client_finalized is for the clients it launched).
    if (!session->singleton && !session->tool) {
        if (flag_of(info, ninfo, PMIX_EMBED_BARRIER)) {
            (void)PMIx_Fence(nullptr, 0, nullptr, 0);
        }
        // The server may close right after its reply: that is no loss.
        session->finalizing = true;
        say_goodbye(session, info, ninfo);
    }
    {
        std::unique_lock lock(g.access);
        g.session.reset();
    }
    tear_down(session);
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::client
