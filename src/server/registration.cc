// Registration of namespaces and local clients, and their fork environment.
//
// register_nspace and register_client do their work before returning and
// answer the way OpenPMIx 4.2 does (op_result in state/server.h): without a
// callback PMIX_OPERATION_SUCCEEDED, with one PMIX_SUCCESS and the callback
// later. The void deregistrations call their callback later too, never
// before returning.
#include <pmix_server.h>

#include "common/runtime/log.h"
#include "server/cleanup/server_cleanup.h"
#include "server/fork/fork_env.h"
#include "server/fork/fork_state.h"
#include "server/engine/peer_lifecycle.h"
#include "server/state/server.h"
#include "server/state/topology.h"
#include "server/jobdata/registration.h"
#include "server/fork/envars.h"
#include "server/pnet/pnet_server.h"
#include "server/pnet/job_state.h"
#include "server/requests/requests.h"
#include "server/sessiondirs/server_hooks.h"

#include <pmixpp/util.hpp>

#include <cstring>
#include <new>
#include <string>

using namespace pmixpp::server;

namespace {

using pmixpp::util::valid_nspace;

std::string nspace_string(const char *nspace)
{
    return std::string(nspace, strnlen(nspace, PMIX_MAX_NSLEN));
}

// The callback of a void call: later on the progress thread, or here when
// no progress thread runs any more (the call has nothing else to return).
void post_callback(pmix_op_cbfunc_t cbfunc, void *cbdata, pmix_status_t status)
{
    if (cbfunc == nullptr) return;
    if (post_later([=] { cbfunc(status, cbdata); }) != PMIX_SUCCESS) cbfunc(status, cbdata);
}

pmix_status_t register_nspace(Server &server, const std::string &name, int nlocalprocs, const pmix_info_t info[],
                              size_t ninfo)
{
    // The job's environment directives (pnet) are checked first: a bad
    // one refuses the registration before anything changed.
    std::vector<pmixpp::server::pnet::EnvarDirective> envars;
    std::string why;
    if (const pmix_status_t rc = pmixpp::server::pnet::collect_envars(info, ninfo, &envars, &why); rc != PMIX_SUCCESS) {
        pmixpp::runtime::log_warning("server", "cannot register nspace " + name + ": " + why + " (" +
                                                   PMIx_Error_string(rc) + ")");
        return rc;
    }
    Namespace *existing = server.find_namespace(name);
    if (existing != nullptr && existing->registered) {
        // A re-registration replaces the job data (OpenPMIx accepts it too).
        pmixpp::jobdata::deregister_nspace(name.c_str(), *server.store);
    }
    pmixpp::jobdata::Options options;
    options.local_hostname = server.config.hostname;
    options.local_hostname_given = server.config.hostname_given;
    options.topology = [&server] { return node_topology(server); };
    pmixpp::jobdata::JobSummary summary;
    std::string error;
    const pmix_status_t rc = pmixpp::jobdata::register_nspace(name.c_str(), nlocalprocs, info, ninfo, options,
                                                              *server.store, &summary, &error);
    if (rc != PMIX_OPERATION_SUCCEEDED && rc != PMIX_SUCCESS) {
        pmixpp::runtime::log_warning("server", "cannot register nspace " + name + ": " + error + " (" +
                                                   PMIx_Error_string(rc) + ")");
        return rc;
    }
    Namespace &ns = server.namespace_entry(name);
    ns.part<pnet::JobState>().envars = std::move(envars);
    if (summary.local_node_known && !summary.nodata) share_topology(server, name, summary.local_nodeid);
    ns.registered = true;
    ns.nlocalprocs = nlocalprocs;
    ns.summary = std::move(summary);
    server.hooks.namespace_registered(server, name, info, ninfo);  // engine/subsystems.cc
    return PMIX_SUCCESS;
}

void deregister_nspace(Server &server, const std::string &name)
{
    if (server.find_namespace(name) == nullptr) return;
    disconnect_clients(server, name);
    server.waiters.fail_nspace(name, PMIX_ERR_NOT_FOUND);
    server.hooks.namespace_deregistered(server, name);  // engine/subsystems.cc
    server.namespaces.erase(name);
    // Job data and modex data alike.
    server.store->remove_nspace(name.c_str());
}

}  // namespace

pmix_status_t PMIx_server_register_nspace(const pmix_nspace_t nspace, int nlocalprocs, pmix_info_t info[], size_t ninfo,
                                          pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (!valid_nspace(nspace) || (info == nullptr && ninfo > 0) || nlocalprocs < 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    try {
        const std::string name = nspace_string(nspace);
        const pmix_status_t rc =
            with_server([&](Server &server) { return register_nspace(server, name, nlocalprocs, info, ninfo); });
        return op_result(rc, cbfunc, cbdata);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

void PMIx_server_deregister_nspace(const pmix_nspace_t nspace, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (!valid_nspace(nspace)) return post_callback(cbfunc, cbdata, PMIX_ERR_BAD_PARAM);
    pmix_status_t rc = PMIX_ERR_NOMEM;
    try {
        const std::string name = nspace_string(nspace);
        rc = with_server([&](Server &server) {
            deregister_nspace(server, name);
            return PMIX_SUCCESS;
        });
    } catch (const std::bad_alloc &) {
    }
    post_callback(cbfunc, cbdata, rc);
}

pmix_status_t PMIx_server_register_client(const pmix_proc_t *proc, uid_t uid, gid_t gid, void *server_object,
                                          pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (proc == nullptr || !valid_nspace(proc->nspace) || proc->rank == PMIX_RANK_WILDCARD ||
        proc->rank == PMIX_RANK_UNDEF || proc->rank == PMIX_RANK_INVALID) {
        return PMIX_ERR_BAD_PARAM;
    }
    try {
        const std::string name = nspace_string(proc->nspace);
        const pmix_status_t rc = with_server([&](Server &server) {
            ClientRecord &client = server.namespace_entry(name).clients[proc->rank];
            client.uid = uid;
            client.gid = gid;
            client.server_object = server_object;
            server.hooks.client_registered(server, *proc);
            fork_state::note_registered(name, proc->rank);
            return PMIX_SUCCESS;
        });
        return op_result(rc, cbfunc, cbdata);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

void PMIx_server_deregister_client(const pmix_proc_t *proc, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (proc == nullptr || !valid_nspace(proc->nspace)) {
        return post_callback(cbfunc, cbdata, PMIX_ERR_BAD_PARAM);
    }
    const pmix_proc_t target = *proc;
    const pmix_status_t rc = with_server([&](Server &server) {
        Namespace *ns = server.find_namespace(target.nspace);
        if (ns == nullptr || ns->clients.erase(target.rank) == 0) return PMIX_ERR_NOT_FOUND;
        fork_state::forget_registered(ns->name, target.rank);
        disconnect_client(server, target);
        server.hooks.client_deregistered(server, target);  // engine/subsystems.cc
        return PMIX_SUCCESS;
    });
    post_callback(cbfunc, cbdata, rc);
}

// Computed on the caller's thread from what the progress thread published
// (fork/fork_state.h): hosts call this in the child they just forked too.
pmix_status_t PMIx_server_setup_fork(const pmix_proc_t *proc, char ***env)
{
    if (proc == nullptr || env == nullptr || !valid_nspace(proc->nspace)) return PMIX_ERR_BAD_PARAM;
    try {
        const std::string name = nspace_string(proc->nspace);
        ForkView view;
        if (!fork_state::read(name, &view)) return PMIX_ERR_INIT;
        // The job's directives and the pnet components first, then ours: a
        // job's envar cannot change who the child is or where its server is.
        pmix_status_t rc = pmixpp::server::pnet::setup_child_env(view, *proc, env);
        if (rc != PMIX_SUCCESS) return rc;
        if (!view.in_forked_child && !fork_state::registered(name, proc->rank)) {
            // A host that forks before register_client still gets the
            // client's directory. (In a forked child there is no server to
            // ask; the parent made it at register_client or register_nspace.
            // After register_client it is made: no trip to the progress
            // thread, two context switches per child at launch.)
            const pmix_proc_t target = *proc;
            (void)with_server([&](Server &server) {
                server.hooks.client_registered(server, target);
                fork_state::note_registered(name, target.rank);
                return PMIX_SUCCESS;
            });
        }
        const std::string &hostname =
            view.job && !view.job->hostname.empty() ? view.job->hostname : view.server.hostname;
        for (const EnvList &list : {view.server.environment, child_environment(*proc, hostname)}) {
            for (const auto &[entry, value] : list) {
                if ((rc = env_set(env, entry, value)) != PMIX_SUCCESS) return rc;
            }
        }
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
