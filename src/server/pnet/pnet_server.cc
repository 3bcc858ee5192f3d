// The server's pnet components through a job's life (see pnet_server.h).
#include "server/pnet/pnet_server.h"

#include "common/runtime/log.h"
#include "server/fork/fork_state.h"
#include "server/pnet/job_state.h"
#include "server/state/server.h"

#include <vector>

namespace pmixpp::server::pnet {
namespace {

uint32_t appnum_of(const Server &server, const std::string &nspace, pmix_rank_t rank)
{
    store::ValuePtr value;
    if (server.store->fetch(nspace.c_str(), PMIXPP_GDS_LEVEL_PROC, rank, PMIX_APPNUM, &value) == PMIX_SUCCESS &&
        value->type == PMIX_UINT32) {
        return value->data.uint32;
    }
    return 0;  // a job of one application
}

void count_children(const Server &server, Namespace &ns)
{
    if (ns.part<pnet::JobState>().counted) return;
    ns.part<pnet::JobState>().counted = true;
    for (pmix_rank_t local : ns.summary.local_ranks) {
        if (ns.part<pnet::JobState>().children_ended.count(local) == 0)
            ++ns.part<pnet::JobState>().children_left[appnum_of(server, ns.name, local)];
    }
}

// After a child of `appnum` ended: the application cleanup, when it was the
// last local child of its application.
void end_app_if_done(Server &server, Namespace &ns, uint32_t appnum)
{
    auto left = ns.part<pnet::JobState>().children_left.find(appnum);
    if (left != ns.part<pnet::JobState>().children_left.end() && left->second > 0) --left->second;
    if (left != ns.part<pnet::JobState>().children_left.end() && left->second > 0) return;
    if (!ns.part<pnet::JobState>().apps_ended.insert(appnum).second) return;
    for (const auto &selected : server.pnet_modules) {
        const auto *module = module_of(selected);
        if (PMIXPP_PNET_HAS(module, local_app_finalized)) module->local_app_finalized(ns.name.c_str(), appnum);
    }
}

void end_child(Server &server, Namespace &ns, pmix_rank_t rank)
{
    count_children(server, ns);
    if (!ns.part<pnet::JobState>().children_ended.insert(rank).second) return;  // ran already
    const pmix_proc_t proc = make_proc(ns.name, rank);
    for (const auto &selected : server.pnet_modules) {
        const auto *module = module_of(selected);
        if (PMIXPP_PNET_HAS(module, child_finalized)) module->child_finalized(&proc);
    }
    end_app_if_done(server, ns, appnum_of(server, ns.name, rank));
}

}  // namespace

pmix_status_t select_components(Server &server)
{
    const pmix_status_t rc = framework::select("pnet", &server.pnet_modules);
    if (rc != PMIX_SUCCESS) {
        runtime::log_warning("server", std::string("pnet component selection failed (") + PMIx_Error_string(rc) +
                                           "): check PMIX_MCA_pnet and the installed pnet components");
    }
    return rc;
}

pmix_status_t setup_child_env(const ForkView &view, const pmix_proc_t &proc, char ***env_p)
{
    if (view.job && view.job->local_support_pending) {
        runtime::log_warning("server", "PMIx_server_setup_fork(" + proc_name(proc) +
                                           ") before PMIx_server_setup_local_support of its namespace completed: "
                                           "the host must not fork a job's processes until that call's callback ran");
        return PMIX_ERR_WOULD_BLOCK;
    }
    if (view.job) {
        const pmix_status_t rc = apply_envars(view.job->envars, env_p);
        if (rc != PMIX_SUCCESS) return rc;
    }
    for (const ForkPnet &pnet : view.server.pnet) {
        if (!PMIXPP_PNET_HAS(pnet.module, setup_fork)) continue;
        const pmix_status_t rc = pnet.module->setup_fork(&proc, env_p);
        if (rc != PMIX_SUCCESS) {
            // One component's trouble does not keep the child from starting.
            runtime::log_warning("server", "pnet/" + pnet.component + ": setup_fork of " + proc_name(proc) +
                                               " failed (" + PMIx_Error_string(rc) + "); the child starts without it");
        }
    }
    return PMIX_SUCCESS;
}

void on_child_ended(Server &server, const pmix_proc_t &proc)
{
    Namespace *ns = server.find_namespace(proc.nspace);
    if (ns == nullptr || !ns->registered || !ns->is_local(proc.rank)) return;
    end_child(server, *ns, proc.rank);
}

void on_nspace_deregistered(Server &server, const std::string &nspace)
{
    Namespace *ns = server.find_namespace(nspace);
    if (ns == nullptr || ns->tool) return;
    if (ns->registered) {
        for (pmix_rank_t rank : ns->summary.local_ranks) end_child(server, *ns, rank);
    }
    for (const auto &selected : server.pnet_modules) {
        const auto *module = module_of(selected);
        if (PMIXPP_PNET_HAS(module, deregister_nspace)) module->deregister_nspace(nspace.c_str());
    }
}

void on_finalize(Server &server)
{
    std::vector<std::string> names;
    for (const auto &[name, ns] : server.namespaces) names.push_back(name);
    for (const auto &name : names) on_nspace_deregistered(server, name);
}

const pmixpp_pnet_module_t *module_of(const framework::SelectedModule &selected)
{
    return static_cast<const pmixpp_pnet_module_t *>(selected.module);
}

void warn_failed(const std::string &component, const char *what, pmix_status_t rc, const char *consequence)
{
    runtime::log_warning("server",
                         "pnet/" + component + ": " + what + " failed (" + PMIx_Error_string(rc) + "); " + consequence);
}

}  // namespace pmixpp::server::pnet

namespace pmixpp::server {

void publish_fork_job(const Server &server, const std::string &nspace)
{
    const auto found = server.namespaces.find(nspace);
    if (found == server.namespaces.end()) return fork_state::forget_job(nspace);
    const Namespace &ns = found->second;
    ForkJobState state;
    state.envars = ns.part<pnet::JobState>().envars;
    state.local_support_pending = ns.part<pnet::JobState>().local_support_pending > 0;
    state.hostname = ns.summary.local_hostname;
    fork_state::publish_job(nspace, std::move(state));
}

}  // namespace pmixpp::server
