#include "server/cleanup/server_cleanup.h"

#include <pmixpp/util.hpp>

#include "common/runtime/log.h"
#include "server/cleanup/guard_rails.h"
#include "server/cleanup/walker.h"
#include "server/state/server.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <utility>

namespace pmixpp::cleanup {

namespace {

// <nspace, rank>; rank PMIX_RANK_WILDCARD for a namespace scope.
using ScopeKey = std::pair<std::string, pmix_rank_t>;
using Scopes = std::map<ScopeKey, CleanupSet>;

// The scopes of each running server. Kept beside the Server (not in it) so
// that this feature stays in its own folder; on_finalize drops the entry.
// Never destroyed: no destructor runs at exit in a host's process.
std::map<const server::Server *, Scopes> &all_scopes()
{
    static auto *table = new std::map<const server::Server *, Scopes>;
    return *table;
}

Scopes &scopes_of(const server::Server &server)
{
    return all_scopes()[&server];
}

using util::nspace_of;

std::string scope_name(const ScopeKey &key)
{
    return key.second == PMIX_RANK_WILDCARD ? "namespace " + key.first : key.first + "." + std::to_string(key.second);
}

pmix_status_t resolve_target(const pmix_proc_t &requester, const pmix_proc_t &target, ScopeKey *key_p,
                             std::string *why_p)
{
    const std::string nspace = nspace_of(target);
    if (server::same_proc(target, requester)) {
        *key_p = ScopeKey{nspace, target.rank};
        return PMIX_SUCCESS;
    }
    if (target.rank == PMIX_RANK_WILDCARD && nspace == nspace_of(requester)) {
        *key_p = ScopeKey{nspace, PMIX_RANK_WILDCARD};
        return PMIX_SUCCESS;
    }
    // Another job's scope is not the requester's to change: its ignore rules
    // and its removals would reach that job's cleanup.
    *why_p = "target " + server::proc_name(target) + " is neither the requester nor its own namespace " +
             nspace_of(requester) + " with PMIX_RANK_WILDCARD (a process registers cleanup for itself or for its job)";
    return PMIX_ERR_BAD_PARAM;
}

pmix_status_t resolve_scopes(const pmix_proc_t &requester, const std::vector<pmix_proc_t> &targets,
                             std::vector<ScopeKey> *keys_p, std::string *why_p)
{
    std::vector<ScopeKey> keys;
    if (targets.empty()) keys.emplace_back(nspace_of(requester), PMIX_RANK_WILDCARD);
    for (const pmix_proc_t &target : targets) {
        ScopeKey key;
        const pmix_status_t rc = resolve_target(requester, target, &key, why_p);
        if (rc != PMIX_SUCCESS) return rc;
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(std::move(key));
    }
    *keys_p = std::move(keys);
    return PMIX_SUCCESS;
}

void run_scope(server::Server &server, const ScopeKey &key)
{
    Scopes &scopes = scopes_of(server);
    const auto found = scopes.find(key);
    if (found == scopes.end()) return;
    // Taken out first: whatever happens during the run, it runs once.
    const CleanupSet set = std::move(found->second);
    scopes.erase(found);
    runtime::log_trace("PMIX_MCA_pmix_server_verbose", "cleanup",
                       "running the registered cleanup of " + scope_name(key));
    SkipReport report(debug_enabled());
    execute(set, report);
}

// Every local client the host registered for nspace has terminated.
bool every_client_gone(server::Server &server, const std::string &nspace)
{
    const server::Namespace *ns = server.find_namespace(nspace);
    if (ns == nullptr) return true;
    for (const auto &[rank, client] : ns->clients) {
        if (ns->gone.count(rank) == 0) return false;
    }
    return true;
}

void process_ended(server::Server &server, const pmix_proc_t &proc)
{
    const std::string nspace = nspace_of(proc);
    run_scope(server, ScopeKey{nspace, proc.rank});
    if (every_client_gone(server, nspace)) run_scope(server, ScopeKey{nspace, PMIX_RANK_WILDCARD});
}

// The guard rails (guard_rails.h), per path to remove: the first rule broken
// refuses the whole request, in one line naming the path and the rule.
pmix_status_t refuse_forbidden(const Registration &reg, std::string *why_p)
{
    for (const auto &[key, paths] :
         {std::pair{PMIX_REGISTER_CLEANUP, &reg.files}, std::pair{PMIX_REGISTER_CLEANUP_DIR, &reg.directories}}) {
        for (const std::string &path : *paths) {
            const std::string rule = forbidden_target(path);
            if (rule.empty()) continue;
            *why_p = std::string(key) + ": \"" + path + "\" " + rule;
            return PMIX_ERR_NO_PERMISSIONS;
        }
    }
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t register_request(server::Server &server, const pmix_proc_t &requester, const Owner &owner,
                               const std::vector<pmix_proc_t> &targets, const pmix_info_t directives[],
                               std::size_t ndirs, std::string *why_p)
{
    std::vector<ScopeKey> keys;
    pmix_status_t rc = resolve_scopes(requester, targets, &keys, why_p);
    if (rc != PMIX_SUCCESS) return rc;
    Registration reg;
    rc = parse_registration(directives, ndirs, &reg, why_p);
    if (rc != PMIX_SUCCESS) return rc;
    if ((rc = refuse_forbidden(reg, why_p)) != PMIX_SUCCESS) return rc;
    Scopes &scopes = scopes_of(server);
    for (const ScopeKey &key : keys) {
        const auto found = scopes.find(key);
        if (found == scopes.end()) continue;
        rc = found->second.check(reg, why_p);
        if (rc != PMIX_SUCCESS) return rc;
    }
    for (const ScopeKey &key : keys) scopes[key].merge(reg, owner);
    return PMIX_SUCCESS;
}

void on_client_gone(server::Server &server, const pmix_proc_t &proc)
{
    process_ended(server, proc);
}

void on_client_deregistered(server::Server &server, const pmix_proc_t &proc)
{
    process_ended(server, proc);
}

void on_nspace_deregistered(server::Server &server, const std::string &nspace)
{
    std::vector<ScopeKey> due;
    for (const auto &[key, set] : scopes_of(server)) {
        if (key.first == nspace && key.second != PMIX_RANK_WILDCARD) due.push_back(key);
    }
    due.emplace_back(nspace, PMIX_RANK_WILDCARD);  // after its processes' own
    for (const ScopeKey &key : due) run_scope(server, key);
}

void on_finalize(server::Server &server)
{
    std::vector<ScopeKey> due;
    for (const auto &[key, set] : scopes_of(server)) due.push_back(key);
    // Process scopes before namespace scopes, as when they end one by one.
    std::stable_partition(due.begin(), due.end(), [](const ScopeKey &key) { return key.second != PMIX_RANK_WILDCARD; });
    for (const ScopeKey &key : due) run_scope(server, key);
    all_scopes().erase(&server);
}

std::size_t pending_scopes(const server::Server &server)
{
    const auto found = all_scopes().find(&server);
    return found == all_scopes().end() ? 0 : found->second.size();
}

}  // namespace pmixpp::cleanup
