// The job's description for the server (see job.h).
#include "job.h"
#include "node_cpuset.h"

#include <pmix.h>
#include <pmix_server.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <utility>

namespace pmixrun {
namespace {

// A PMIx_Info_list handle released at scope exit.
class InfoList {
public:
    InfoList() : list_(PMIx_Info_list_start()) {}
    ~InfoList()
    {
        if (list_ != nullptr) PMIx_Info_list_release(list_);
    }
    InfoList(const InfoList &) = delete;
    InfoList &operator=(const InfoList &) = delete;

    void add(const char *key, const void *value, pmix_data_type_t type)
    {
        if (rc_ == PMIX_SUCCESS) rc_ = list_ == nullptr ? PMIX_ERR_NOMEM : PMIx_Info_list_add(list_, key, value, type);
    }
    void add_copy(const pmix_info_t &info)
    {
        if (rc_ == PMIX_SUCCESS) rc_ = PMIx_Info_list_xfer(list_, &info);
    }
    // The list as one PMIX_DATA_ARRAY value under `key` of `into`.
    void add_to(InfoList &into, const char *key)
    {
        pmix_data_array_t array;
        PMIX_DATA_ARRAY_CONSTRUCT(&array, 0, PMIX_INFO);
        if (rc_ == PMIX_SUCCESS) rc_ = PMIx_Info_list_convert(list_, &array);
        if (rc_ == PMIX_SUCCESS) into.add(key, &array, PMIX_DATA_ARRAY);
        else into.rc_ = rc_;
        PMIX_DATA_ARRAY_DESTRUCT(&array);
    }
    pmix_status_t release_to(pmix_info_t **info_p, size_t *ninfo_p)
    {
        pmix_data_array_t array;
        PMIX_DATA_ARRAY_CONSTRUCT(&array, 0, PMIX_INFO);
        if (rc_ == PMIX_SUCCESS) rc_ = PMIx_Info_list_convert(list_, &array);
        if (rc_ != PMIX_SUCCESS) return rc_;
        *info_p = static_cast<pmix_info_t *>(array.array);
        *ninfo_p = array.size;
        return PMIX_SUCCESS;
    }

private:
    void *list_;
    pmix_status_t rc_ = PMIX_SUCCESS;
};

std::string join_ranks(uint32_t first, uint32_t count)
{
    std::string text;
    for (uint32_t r = first; r < first + count; ++r) text += (text.empty() ? "" : ",") + std::to_string(r);
    return text;
}

std::string join_argv(const std::vector<std::string> &argv)
{
    std::string text;
    for (const std::string &arg : argv) text += (text.empty() ? "" : " ") + arg;
    return text;
}

void add_maps(const Job &job, InfoList &list)
{
    char *node_map = nullptr;
    char *proc_map = nullptr;
    if (PMIx_generate_regex(job.hostname.c_str(), &node_map) == PMIX_SUCCESS) {
        list.add(PMIX_NODE_MAP, node_map, PMIX_REGEX);
    }
    if (PMIx_generate_ppn(join_ranks(0, job.size()).c_str(), &proc_map) == PMIX_SUCCESS) {
        list.add(PMIX_PROC_MAP, proc_map, PMIX_REGEX);
    }
    std::free(node_map);
    std::free(proc_map);
}

void add_job_level(const Job &job, InfoList &list)
{
    const uint32_t size = job.size();
    const uint32_t napps = static_cast<uint32_t>(job.apps.size());
    const uint32_t nodes = 1;
    list.add(PMIX_SESSION_ID, &job.session_id, PMIX_UINT32);
    list.add(PMIX_UNIV_SIZE, &size, PMIX_UINT32);
    list.add(PMIX_JOB_SIZE, &size, PMIX_UINT32);
    list.add(PMIX_MAX_PROCS, &size, PMIX_UINT32);
    list.add(PMIX_JOB_NUM_APPS, &napps, PMIX_UINT32);
    list.add(PMIX_NUM_NODES, &nodes, PMIX_UINT32);
    list.add(PMIX_HOSTNAME, job.hostname.c_str(), PMIX_STRING);
    // pmixrun writes its jobs' output itself and hands it to the server only
    // for the tools that pull it: the library must not write it too.
    // (OpenPMIx's server otherwise writes it to its own stdout, and crashes
    // doing so in a process that is not a tool.)
    const bool no = false;
    list.add(PMIX_IOF_LOCAL_OUTPUT, &no, PMIX_BOOL);
    if (!job.from_command_line()) {
        const bool yes = true;
        list.add(PMIX_PARENT_ID, &job.spawned_by, PMIX_PROC);
        list.add(PMIX_SPAWNED, &yes, PMIX_BOOL);
    }
    add_maps(job, list);
}

// The session's own array (the server chapter's session level) and this
// node's (the only one): the same facts the maps imply, said explicitly.
void add_session_and_node(const Job &job, InfoList &list)
{
    const uint32_t size = job.size();
    InfoList session;
    session.add(PMIX_SESSION_ID, &job.session_id, PMIX_UINT32);
    session.add(PMIX_UNIV_SIZE, &size, PMIX_UINT32);
    session.add_to(list, PMIX_SESSION_INFO_ARRAY);
    InfoList node;
    const uint32_t nodeid = 0;
    const pmix_rank_t leader = 0;
    const std::string peers = join_ranks(0, size);
    node.add(PMIX_NODEID, &nodeid, PMIX_UINT32);
    node.add(PMIX_HOSTNAME, job.hostname.c_str(), PMIX_STRING);
    node.add(PMIX_LOCAL_SIZE, &size, PMIX_UINT32);
    node.add(PMIX_NODE_SIZE, &size, PMIX_UINT32);
    node.add(PMIX_LOCALLDR, &leader, PMIX_PROC_RANK);
    node.add(PMIX_LOCAL_PEERS, peers.c_str(), PMIX_STRING);
    node.add_to(list, PMIX_NODE_INFO_ARRAY);
}

void add_apps(const Job &job, InfoList &list)
{
    char own_cwd[4096] = ".";
    if (::getcwd(own_cwd, sizeof own_cwd) == nullptr) own_cwd[0] = '.', own_cwd[1] = '\0';
    uint32_t first = 0;
    for (uint32_t a = 0; a < job.apps.size(); ++a) {
        const AppSpec &app = job.apps[a];
        InfoList entry;
        const pmix_rank_t leader = first;
        const std::string argv = join_argv(app.argv);
        entry.add(PMIX_APPNUM, &a, PMIX_UINT32);
        entry.add(PMIX_APP_SIZE, &app.nprocs, PMIX_UINT32);
        entry.add(PMIX_APPLDR, &leader, PMIX_PROC_RANK);
        entry.add(PMIX_APP_ARGV, argv.c_str(), PMIX_STRING);
        entry.add(PMIX_WDIR, app.cwd.empty() ? own_cwd : app.cwd.c_str(), PMIX_STRING);
        entry.add_to(list, PMIX_APP_INFO_ARRAY);
        first += app.nprocs;
    }
}

void add_procs(const Job &job, InfoList &list)
{
    for (const Proc &proc : job.procs) {
        InfoList entry;
        entry.add(PMIX_RANK, &proc.rank, PMIX_PROC_RANK);
        entry.add(PMIX_APPNUM, &proc.app, PMIX_UINT32);
        entry.add(PMIX_APP_RANK, &proc.app_rank, PMIX_PROC_RANK);
        // A host must give these (OpenPMIx's server derives nothing): one
        // node, so the local rank is the rank; the node rank is counted per
        // job as well, as our server would derive it.
        const uint16_t local_rank = static_cast<uint16_t>(proc.rank);
        const uint32_t nodeid = 0;
        entry.add(PMIX_LOCAL_RANK, &local_rank, PMIX_UINT16);
        entry.add(PMIX_NODE_RANK, &local_rank, PMIX_UINT16);
        entry.add(PMIX_NODEID, &nodeid, PMIX_UINT32);
        entry.add(PMIX_HOSTNAME, job.hostname.c_str(), PMIX_STRING);
        // Its binding's cpus (the server derives PMIX_LOCALITY_STRING from
        // them), or the node's for an unbound process.
        const std::string &cpuset = proc.cpuset.empty() ? node_cpuset() : proc.cpuset;
        if (!cpuset.empty()) entry.add(PMIX_CPUSET, cpuset.c_str(), PMIX_STRING);
        entry.add_to(list, PMIX_PROC_DATA);
    }
}

}  // namespace

int Job::exit_code() const
{
    if (aborted) return abort_status;
    if (first_failure < 0) return 0;
    return WIFEXITED(first_failure) ? WEXITSTATUS(first_failure) : 128 + WTERMSIG(first_failure);
}

Job make_job(const std::vector<AppSpec> &apps, std::string nspace, std::string hostname, uint32_t session_id)
{
    Job job;
    job.nspace = std::move(nspace);
    job.hostname = std::move(hostname);
    job.session_id = session_id;
    job.apps = apps;
    pmix_rank_t rank = 0;
    for (uint32_t a = 0; a < job.apps.size(); ++a) {
        for (uint32_t i = 0; i < job.apps[a].nprocs; ++i) {
            Proc proc;
            proc.rank = rank++;
            proc.app = a;
            proc.app_rank = i;
            job.procs.push_back(std::move(proc));
        }
    }
    return job;
}

pmix_status_t job_info(const Job &job, const pmix_info_t extra[], size_t nextra, pmix_info_t **info_p, size_t *ninfo_p)
{
    InfoList list;
    add_job_level(job, list);
    add_session_and_node(job, list);
    add_apps(job, list);
    add_procs(job, list);
    for (size_t i = 0; i < nextra; ++i) list.add_copy(extra[i]);
    return list.release_to(info_p, ninfo_p);
}

pmix_status_t setup_info(const Job &job, pmix_info_t **info_p, size_t *ninfo_p)
{
    InfoList list;
    add_job_level(job, list);
    return list.release_to(info_p, ninfo_p);
}

}  // namespace pmixrun
