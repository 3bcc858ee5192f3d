// setup_application / setup_local_support across the pnet components (see
// setup_calls.h).
#include "server/pnet/setup_calls.h"

#include "common/runtime/log.h"
#include "server/fork/envars.h"
#include "server/fork/fork_state.h"
#include "server/state/info_read.h"
#include "server/state/server.h"
#include "server/pnet/pnet_server.h"
#include "server/pnet/job_state.h"

#include <pmix.h>

#include <chrono>
#include <cstdlib>
#include <cstring>

namespace pmixpp::server::pnet {
namespace {

constexpr const char *kTimeoutEnv = "PMIX_MCA_pmix_server_pnet_timeout";
constexpr std::chrono::milliseconds kDefaultTimeout{30000};
// A component's done callback carries (call id, component index) in its
// cbdata, not a pointer: a late or repeated answer can never touch freed
// memory, it only finds no call waiting.
constexpr unsigned kIndexBits = 8;
constexpr std::size_t kMaxComponents = std::size_t{1} << kIndexBits;

std::chrono::milliseconds call_timeout()
{
    const char *text = std::getenv(kTimeoutEnv);
    if (text == nullptr || *text == '\0') return kDefaultTimeout;
    char *end = nullptr;
    const double seconds = std::strtod(text, &end);
    if (end == text || *end != '\0' || !(seconds > 0.0) || seconds > 86400.0) {
        runtime::log_warning("server", std::string(kTimeoutEnv) + "='" + text +
                                           "' is not a number of seconds in (0, 86400] (using the default of 30)");
        return kDefaultTimeout;
    }
    return std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0 + 0.5));
}

void *token_of(uint64_t id, std::size_t index)
{
    return reinterpret_cast<void *>(static_cast<uintptr_t>((id << kIndexBits) | index));
}

const char *what(const SetupCall &call)
{
    return call.kind == SetupCall::Kind::application ? "setup_application" : "setup_local_support";
}

void release_result(pmix_status_t, void *cbdata)
{
    auto *array = static_cast<pmix_data_array_t *>(cbdata);
    PMIX_DATA_ARRAY_FREE(array);
}

// Every answered component's entries, in priority order, filtered as the
// host asked (PMIX_SETUP_APP_ENVARS / _NONENVARS).
pmix_data_array_t *merged_result(const SetupCall &call)
{
    void *all = PMIx_Info_list_start();
    if (all == nullptr) return nullptr;
    for (std::size_t i = 0; i < call.lists.size(); ++i) {
        if (call.answers[i] != SetupCall::Answer::done || call.lists[i] == nullptr) continue;
        pmix_data_array_t part;
        PMIX_DATA_ARRAY_CONSTRUCT(&part, 0, PMIX_INFO);
        if (PMIx_Info_list_convert(call.lists[i], &part) != PMIX_SUCCESS) continue;
        const auto *infos = static_cast<const pmix_info_t *>(part.array);
        for (std::size_t k = 0; k < part.size; ++k) {
            const bool envar = is_envar_key(std::string_view(infos[k].key, strnlen(infos[k].key, PMIX_MAX_KEYLEN)));
            if ((call.envars_only && !envar) || (call.nonenvars_only && envar)) continue;
            (void)PMIx_Info_list_xfer(all, &infos[k]);
        }
        PMIX_DATA_ARRAY_DESTRUCT(&part);
    }
    auto *result = static_cast<pmix_data_array_t *>(std::calloc(1, sizeof(pmix_data_array_t)));
    if (result != nullptr && PMIx_Info_list_convert(all, result) != PMIX_SUCCESS) {
        std::free(result);
        result = nullptr;
    }
    PMIx_Info_list_release(all);
    return result;
}

// The host's status: success when any component answered (the failures
// were named already), else the first failure.
pmix_status_t overall(const SetupCall &call)
{
    for (auto answer : call.answers) {
        if (answer == SetupCall::Answer::done) return PMIX_SUCCESS;
    }
    return call.answers.empty() ? PMIX_SUCCESS : call.first_failure;
}

void finish(Server &server, uint64_t id)
{
    auto found = server.part<pnet::SetupCalls>().calls.find(id);
    if (found == server.part<pnet::SetupCalls>().calls.end()) return;
    std::unique_ptr<SetupCall> call = std::move(found->second);
    server.part<pnet::SetupCalls>().calls.erase(found);
    call->timer.cancel();
    const pmix_status_t status = overall(*call);
    if (call->kind == SetupCall::Kind::local_support) {
        if (Namespace *ns = server.find_namespace(call->nspace)) --ns->part<pnet::JobState>().local_support_pending;
        publish_fork_job(server, call->nspace);
        if (call->op_cbfunc != nullptr) call->op_cbfunc(status, call->cbdata);
        return;
    }
    pmix_data_array_t *result = merged_result(*call);
    if (result == nullptr) {
        call->app_cbfunc(PMIX_ERR_NOMEM, nullptr, 0, call->cbdata, nullptr, nullptr);
        return;
    }
    call->app_cbfunc(status, static_cast<pmix_info_t *>(result->array), result->size, call->cbdata, release_result,
                     result);
}

void record_answer(Server &server, SetupCall &call, std::size_t index, pmix_status_t status)
{
    if (index >= call.answers.size() || call.answers[index] != SetupCall::Answer::pending) return;
    const bool ok = status == PMIX_SUCCESS || status == PMIX_OPERATION_SUCCEEDED;
    call.answers[index] = ok ? SetupCall::Answer::done : SetupCall::Answer::failed;
    if (!ok && call.first_failure == PMIX_SUCCESS) call.first_failure = status;
    if (!ok) {
        runtime::log_warning("server", "pnet/" + call.components[index] + ": " + what(call) + " of " + call.nspace +
                                           " failed (" + PMIx_Error_string(status) +
                                           "); the job goes on without what it would have added");
    }
    if (--call.pending == 0) finish(server, call.id);
}

void component_done(pmix_status_t status, void *cbdata)  // any thread
{
    const auto raw = reinterpret_cast<uintptr_t>(cbdata);
    const uint64_t id = raw >> kIndexBits;
    const std::size_t index = raw & (kMaxComponents - 1);
    post_to_server([id, index, status](Server &server) {
        auto found = server.part<pnet::SetupCalls>().calls.find(id);
        if (found != server.part<pnet::SetupCalls>().calls.end()) record_answer(server, *found->second, index, status);
    });
}

void time_out(Server &server, uint64_t id)
{
    auto found = server.part<pnet::SetupCalls>().calls.find(id);
    if (found == server.part<pnet::SetupCalls>().calls.end()) return;
    SetupCall &call = *found->second;
    for (std::size_t i = 0; i < call.answers.size(); ++i) {
        if (call.answers[i] != SetupCall::Answer::pending) continue;
        call.answers[i] = SetupCall::Answer::failed;
        runtime::log_warning("server", "pnet/" + call.components[i] + ": " + what(call) + " of " + call.nspace +
                                           " did not answer within " + kTimeoutEnv + "; the job goes on without it");
    }
    call.pending = 0;
    if (call.first_failure == PMIX_SUCCESS) call.first_failure = PMIX_ERR_TIMEOUT;
    finish(server, id);
}

// The namespace's session directory for components that prepare files
// (the host's info first: it may name its own).
pmix_status_t with_nsdir(const Server &server, const std::string &nspace, wire::InfoArray &info)
{
    if (find_info(info.data(), info.size(), PMIX_NSDIR) != nullptr) return PMIX_SUCCESS;
    store::ValuePtr dir;
    if (server.store->fetch(nspace.c_str(), PMIXPP_GDS_LEVEL_JOB, 0, PMIX_NSDIR, &dir) != PMIX_SUCCESS ||
        dir->type != PMIX_STRING) {
        return PMIX_SUCCESS;
    }
    wire::InfoArray grown;
    pmix_status_t rc = grown.allocate(info.size() + 1);
    for (std::size_t i = 0; rc == PMIX_SUCCESS && i < info.size(); ++i) rc = PMIx_Info_xfer(&grown[i], &info[i]);
    if (rc == PMIX_SUCCESS) PMIX_INFO_LOAD(&grown[info.size()], PMIX_NSDIR, dir->data.string, PMIX_STRING);
    if (rc == PMIX_SUCCESS) info = std::move(grown);
    return rc;
}

pmix_status_t call_component(SetupCall &call, const pmixpp_pnet_module_t *module, std::size_t index)
{
    void *token = token_of(call.id, index);
    if (call.kind == SetupCall::Kind::application) {
        if (!PMIXPP_PNET_HAS(module, setup_application)) return PMIX_OPERATION_SUCCEEDED;
        call.lists[index] = PMIx_Info_list_start();
        if (call.lists[index] == nullptr) return PMIX_ERR_NOMEM;
        return module->setup_application(call.nspace.c_str(), call.info.data(), call.info.size(), call.lists[index],
                                         component_done, token);
    }
    if (!PMIXPP_PNET_HAS(module, setup_local_support)) return PMIX_OPERATION_SUCCEEDED;
    return module->setup_local_support(call.nspace.c_str(), call.info.data(), call.info.size(), component_done, token);
}

pmix_status_t start(Server &server, std::unique_ptr<SetupCall> owned)
{
    if (server.pnet_modules.size() >= kMaxComponents) return PMIX_ERR_OUT_OF_RESOURCE;
    SetupCall &call = *owned;
    call.id = server.part<pnet::SetupCalls>().next_id++;
    const std::size_t n = server.pnet_modules.size();
    call.answers.assign(n, SetupCall::Answer::pending);
    call.lists.assign(n, nullptr);
    for (const auto &selected : server.pnet_modules) call.components.push_back(selected.component);
    server.part<pnet::SetupCalls>().calls.emplace(call.id, std::move(owned));
    // The loop's own hold: no answer finishes the call before every
    // component was asked.
    call.pending = 1;
    for (std::size_t i = 0; i < n; ++i) {
        const auto *module = static_cast<const pmixpp_pnet_module_t *>(server.pnet_modules[i].module);
        const pmix_status_t rc = call_component(call, module, i);
        ++call.pending;
        if (rc != PMIX_SUCCESS) record_answer(server, call, i, rc);  // answered now; else its done comes later
    }
    --call.pending;
    const uint64_t id = call.id;
    // The host's callback never runs before the call returned.
    if (call.pending == 0) {
        post_to_server([id](Server &s) { finish(s, id); });
    } else {
        call.timer = server.engine.add_timer(call_timeout(), [id] {
            if (Server *now = current()) time_out(*now, id);
        });
    }
    return PMIX_SUCCESS;
}

}  // namespace

SetupCall::~SetupCall()
{
    for (void *list : lists) {
        if (list != nullptr) PMIx_Info_list_release(list);
    }
}

pmix_status_t start_application(Server &server, const std::string &nspace, const pmix_info_t info[], std::size_t ninfo,
                                pmix_setup_application_cbfunc_t cbfunc, void *cbdata)
{
    auto call = std::make_unique<SetupCall>();
    call->kind = SetupCall::Kind::application;
    call->nspace = nspace;
    pmix_status_t rc = call->info.assign_copy(info, ninfo);
    if (rc != PMIX_SUCCESS) return rc;
    call->envars_only = directive_flag(info, ninfo, PMIX_SETUP_APP_ENVARS);
    call->nonenvars_only = directive_flag(info, ninfo, PMIX_SETUP_APP_NONENVARS);
    call->app_cbfunc = cbfunc;
    call->cbdata = cbdata;
    return start(server, std::move(call));
}

pmix_status_t start_local_support(Server &server, const std::string &nspace, const pmix_info_t info[],
                                  std::size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    auto call = std::make_unique<SetupCall>();
    call->kind = SetupCall::Kind::local_support;
    call->nspace = nspace;
    pmix_status_t rc = call->info.assign_copy(info, ninfo);
    if (rc == PMIX_SUCCESS) rc = with_nsdir(server, nspace, call->info);
    if (rc != PMIX_SUCCESS) return rc;
    call->op_cbfunc = cbfunc;
    call->cbdata = cbdata;
    // Until the callback, setup_fork of this job is refused (pnet_server.h).
    ++server.namespace_entry(nspace).part<pnet::JobState>().local_support_pending;
    publish_fork_job(server, nspace);
    return start(server, std::move(call));
}

void fail_pending_calls(Server &server)
{
    std::vector<uint64_t> ids;
    for (const auto &[id, call] : server.part<pnet::SetupCalls>().calls) ids.push_back(id);
    for (uint64_t id : ids) {
        auto found = server.part<pnet::SetupCalls>().calls.find(id);
        if (found == server.part<pnet::SetupCalls>().calls.end()) continue;
        SetupCall &call = *found->second;
        for (auto &answer : call.answers) {
            if (answer == SetupCall::Answer::pending) answer = SetupCall::Answer::failed;
        }
        call.pending = 0;
        if (call.first_failure == PMIX_SUCCESS) call.first_failure = PMIX_ERR_LOST_CONNECTION;
        finish(server, id);
    }
}

}  // namespace pmixpp::server::pnet
