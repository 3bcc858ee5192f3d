#include "client/core/local_data.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "common/store/resolver.h"
#include "common/values/type_ops.h"
#include "common/values/value_ops.h"

namespace pmixpp::client {

namespace {

bool is_reserved(const char *key)
{
    return std::strncmp(key, "pmix", 4) == 0;
}

bool job_level(pmix_rank_t rank)
{
    return rank == PMIX_RANK_WILDCARD || rank == PMIX_RANK_UNDEF;
}

// Everything known about target: job data for a wildcard rank, else the
// proc's registered and put data.
pmix_status_t lookup_all(const Session &session, const Lookup &lookup, store::ValuePtr *value_p)
{
    const store::Store &st = *session.store;
    const char *nspace = lookup.target.nspace;
    store::InfoArray registered;
    store::InfoArray put;
    if (job_level(lookup.target.rank)) {
        (void)st.fetch_all(nspace, PMIXPP_GDS_LEVEL_JOB, PMIX_RANK_WILDCARD, &registered);
    } else {
        (void)st.fetch_all(nspace, PMIXPP_GDS_LEVEL_PROC, lookup.target.rank, &registered);
        (void)st.fetch_modex_all(nspace, lookup.target.rank, lookup.visibility, &put);
    }
    size_t total = registered.size() + put.size();
    if (total == 0) {
        return PMIX_ERR_NOT_FOUND;
    }
    wire::InfoArray merged;
    pmix_status_t rc = merged.allocate(total);
    size_t at = 0;
    for (const auto *part : {&registered, &put}) {
        for (const pmix_info_t &item : *part) {
            if (rc == PMIX_SUCCESS) {
                rc = values::info_xfer(&merged[at++], &item);
            }
        }
    }
    return rc == PMIX_SUCCESS ? info_array_value(merged.data(), merged.size(), value_p) : rc;
}

}  // namespace

pmix_status_t copy_value(const pmix_value_t &src, store::ValuePtr *value_p)
{
    auto *value = static_cast<pmix_value_t *>(std::calloc(1, sizeof(pmix_value_t)));
    if (value == nullptr) {
        return PMIX_ERR_NOMEM;
    }
    store::ValuePtr owned(value);
    pmix_status_t rc = values::value_xfer(value, &src);
    if (rc == PMIX_SUCCESS) {
        *value_p = std::move(owned);
    }
    return rc;
}

pmix_status_t info_array_value(const pmix_info_t *info, size_t n, store::ValuePtr *value_p)
{
    pmix_data_array_t array{};
    array.type = PMIX_INFO;
    array.size = n;
    array.array = const_cast<pmix_info_t *>(info);
    pmix_value_t view{};
    view.type = PMIX_DATA_ARRAY;
    view.data.darray = &array;
    // value_xfer deep-copies the array behind the borrowed view.
    return copy_value(view, value_p);
}

pmix_status_t lookup_local(const Session &session, const Lookup &lookup, store::ValuePtr *value_p)
{
    if (lookup.key == nullptr) {
        return lookup_all(session, lookup, value_p);
    }
    pmix_proc_t target = lookup.target;
    if (target.rank == PMIX_RANK_UNDEF) {
        target.rank = PMIX_RANK_WILDCARD;
    }
    store::GetRequest request;
    request.target = &target;
    request.key = lookup.key;
    request.qualifiers = lookup.info;
    request.nqualifiers = lookup.ninfo;
    request.self = &session.self;
    request.modex_visibility = lookup.visibility;
    return store::get(*session.store, request, value_p);
}

bool should_ask_server(const Session &session, const Lookup &lookup)
{
    if (session.singleton || is_self(session, lookup.target)) {
        return false;
    }
    for (size_t i = 0; lookup.info != nullptr && i < lookup.ninfo; ++i) {
        const pmix_info_t &item = lookup.info[i];
        if (std::strncmp(item.key, PMIX_OPTIONAL, PMIX_MAX_KEYLEN) == 0 &&
            (item.value.type == PMIX_UNDEF || (item.value.type == PMIX_BOOL && item.value.data.flag))) {
            return false;
        }
    }
    bool own_job = std::strncmp(lookup.target.nspace, session.self.nspace, PMIX_MAX_NSLEN) == 0;
    if (own_job && job_level(lookup.target.rank) && (lookup.key == nullptr || is_reserved(lookup.key))) {
        return false;
    }
    return true;
}

void cache_reply(const Session &session, const pmix_proc_t &target, const wire::InfoArray &data)
{
    if (data.empty() || target.rank == PMIX_RANK_UNDEF) {
        return;
    }
    if (target.rank == PMIX_RANK_WILDCARD) {
        (void)session.store->put(target.nspace, PMIXPP_GDS_LEVEL_JOB, PMIX_RANK_WILDCARD, data.data(), data.size());
        return;
    }
    (void)session.store->put_modex(target.nspace, target.rank, PMIX_GLOBAL, data.data(), data.size());
}

namespace {

std::string nspace_string(const char *nspace)
{
    return std::string(nspace, strnlen(nspace, PMIX_MAX_NSLEN));
}

}  // namespace

bool has_collected(const Session &session, const pmix_proc_t &proc)
{
    std::string nspace = nspace_string(proc.nspace);
    std::lock_guard lock(session.collected_mutex);
    return session.collected_nspaces.count(nspace) != 0 || session.collected_procs.count({nspace, proc.rank}) != 0;
}

void mark_collected(const Session &session, const pmix_proc_t &proc)
{
    std::string nspace = nspace_string(proc.nspace);
    std::lock_guard lock(session.collected_mutex);
    session.collected_procs.emplace(std::move(nspace), proc.rank);
}

void mark_nspace_collected(const Session &session, const char *nspace)
{
    std::string name = nspace_string(nspace);
    std::lock_guard lock(session.collected_mutex);
    session.collected_nspaces.insert(std::move(name));
}

void forget_collected(const Session &session, const char *nspace)
{
    std::string name = nspace_string(nspace);
    std::lock_guard lock(session.collected_mutex);
    session.collected_nspaces.erase(name);
    auto first = session.collected_procs.lower_bound({name, 0});
    auto last = first;
    while (last != session.collected_procs.end() && last->first == name) ++last;
    session.collected_procs.erase(first, last);
}

pmix_status_t answer_from(const wire::InfoArray &data, const char *key, store::ValuePtr *value_p)
{
    if (key == nullptr) {
        return data.empty() ? PMIX_ERR_NOT_FOUND : info_array_value(data.data(), data.size(), value_p);
    }
    for (const pmix_info_t &item : data) {
        if (std::strncmp(item.key, key, PMIX_MAX_KEYLEN) == 0) {
            return copy_value(item.value, value_p);
        }
    }
    return PMIX_ERR_NOT_FOUND;
}

}  // namespace pmixpp::client
