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

std::mutex table_mutex;
std::string table_nspace;
std::string table_host;
std::vector<Row> table;

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

bool key_is(const char *key, const char *wanted) { return std::strncmp(key, wanted, PMIX_MAX_KEYLEN) == 0; }

// The namespace a query names (PMIX_NSPACE qualifier), else the job's.
std::string nspace_of(const pmix_query_t &query)
{
    for (size_t i = 0; query.qualifiers != nullptr && i < query.nqual; ++i) {
        const pmix_info_t &q = query.qualifiers[i];
        if (key_is(q.key, PMIX_NSPACE) && q.value.type == PMIX_STRING && q.value.data.string != nullptr) {
            return q.value.data.string;
        }
    }
    return table_nspace;
}

// The proc table of nspace as one PMIX_DATA_ARRAY of PMIX_PROC_INFO under key.
bool add_table(void *results, const char *key, const std::string &nspace)
{
    if (nspace != table_nspace) return false;
    pmix_data_array_t *array = nullptr;
    PMIX_DATA_ARRAY_CREATE(array, table.size(), PMIX_PROC_INFO);
    if (array == nullptr) return false;
    auto *infos = static_cast<pmix_proc_info_t *>(array->array);
    for (std::size_t i = 0; i < table.size(); ++i) {
        PMIX_LOAD_PROCID(&infos[i].proc, table_nspace.c_str(), table[i].rank);
        infos[i].hostname = strdup(table_host.c_str());
        infos[i].executable_name = strdup(table[i].executable.c_str());
        infos[i].pid = table[i].pid;
        infos[i].exit_code = table[i].exit_code;
        infos[i].state = table[i].state;
    }
    const bool ok = PMIx_Info_list_add(results, key, array, PMIX_DATA_ARRAY) == PMIX_SUCCESS;
    PMIX_DATA_ARRAY_FREE(array);
    return ok;
}

void release_results(void *cbdata)
{
    auto *array = static_cast<pmix_data_array_t *>(cbdata);
    PMIX_DATA_ARRAY_FREE(array);
}

} // namespace

void update_job_table(const Job &job)
{
    std::lock_guard lock(table_mutex);
    table_nspace = job.nspace;
    table_host = job.hostname;
    table.clear();
    for (const Proc &proc : job.procs) {
        Row row;
        row.rank = proc.rank;
        row.pid = proc.pid;
        row.executable = job.apps[proc.app].argv[0];
        row.state = state_of(proc, &row.exit_code);
        table.push_back(row);
    }
}

pmix_status_t query_job_table(pmix_proc_t *, pmix_query_t *queries, size_t nqueries, pmix_info_cbfunc_t cbfunc,
                              void *cbdata)
{
    void *results = PMIx_Info_list_start();
    if (results == nullptr) return PMIX_ERR_NOMEM;
    std::size_t answered = 0;
    {
        std::lock_guard lock(table_mutex);
        for (size_t q = 0; q < nqueries; ++q) {
            for (char **key = queries[q].keys; key != nullptr && *key != nullptr; ++key) {
                if (key_is(*key, PMIX_QUERY_PROC_TABLE) || key_is(*key, PMIX_QUERY_LOCAL_PROC_TABLE)) {
                    answered += add_table(results, *key, nspace_of(queries[q])) ? 1 : 0;
                }
            }
        }
    }
    auto *array = static_cast<pmix_data_array_t *>(std::calloc(1, sizeof(pmix_data_array_t)));
    const pmix_status_t rc = array == nullptr ? PMIX_ERR_NOMEM : PMIx_Info_list_convert(results, array);
    PMIx_Info_list_release(results);
    if (rc != PMIX_SUCCESS) {
        std::free(array);
        return rc;
    }
    cbfunc(answered > 0 ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND, static_cast<pmix_info_t *>(array->array), array->size,
           cbdata, release_results, array);
    return PMIX_SUCCESS;
}

} // namespace pmixrun
