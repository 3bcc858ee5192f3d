// Queries (logging is in log.cc). PMIx_Query_info(_nb) answers from the job data the
// client holds (any key PMIx_Get could resolve, with PMIX_NSPACE / PMIX_RANK
// and the other qualifiers) and asks the server for the rest. The ABI version
// keys are the library's own: answered in any process, before init too.
#include <pmix.h>
#include <pmixpp/util.hpp>

#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <vector>

#include "client/core/host_mode.h"
#include "client/core/local_data.h"
#include "client/core/requests.h"
#include "client/core/session.h"
#include "common/runtime/latch.h"
#include "common/runtime/standard_abi.h"
#include "common/values/value_ops.h"

using namespace pmixpp;

namespace {

using QueryDone = std::function<void(pmix_status_t status, std::shared_ptr<wire::InfoArray> results)>;

struct Answers {
    std::vector<std::pair<std::string, store::ValuePtr>> found;
    wire::QueryArray for_server;  // queries with a key we could not answer
    bool missing = false;
};

using util::key_is;

client::Lookup lookup_for(const client::Session &session, const pmix_query_t &q)
{
    client::Lookup l;
    std::memcpy(l.target.nspace, session.self.nspace, sizeof l.target.nspace);
    l.target.rank = PMIX_RANK_WILDCARD;
    for (size_t i = 0; q.qualifiers != nullptr && i < q.nqual; ++i) {
        const pmix_info_t &item = q.qualifiers[i];
        if (key_is(item, PMIX_NSPACE) && item.value.type == PMIX_STRING && item.value.data.string != nullptr) {
            PMIX_LOAD_NSPACE(l.target.nspace, item.value.data.string);
        } else if (key_is(item, PMIX_RANK) && item.value.type == PMIX_PROC_RANK) {
            l.target.rank = item.value.data.rank;
        } else if (key_is(item, PMIX_PROCID) && item.value.type == PMIX_PROC && item.value.data.proc != nullptr) {
            l.target = *item.value.data.proc;
        }
    }
    l.info = q.qualifiers;
    l.ninfo = q.nqual;
    return l;
}

pmix_status_t add_string(Answers *answers, const char *key, const char *text)
{
    store::ValuePtr value(static_cast<pmix_value_t *>(std::calloc(1, sizeof(pmix_value_t))));
    if (!value) return PMIX_ERR_NOMEM;
    pmix_status_t rc = values::value_load(value.get(), text, PMIX_STRING);
    if (rc == PMIX_SUCCESS) answers->found.emplace_back(key, std::move(value));
    return rc;
}

// A copy of q for the server carrying only the keys not answered here.
pmix_status_t copy_for_server(const pmix_query_t &q, const std::vector<const char *> &missing, pmix_query_t *copy)
{
    char **keys = static_cast<char **>(std::calloc(missing.size() + 1, sizeof(char *)));
    if (keys == nullptr) return PMIX_ERR_NOMEM;
    for (size_t k = 0; k < missing.size(); ++k) {
        keys[k] = strdup(missing[k]);
        if (keys[k] == nullptr) {
            copy->keys = keys;  // freed with the array the caller owns
            return PMIX_ERR_NOMEM;
        }
    }
    copy->keys = keys;
    if (q.nqual == 0 || q.qualifiers == nullptr) return PMIX_SUCCESS;
    void *qualifiers = nullptr;
    pmix_status_t rc = values::copy_elements(&qualifiers, q.qualifiers, q.nqual, PMIX_INFO);
    if (rc != PMIX_SUCCESS) return rc;
    copy->qualifiers = static_cast<pmix_info_t *>(qualifiers);
    copy->nqual = q.nqual;
    return PMIX_SUCCESS;
}

// Each key is answered here when it can be (the library's own keys, then the
// job data held); the server is asked only for the others, so no key is
// answered twice.
pmix_status_t answer_locally(const client::Session *session, const pmix_query_t queries[], size_t nqueries,
                             Answers *answers)
{
    std::vector<std::pair<size_t, std::vector<const char *>>> unanswered;
    for (size_t i = 0; i < nqueries; ++i) {
        const pmix_query_t &q = queries[i];
        const bool refresh = client::flag_of(q.qualifiers, q.nqual, PMIX_QUERY_REFRESH_CACHE);
        std::vector<const char *> missing;
        for (char **key = q.keys; key != nullptr && *key != nullptr; ++key) {
            if (const char *text = runtime::standard_abi_answer(*key)) {
                pmix_status_t rc = add_string(answers, *key, text);
                if (rc != PMIX_SUCCESS) return rc;
                continue;
            }
            store::ValuePtr value;
            if (session != nullptr && !refresh) {
                client::Lookup l = lookup_for(*session, q);
                l.key = *key;
                if (client::lookup_local(*session, l, &value) == PMIX_SUCCESS) {
                    answers->found.emplace_back(*key, std::move(value));
                    continue;
                }
            }
            missing.push_back(*key);
        }
        if (!missing.empty()) unanswered.emplace_back(i, std::move(missing));
    }
    answers->missing = !unanswered.empty();
    pmix_status_t rc = answers->for_server.allocate(unanswered.size());
    for (size_t i = 0; rc == PMIX_SUCCESS && i < unanswered.size(); ++i) {
        rc = copy_for_server(queries[unanswered[i].first], unanswered[i].second, &answers->for_server[i]);
    }
    return rc;
}

// Local answers followed by the server's.
pmix_status_t merge(const Answers &answers, const wire::InfoArray *remote, wire::InfoArray *out)
{
    size_t nremote = remote != nullptr ? remote->size() : 0;
    pmix_status_t rc = out->allocate(answers.found.size() + nremote);
    for (size_t i = 0; rc == PMIX_SUCCESS && i < answers.found.size(); ++i) {
        values::load_key((*out)[i].key, answers.found[i].first.c_str());
        rc = values::value_xfer(&(*out)[i].value, answers.found[i].second.get());
    }
    for (size_t i = 0; rc == PMIX_SUCCESS && i < nremote; ++i) {
        rc = values::info_xfer(&(*out)[answers.found.size() + i], &(*remote)[i]);
    }
    return rc;
}

pmix_status_t outcome(size_t nresults, bool all_answered)
{
    if (nresults == 0) {
        return PMIX_ERR_NOT_FOUND;
    }
    return all_answered ? PMIX_SUCCESS : PMIX_QUERY_PARTIAL_SUCCESS;
}

pmix_status_t start_query(const std::shared_ptr<client::Session> &session, pmix_query_t queries[], size_t nqueries,
                          QueryDone done)
{
    if (queries == nullptr || nqueries == 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    auto answers = std::make_shared<Answers>();
    pmix_status_t rc = answer_locally(session.get(), queries, nqueries, answers.get());
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    if (!answers->missing || session->singleton) {
        auto results = std::make_shared<wire::InfoArray>();
        rc = merge(*answers, nullptr, results.get());
        if (rc != PMIX_SUCCESS) {
            return rc;
        }
        pmix_status_t status = outcome(results->size(), !answers->missing);
        return client::post_callback(*session, [done, status, results] { done(status, results); });
    }
    wire::QueryRequest request;
    request.queries = std::move(answers->for_server);
    return client::send_message(
        session, request, std::chrono::milliseconds{0}, [answers, done](pmix_status_t st, const wire::Frame *frame) {
            wire::QueryReply reply;
            pmix_status_t status = client::read_reply(st, frame, &reply);
            auto results = std::make_shared<wire::InfoArray>();
            // Some keys answered: their answers count.
            const bool partial = status == PMIX_QUERY_PARTIAL_SUCCESS || status == PMIX_ERR_PARTIAL_SUCCESS;
            bool remote_ok = status == PMIX_SUCCESS || partial;
            pmix_status_t merged = merge(*answers, remote_ok ? &reply.results : nullptr, results.get());
            if (merged != PMIX_SUCCESS) {
                done(merged, results);
                return;
            }
            // Nothing at all: the server's own word (NOT_SUPPORTED from a host
            // without a query upcall) says more than NOT_FOUND, as OpenPMIx's
            // client passes it on.
            if (results->empty() && !remote_ok) {
                done(status, results);
                return;
            }
            done(outcome(results->size(), status == PMIX_SUCCESS), results);
        });
}

// Before PMIx_Init only the library's own keys have answers, and only the
// blocking call gives them (as OpenPMIx): all of them, or PMIX_ERR_INIT.
pmix_status_t answer_before_init(pmix_query_t queries[], size_t nqueries, pmix_info_t **results, size_t *nresults)
{
    if (queries == nullptr || nqueries == 0) {
        return PMIX_ERR_INIT;
    }
    try {
        Answers answers;
        pmix_status_t rc = answer_locally(nullptr, queries, nqueries, &answers);
        if (rc != PMIX_SUCCESS) {
            return rc;
        }
        if (answers.missing || answers.found.empty()) {
            return PMIX_ERR_INIT;
        }
        wire::InfoArray out;
        rc = merge(answers, nullptr, &out);
        if (rc == PMIX_SUCCESS) {
            *results = out.release(nresults);
        }
        return rc;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

void release_results(void *cbdata)
{
    delete static_cast<std::shared_ptr<wire::InfoArray> *>(cbdata);
}

}  // namespace

pmix_status_t PMIx_Query_info(pmix_query_t queries[], size_t nqueries, pmix_info_t **results, size_t *nresults)
{
    auto session = client::current_session();
    if (results == nullptr || nresults == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    *results = nullptr;
    *nresults = 0;
    if (!session && !client::host_mode()) {
        return answer_before_init(queries, nqueries, results, nresults);
    }
    if (runtime::ProgressEngine::process().on_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    try {
        using ResultLatch = runtime::Latch<std::shared_ptr<wire::InfoArray>>;
        auto latch = std::make_shared<ResultLatch>();
        QueryDone done = [latch](pmix_status_t st, std::shared_ptr<wire::InfoArray> r) {
            latch->complete(st, std::move(r));
        };
        pmix_status_t rc = session ? start_query(session, queries, nqueries, std::move(done))
                                   : client::host_query_nb(queries, nqueries, std::move(done));
        if (rc != PMIX_SUCCESS) {
            return rc;
        }
        rc = latch->wait();
        auto found = std::move(latch->payload());
        if (found && !found->empty()) {
            *results = found->release(nresults);
        }
        return rc;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Query_info_nb(pmix_query_t queries[], size_t nqueries, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    auto session = client::current_session();
    if (!session && !client::host_mode()) {
        return PMIX_ERR_INIT;
    }
    if (cbfunc == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    try {
        QueryDone done = [cbfunc, cbdata](pmix_status_t st, std::shared_ptr<wire::InfoArray> r) {
            auto *keep = new (std::nothrow) std::shared_ptr<wire::InfoArray>(r);
            if (keep == nullptr) {
                cbfunc(PMIX_ERR_NOMEM, nullptr, 0, cbdata, nullptr, nullptr);
                return;
            }
            cbfunc(st, r->data(), r->size(), cbdata, release_results, keep);
        };
        return session ? start_query(session, queries, nqueries, std::move(done))
                       : client::host_query_nb(queries, nqueries, std::move(done));
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
