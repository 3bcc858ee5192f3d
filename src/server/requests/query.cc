// PMIx_Query_info for what the server library knows itself: the namespaces
// it serves (PMIX_QUERY_NAMESPACES) and the process sets the host defined
// (PMIX_QUERY_NUM_PSETS, PMIX_QUERY_PSET_NAMES), the groups it constructed
// (PMIX_QUERY_NUM_GROUPS, _GROUP_NAMES, _GROUP_MEMBERSHIP), and the standard's ABI
// versions (a host's own PMIx_Query_info comes here). Any other key goes to the
// host's query upcall. Status: every key answered PMIX_SUCCESS, some
// PMIX_ERR_PARTIAL_SUCCESS, none PMIX_ERR_NOT_FOUND (PMIX_ERR_NOT_SUPPORTED
// when there was nobody to ask).
#include "common/runtime/standard_abi.h"
#include "common/values/value_ops.h"
#include "server/state/peer_io.h"
#include "server/requests/requests.h"
#include "server/requests/group_tracker.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

namespace pmixpp::server {

namespace {

// Info entries being gathered; moved into the reply at the end.
class Results {
public:
    Results() = default;
    Results(const Results &) = delete;
    Results &operator=(const Results &) = delete;
    ~Results()
    {
        for (auto &item : items_) values::info_destruct(&item);
    }
    void add(const char *key, const void *data, pmix_data_type_t type)
    {
        pmix_info_t item{};
        if (values::info_load(&item, key, data, type) == PMIX_SUCCESS) items_.push_back(item);
    }
    void add_copy(const pmix_info_t &source)
    {
        pmix_info_t item{};
        if (values::info_xfer(&item, &source) == PMIX_SUCCESS) items_.push_back(item);
    }
    std::size_t size() const { return items_.size(); }
    pmix_status_t move_into(wire::InfoArray *array_p)
    {
        const pmix_status_t rc = array_p->allocate(items_.size());
        if (rc != PMIX_SUCCESS) return rc;
        // Ownership of each value moves with its bytes.
        if (!items_.empty()) std::memcpy(array_p->data(), items_.data(), items_.size() * sizeof(pmix_info_t));
        items_.clear();
        return PMIX_SUCCESS;
    }

private:
    std::vector<pmix_info_t> items_;
};

std::string joined_namespaces(const Server &server)
{
    std::string names;
    for (const auto &[name, ns] : server.namespaces) {
        if (ns.registered) names += (names.empty() ? "" : ",") + name;
    }
    return names;
}

std::string joined_psets(const Server &server)
{
    std::string names;
    for (const auto &[name, members] : server.psets) names += (names.empty() ? "" : ",") + name;
    return names;
}

std::string joined_groups(const Server &server)
{
    std::string names;
    for (const auto &[name, group] : server.part<GroupRegistry>()) names += (names.empty() ? "" : ",") + name;
    return names;
}

// The group a membership query names (qualifier PMIX_GROUP_ID); nullptr
// when it names none this server knows.
const Group *queried_group(const Server &server, const pmix_query_t &query)
{
    for (size_t i = 0; i < query.nqual && query.qualifiers != nullptr; ++i) {
        const pmix_info_t &qualifier = query.qualifiers[i];
        if (!PMIX_CHECK_KEY(&qualifier, PMIX_GROUP_ID) || qualifier.value.type != PMIX_STRING) continue;
        if (qualifier.value.data.string == nullptr) return nullptr;
        auto found = server.part<GroupRegistry>().find(qualifier.value.data.string);
        return found == server.part<GroupRegistry>().end() ? nullptr : &found->second;
    }
    return nullptr;
}

// The groups this server constructed (groups.cc), in PRRTE's answer types:
// a count, a comma-joined name list, a group's members. A membership
// query about a group unknown here goes on to the host.
bool answer_about_groups(const Server &server, const pmix_query_t &query, const char *key, Results &results)
{
    if (std::strcmp(key, PMIX_QUERY_NUM_GROUPS) == 0) {
        const std::size_t count = server.part<GroupRegistry>().size();
        results.add(key, &count, PMIX_SIZE);
    } else if (std::strcmp(key, PMIX_QUERY_GROUP_NAMES) == 0) {
        const std::string names = joined_groups(server);
        results.add(key, names.c_str(), PMIX_STRING);
    } else if (std::strcmp(key, PMIX_QUERY_GROUP_MEMBERSHIP) == 0) {
        const Group *group = queried_group(server, query);
        if (group == nullptr) return false;
        pmix_data_array_t members{PMIX_PROC, group->members.size(), const_cast<pmix_proc_t *>(group->members.data())};
        results.add(key, &members, PMIX_DATA_ARRAY);  // copied by the load
    } else {
        return false;
    }
    return true;
}

// False when the key is not one the library answers.
bool answer_locally(const Server &server, const pmix_query_t &query, const char *key, Results &results)
{
    if (answer_about_groups(server, query, key, results)) return true;
    if (std::strcmp(key, PMIX_QUERY_NAMESPACES) == 0) {
        const std::string names = joined_namespaces(server);
        results.add(key, names.c_str(), PMIX_STRING);
    } else if (std::strcmp(key, PMIX_QUERY_NUM_PSETS) == 0) {
        const std::size_t count = server.psets.size();
        results.add(key, &count, PMIX_SIZE);
    } else if (std::strcmp(key, PMIX_QUERY_PSET_NAMES) == 0) {
        const std::string names = joined_psets(server);
        results.add(key, names.c_str(), PMIX_STRING);
    } else if (const char *version = runtime::standard_abi_answer(key)) {
        results.add(key, version, PMIX_STRING);
    } else {
        return false;
    }
    return true;
}

// Owned by the host's call while it runs: the host may read requester and
// queries until it calls back.
struct PendingQuery {
    QueryResponder respond;
    pmix_proc_t requester{};
    wire::QueryRequest request;
    Results results;
    std::size_t local_answers = 0;
};

void finish(Server &, PendingQuery &query, pmix_status_t status)
{
    wire::QueryReply reply;
    if (query.local_answers > 0 && status != PMIX_SUCCESS) status = PMIX_ERR_PARTIAL_SUCCESS;
    if (query.results.size() == 0 && status == PMIX_SUCCESS) status = PMIX_ERR_NOT_FOUND;
    reply.status = status;
    const pmix_status_t rc = query.results.move_into(&reply.results);
    if (rc != PMIX_SUCCESS) reply.status = rc;
    if (query.respond) query.respond(reply);
}

struct HostQueryCall {
    std::shared_ptr<PendingQuery> query;
};

void host_query_done(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata, pmix_release_cbfunc_t release,
                     void *release_cbdata)
{
    std::unique_ptr<HostQueryCall> call(static_cast<HostQueryCall *>(cbdata));
    if (call != nullptr && info != nullptr) {
        for (std::size_t i = 0; i < ninfo; ++i) call->query->results.add_copy(info[i]);
    }
    if (release != nullptr) release(release_cbdata);
    if (call == nullptr) return;
    post_to_server([query = std::move(call->query), status](Server &server) { finish(server, *query, status); });
}

}  // namespace

namespace {

// Answers what the library knows and takes those keys out of the request,
// so the host is asked only for the rest and nothing is listed twice.
// Queries left without a key are dropped. Returns how many remain.
std::size_t answer_and_strip(const Server &server, wire::QueryRequest &request, PendingQuery &query)
{
    std::size_t remaining = 0;
    for (pmix_query_t &item : request.queries) {
        char **kept = item.keys;
        for (char **key = item.keys; key != nullptr && *key != nullptr; ++key) {
            if (answer_locally(server, item, *key, query.results)) {
                ++query.local_answers;
                std::free(*key);
            } else {
                *kept++ = *key;
            }
        }
        if (kept != nullptr) *kept = nullptr;
        if (item.keys != nullptr && item.keys[0] != nullptr) ++remaining;
    }
    if (remaining == request.queries.size()) return remaining;
    wire::QueryArray left;
    if (left.allocate(remaining) != PMIX_SUCCESS) return request.queries.size();
    std::size_t next = 0;
    for (pmix_query_t &item : request.queries) {
        if (item.keys == nullptr || item.keys[0] == nullptr) continue;
        // The struct moves whole; the emptied one frees nothing.
        std::memcpy(&left[next++], &item, sizeof item);
        std::memset(&item, 0, sizeof item);
    }
    request.queries = std::move(left);
    return remaining;
}

}  // namespace

void start_query(Server &server, const pmix_proc_t &requester, wire::QueryRequest request, QueryResponder respond)
{
    auto query = std::make_shared<PendingQuery>();
    query->respond = std::move(respond);
    query->requester = requester;
    const bool unanswered = answer_and_strip(server, request, *query) > 0;
    query->request = std::move(request);
    const auto upcall = server.host.slots().query;
    if (!unanswered) return finish(server, *query, PMIX_SUCCESS);
    if (upcall == nullptr) return finish(server, *query, PMIX_ERR_NOT_SUPPORTED);
    auto *call = new (std::nothrow) HostQueryCall{query};
    if (call == nullptr) return finish(server, *query, PMIX_ERR_NOMEM);
    const pmix_status_t rc =
        upcall(&query->requester, query->request.queries.data(), query->request.queries.size(), host_query_done, call);
    if (rc == PMIX_SUCCESS) return;
    delete call;
    finish(server, *query, rc == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : rc);
}

void handle_query(Server &server, Peer &peer, uint32_t tag, wire::QueryRequest &request)
{
    start_query(server, peer.proc, std::move(request), answer_peer<wire::QueryReply>(peer.id, tag));
}

}  // namespace pmixpp::server
