#include "job_table.h"

#include <pmix.h>

#include <sys/wait.h>

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace pmixrun {
namespace {

struct Row {
    pmix_rank_t rank = 0;
    pid_t pid = -1;
    std::string executable;
    int exit_code = 0;
    pmix_proc_state_t state = PMIX_PROC_STATE_UNDEF;
};

struct JobRow {
    std::string nspace;
    std::string command_line;
    uint32_t session_id = 0;
    pmix_proc_t parent{};
    bool done = false;
    std::vector<Row> procs;
};

std::mutex table_mutex;
std::string table_host;
std::string table_uri;
std::vector<JobRow> job_rows;
std::vector<Session> session_rows;

pmix_proc_state_t state_of(const Proc &proc, int *exit_code_p)
{
    *exit_code_p = 0;
    if (proc.pid <= 0) return PMIX_PROC_STATE_PREPPED;
    if (!proc.exited) return PMIX_PROC_STATE_RUNNING;
    if (WIFSIGNALED(proc.wait_status)) {
        *exit_code_p = 128 + WTERMSIG(proc.wait_status);
        return PMIX_PROC_STATE_ABORTED_BY_SIG;
    }
    *exit_code_p = WEXITSTATUS(proc.wait_status);
    return *exit_code_p == 0 ? PMIX_PROC_STATE_TERMINATED : PMIX_PROC_STATE_TERM_NON_ZERO;
}

bool key_is(const char *key, const char *wanted)
{
    return std::strncmp(key, wanted, PMIX_MAX_KEYLEN) == 0;
}

// The namespace a query names (PMIX_NSPACE qualifier), else the command line's job.
std::string nspace_of(const pmix_query_t &query)
{
    for (size_t i = 0; query.qualifiers != nullptr && i < query.nqual; ++i) {
        const pmix_info_t &q = query.qualifiers[i];
        if (key_is(q.key, PMIX_NSPACE) && q.value.type == PMIX_STRING && q.value.data.string != nullptr) {
            return q.value.data.string;
        }
    }
    return job_rows.empty() ? std::string() : job_rows.front().nspace;
}

std::string joined(const std::vector<std::string> &items)
{
    std::string text;
    for (const std::string &item : items) text += (text.empty() ? "" : ",") + item;
    return text;
}

// The proc table of nspace as one PMIX_DATA_ARRAY of PMIX_PROC_INFO under key.
bool add_table(void *results, const char *key, const std::string &nspace)
{
    const JobRow *job = nullptr;
    for (const JobRow &row : job_rows) {
        if (row.nspace == nspace) job = &row;
    }
    if (job == nullptr) return false;
    pmix_data_array_t *array = nullptr;
    PMIX_DATA_ARRAY_CREATE(array, job->procs.size(), PMIX_PROC_INFO);
    if (array == nullptr) return false;
    auto *infos = static_cast<pmix_proc_info_t *>(array->array);
    for (std::size_t i = 0; i < job->procs.size(); ++i) {
        const Row &row = job->procs[i];
        PMIX_LOAD_PROCID(&infos[i].proc, job->nspace.c_str(), row.rank);
        infos[i].hostname = strdup(table_host.c_str());
        infos[i].executable_name = strdup(row.executable.c_str());
        infos[i].pid = row.pid;
        infos[i].exit_code = row.exit_code;
        infos[i].state = row.state;
    }
    const bool ok = PMIx_Info_list_add(results, key, array, PMIX_DATA_ARRAY) == PMIX_SUCCESS;
    PMIX_DATA_ARRAY_FREE(array);
    return ok;
}

// One PMIX_DATA_ARRAY per row, all in one outer array under key.
template <typename Rows, typename Describe>
bool add_rows(void *results, const char *key, const Rows &rows, Describe describe)
{
    pmix_data_array_t *outer = nullptr;
    PMIX_DATA_ARRAY_CREATE(outer, rows.size(), PMIX_INFO);
    if (outer == nullptr) return false;
    auto *items = static_cast<pmix_info_t *>(outer->array);
    bool ok = true;
    for (std::size_t i = 0; ok && i < rows.size(); ++i) {
        void *entry = PMIx_Info_list_start();
        ok = entry != nullptr;
        if (ok) describe(entry, rows[i]);
        pmix_data_array_t inner;
        PMIX_DATA_ARRAY_CONSTRUCT(&inner, 0, PMIX_INFO);
        ok = ok && PMIx_Info_list_convert(entry, &inner) == PMIX_SUCCESS;
        if (entry != nullptr) PMIx_Info_list_release(entry);
        if (ok) PMIX_INFO_LOAD(&items[i], key, &inner, PMIX_DATA_ARRAY);
        PMIX_DATA_ARRAY_DESTRUCT(&inner);
    }
    ok = ok && PMIx_Info_list_add(results, key, outer, PMIX_DATA_ARRAY) == PMIX_SUCCESS;
    PMIX_DATA_ARRAY_FREE(outer);
    return ok;
}

// As PRRTE gives it: strings only (OpenPMIx's tool example prints every
// value of a row with %s).
void describe_job(void *entry, const JobRow &job)
{
    PMIx_Info_list_add(entry, PMIX_NSPACE, job.nspace.c_str(), PMIX_STRING);
    PMIx_Info_list_add(entry, PMIX_CMD_LINE, job.command_line.c_str(), PMIX_STRING);
}

void describe_session(void *entry, const Session &session)
{
    PMIx_Info_list_add(entry, PMIX_SESSION_ID, &session.id, PMIX_UINT32);
    PMIx_Info_list_add(entry, PMIX_ALLOC_ID, session.alloc_refid.c_str(), PMIX_STRING);
    if (!session.user_refid.empty()) {
        PMIx_Info_list_add(entry, PMIX_ALLOC_REQ_ID, session.user_refid.c_str(), PMIX_STRING);
    }
    if (session.parent) PMIx_Info_list_add(entry, PMIXRUN_SESSION_PARENT, &*session.parent, PMIX_UINT32);
    PMIx_Info_list_add(entry, PMIX_ALLOC_CHILD_SEP, &session.separated, PMIX_BOOL);
    const char *state = session.ended ? "ended" : session.paused ? "paused" : "running";
    PMIx_Info_list_add(entry, PMIXRUN_SESSION_STATE, state, PMIX_STRING);
    PMIx_Info_list_add(entry, PMIXRUN_SESSION_JOBS, joined(session.jobs).c_str(), PMIX_STRING);
}

const JobRow *find_job_row(const std::string &nspace)
{
    for (const JobRow &row : job_rows) {
        if (row.nspace == nspace) return &row;
    }
    return nullptr;
}

// The string a query qualifier gives for key, or "".
std::string qualifier(const pmix_query_t &query, const char *key)
{
    for (size_t i = 0; query.qualifiers != nullptr && i < query.nqual; ++i) {
        const pmix_info_t &q = query.qualifiers[i];
        if (key_is(q.key, key) && q.value.type == PMIX_STRING && q.value.data.string != nullptr) {
            return q.value.data.string;
        }
    }
    return {};
}

// PMIX_QUERY_ALLOC_STATUS of the allocation a PMIX_ALLOC_ID or
// PMIX_ALLOC_REQ_ID qualifier names (pmixrun's id or the requester's).
bool add_alloc_status(void *results, const char *key, const pmix_query_t &query)
{
    std::string id = qualifier(query, PMIX_ALLOC_ID);
    if (id.empty()) id = qualifier(query, PMIX_ALLOC_REQ_ID);
    for (const Session &session : session_rows) {
        if (id.empty() || (session.alloc_refid != id && session.user_refid != id)) continue;
        const char *state = session.ended ? "released" : session.paused ? "paused" : "granted";
        return PMIx_Info_list_add(results, key, state, PMIX_STRING) == PMIX_SUCCESS;
    }
    return false;
}

bool add_string(void *results, const char *key, const std::string &text)
{
    return PMIx_Info_list_add(results, key, text.c_str(), PMIX_STRING) == PMIX_SUCCESS;
}

// Answers one key of a query; false when it is not ours or fails.
bool answer(void *results, const char *key, const pmix_query_t &query)
{
    if (key_is(key, PMIX_QUERY_PROC_TABLE) || key_is(key, PMIX_QUERY_LOCAL_PROC_TABLE)) {
        return add_table(results, key, nspace_of(query));
    }
    if (key_is(key, PMIX_QUERY_NAMESPACES)) {
        std::vector<std::string> live;
        for (const JobRow &job : job_rows) {
            if (!job.done) live.push_back(job.nspace);
        }
        return add_string(results, key, joined(live));
    }
    if (key_is(key, PMIX_QUERY_NAMESPACE_INFO)) return add_rows(results, key, job_rows, describe_job);
    if (key_is(key, PMIX_QUERY_ALLOCATION)) return add_rows(results, key, session_rows, describe_session);
    if (key_is(key, PMIX_QUERY_ALLOC_STATUS)) return add_alloc_status(results, key, query);
    // What pmixrun's spawn honours; it offers no debugger stops.
    if (key_is(key, PMIX_QUERY_SPAWN_SUPPORT)) {
        return add_string(results, key,
                          joined({PMIX_WDIR, PMIX_SESSION_ID, PMIX_ALLOC_ID, PMIX_ALLOC_REQ_ID, PMIX_SPAWN_CHILD_SEP,
                                  PMIX_NOTIFY_COMPLETION}));
    }
    if (key_is(key, PMIX_QUERY_DEBUG_SUPPORT)) return add_string(results, key, "");
    // pmixrun defines no process sets (a server library that answers these
    // itself never asks; OpenPMIx's does).
    if (key_is(key, PMIX_QUERY_NUM_PSETS)) {
        const size_t none = 0;
        return PMIx_Info_list_add(results, key, &none, PMIX_SIZE) == PMIX_SUCCESS;
    }
    if (key_is(key, PMIX_QUERY_PSET_NAMES)) return add_string(results, key, "");
    if (key_is(key, PMIX_SERVER_URI) && !table_uri.empty()) {
        const std::string host = qualifier(query, PMIX_HOSTNAME);
        return (host.empty() || host == table_host) && add_string(results, key, table_uri);
    }
    if (key_is(key, PMIX_JOB_SIZE)) {
        const JobRow *job = find_job_row(nspace_of(query));
        if (job == nullptr) return false;
        const uint32_t size = static_cast<uint32_t>(job->procs.size());
        return PMIx_Info_list_add(results, key, &size, PMIX_UINT32) == PMIX_SUCCESS;
    }
    return false;
}

}  // namespace

void update_job_table(const std::vector<std::unique_ptr<Job>> &jobs, const SessionTable &sessions)
{
    std::lock_guard lock(table_mutex);
    job_rows.clear();
    session_rows.clear();
    for (const auto &job : jobs) {
        table_host = job->hostname;
        JobRow row;
        row.nspace = job->nspace;
        row.session_id = job->session_id;
        row.parent = job->spawned_by;
        row.done = job->phase == JobPhase::done;
        for (const AppSpec &app : job->apps) {
            for (const std::string &arg : app.argv) row.command_line += (row.command_line.empty() ? "" : " ") + arg;
        }
        for (const Proc &proc : job->procs) {
            Row p;
            p.rank = proc.rank;
            p.pid = proc.pid;
            p.executable = job->apps[proc.app].argv[0];
            p.state = state_of(proc, &p.exit_code);
            row.procs.push_back(p);
        }
        job_rows.push_back(std::move(row));
    }
    for (const auto &[id, session] : sessions.all()) session_rows.push_back(session);
}

void set_server_uri(const std::string &uri)
{
    std::lock_guard lock(table_mutex);
    table_uri = uri;
}

pmix_status_t answer_queries(const pmix_proc_t *, const pmix_query_t *queries, size_t nqueries,
                             pmix_data_array_t **answers_p, pmix_status_t *status_p)
{
    void *results = PMIx_Info_list_start();
    if (results == nullptr) return PMIX_ERR_NOMEM;
    std::size_t answered = 0;
    std::size_t asked = 0;
    {
        std::lock_guard lock(table_mutex);
        for (size_t q = 0; q < nqueries; ++q) {
            for (char **key = queries[q].keys; key != nullptr && *key != nullptr; ++key, ++asked) {
                answered += answer(results, *key, queries[q]) ? 1 : 0;
            }
        }
    }
    auto *array = static_cast<pmix_data_array_t *>(std::calloc(1, sizeof(pmix_data_array_t)));
    const pmix_status_t rc = array == nullptr ? PMIX_ERR_NOMEM : PMIx_Info_list_convert(results, array);
    PMIx_Info_list_release(results);
    if (rc != PMIX_SUCCESS && rc != PMIX_ERR_EMPTY) {
        std::free(array);
        return rc;
    }
    *answers_p = array;
    *status_p = answered == 0 ? PMIX_ERR_NOT_FOUND : answered < asked ? PMIX_QUERY_PARTIAL_SUCCESS : PMIX_SUCCESS;
    return PMIX_SUCCESS;
}

void release_answers(void *cbdata)
{
    auto *array = static_cast<pmix_data_array_t *>(cbdata);
    PMIX_DATA_ARRAY_FREE(array);
}

}  // namespace pmixrun
