// pnet/simfabric: a simulated fabric that exercises the whole pnet lifecycle
// ("instant on" without hardware), for tests and as a model for real ones.
//
//   setup_application    (head node) gives every process of the job an
//                        endpoint address: a PMIX_PROC_DATA entry per rank
//                        with pmixpp.simfab.addr, so once the host registers
//                        the result any client reads any peer's address with
//                        PMIx_Get, without a fence; plus the job's fabric id
//                        (pmixpp.simfab.jobid, and SIMFAB_JOBID in the env)
//   setup_local_support  writes the node's address table and one context
//                        file per local application under PMIX_NSDIR
//   setup_fork           one port file per child (SIMFAB_PORT_FILE)
//   child_finalized, local_app_finalized, deregister_nspace remove them.
//   collect_inventory    reports the node's simulated NIC (pmixpp.simfab.nic)
//   register_fabric, update_fabric, deregister_fabric (pnet 1.2) describe
//                        the simulated fabric itself (simfabric_fabric.h)
// File names: simfabric_files.h. It needs PMIX_JOB_SIZE in the info of
// setup_application and the job's PMIX_PROC_DATA (what setup_application
// returned) in the info of setup_local_support.
//
// A simulation must never reach a production job: the component takes part
// only with PMIX_MCA_pnet_simfabric_enable=1 (it declines quietly otherwise,
// and PMIX_MCA_pnet=simfabric without it says so).
#include "simfabric_fabric.h"
#include "simfabric_files.h"

#include <pmixpp/component.hpp>
#include <pmixpp/pnet.h>
#include <pmixpp/util.hpp>

#include <pmix.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace simfabric {
// One line in the component's log (defined after the descriptor).
void warn(const std::string &line);
}  // namespace simfabric

namespace {

using simfabric::warn;

constexpr const char *kAddrKey = "pmixpp.simfab.addr";
constexpr const char *kJobKey = "pmixpp.simfab.jobid";

std::atomic<const pmixpp_services_t *> g_services{nullptr};
std::atomic<bool> g_enabled{false};

// What setup_local_support prepared, per namespace.
struct LocalJob {
    std::string nsdir;
    std::set<uint32_t> apps;
};
std::mutex jobs_mutex;
std::map<std::string, LocalJob> jobs;

using pmixpp::util::find_info;
using pmixpp::util::key_is;

bool as_u32(const pmix_value_t &v, uint32_t *out_p)
{
    return pmixpp::util::read_unsigned(v, out_p) == PMIX_SUCCESS;
}

std::string fabric_id(const char *nspace)
{
    uint64_t hash = 1469598103934665603ull;
    for (const char *p = nspace; *p != '\0'; ++p) hash = (hash ^ static_cast<unsigned char>(*p)) * 1099511628211ull;
    char text[24];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
    return text;
}

std::string address_of(const std::string &fabric, uint32_t rank)
{
    return "simfab://" + fabric + "/" + std::to_string(rank) + ":" + std::to_string(4096 + rank);
}

pmix_status_t add_proc_address(void *ilist, uint32_t rank, const std::string &address)
{
    pmix_data_array_t *array = nullptr;
    PMIX_DATA_ARRAY_CREATE(array, 2, PMIX_INFO);
    if (array == nullptr) return PMIX_ERR_NOMEM;
    auto *fields = static_cast<pmix_info_t *>(array->array);
    pmix_rank_t r = rank;
    PMIX_INFO_LOAD(&fields[0], PMIX_RANK, &r, PMIX_PROC_RANK);
    PMIX_INFO_LOAD(&fields[1], kAddrKey, address.c_str(), PMIX_STRING);
    const pmix_status_t rc = PMIx_Info_list_add(ilist, PMIX_PROC_DATA, array, PMIX_DATA_ARRAY);
    PMIX_DATA_ARRAY_FREE(array);
    return rc;
}

pmix_status_t setup_application(const char *nspace, const pmix_info_t info[], size_t ninfo, void *ilist,
                                pmixpp_pnet_done_fn, void *)
{
    const pmix_info_t *size = find_info(info, ninfo, PMIX_JOB_SIZE);
    uint32_t nprocs = 0;
    if (ilist == nullptr || size == nullptr || !as_u32(size->value, &nprocs)) {
        warn("setup_application of " + std::string(nspace) +
             ": the info needs PMIX_JOB_SIZE to give every process an address");
        return PMIX_ERR_BAD_PARAM;
    }
    const std::string fabric = fabric_id(nspace);
    pmix_status_t rc = PMIx_Info_list_add(ilist, kJobKey, fabric.c_str(), PMIX_STRING);
    pmix_envar_t envar{const_cast<char *>("SIMFAB_JOBID"), const_cast<char *>(fabric.c_str()), ':'};
    if (rc == PMIX_SUCCESS) rc = PMIx_Info_list_add(ilist, PMIX_SET_ENVAR, &envar, PMIX_ENVAR);
    for (uint32_t rank = 0; rank < nprocs && rc == PMIX_SUCCESS; ++rank) {
        rc = add_proc_address(ilist, rank, address_of(fabric, rank));
    }
    return rc == PMIX_SUCCESS ? PMIX_OPERATION_SUCCEEDED : rc;
}

// rank, address and application of every PMIX_PROC_DATA entry of info.
struct ProcAddress {
    uint32_t rank = 0;
    std::string address;
    uint32_t appnum = 0;
};

std::vector<ProcAddress> addresses_in(const pmix_info_t info[], size_t ninfo)
{
    std::vector<ProcAddress> found;
    for (size_t i = 0; info != nullptr && i < ninfo; ++i) {
        const pmix_value_t &v = info[i].value;
        if (!key_is(info[i], PMIX_PROC_DATA) || v.type != PMIX_DATA_ARRAY || v.data.darray == nullptr ||
            v.data.darray->type != PMIX_INFO) {
            continue;
        }
        const pmix_info_t *rank = find_info(*v.data.darray, PMIX_RANK);
        const pmix_info_t *address = find_info(*v.data.darray, kAddrKey);
        const pmix_info_t *app = find_info(*v.data.darray, PMIX_APPNUM);
        ProcAddress entry;
        if (rank == nullptr || !as_u32(rank->value, &entry.rank) || address == nullptr ||
            address->value.type != PMIX_STRING || address->value.data.string == nullptr) {
            continue;
        }
        entry.address = address->value.data.string;
        if (app != nullptr) (void)as_u32(app->value, &entry.appnum);
        found.push_back(std::move(entry));
    }
    return found;
}

// PMIX_LOCAL_PEERS ("0,1,5") of info, if given.
bool local_peers(const pmix_info_t info[], size_t ninfo, std::set<uint32_t> *peers_p)
{
    const pmix_info_t *peers = find_info(info, ninfo, PMIX_LOCAL_PEERS);
    if (peers == nullptr || peers->value.type != PMIX_STRING || peers->value.data.string == nullptr) return false;
    for (const char *p = peers->value.data.string; *p != '\0';) {
        char *end = nullptr;
        const unsigned long rank = std::strtoul(p, &end, 10);
        if (end == p) break;
        peers_p->insert(static_cast<uint32_t>(rank));
        p = *end == ',' ? end + 1 : end;
    }
    return true;
}

pmix_status_t setup_local_support(const char *nspace, const pmix_info_t info[], size_t ninfo, pmixpp_pnet_done_fn,
                                  void *)
{
    const pmix_info_t *nsdir = find_info(info, ninfo, PMIX_NSDIR);
    if (nsdir == nullptr || nsdir->value.type != PMIX_STRING || nsdir->value.data.string == nullptr) {
        warn("setup_local_support of " + std::string(nspace) +
             ": no PMIX_NSDIR to hold the address table (register the namespace first, or pass PMIX_NSDIR)");
        return PMIX_ERR_BAD_PARAM;
    }
    std::set<uint32_t> peers;
    const bool only_peers = local_peers(info, ninfo, &peers);
    LocalJob job;
    job.nsdir = nsdir->value.data.string;
    std::string table;
    for (const ProcAddress &entry : addresses_in(info, ninfo)) {
        if (only_peers && peers.count(entry.rank) == 0) continue;
        table += std::to_string(entry.rank) + " " + entry.address + "\n";
        job.apps.insert(entry.appnum);
    }
    std::string why;
    if (!simfabric::write_file(simfabric::table_path(job.nsdir), table, &why)) {
        warn("setup_local_support of " + std::string(nspace) + ": " + why);
        return PMIX_ERR_FILE_OPEN_FAILURE;
    }
    for (uint32_t app : job.apps) {
        if (!simfabric::write_file(simfabric::app_path(job.nsdir, app), "app " + std::to_string(app) + "\n", &why)) {
            warn("setup_local_support of " + std::string(nspace) + ": " + why);
        }
    }
    std::lock_guard lock(jobs_mutex);
    jobs[nspace] = std::move(job);
    return PMIX_OPERATION_SUCCEEDED;
}

std::string nsdir_of(const char *nspace)
{
    std::lock_guard lock(jobs_mutex);
    const auto it = jobs.find(nspace);
    return it == jobs.end() ? std::string() : it->second.nsdir;
}

pmix_status_t setup_fork(const pmix_proc_t *proc, char ***env_p)
{
    const std::string nsdir = nsdir_of(proc->nspace);
    if (nsdir.empty()) return PMIX_SUCCESS;  // no local support for this job
    const std::string path = simfabric::port_path(nsdir, proc->rank);
    std::string why;
    if (!simfabric::write_file(path, "port " + std::to_string(4096 + proc->rank) + "\n", &why)) {
        warn("setup_fork of " + std::string(proc->nspace) + "." + std::to_string(proc->rank) + ": " + why);
        return PMIX_ERR_FILE_OPEN_FAILURE;
    }
    return pmixpp::sdk::env_set(env_p, "SIMFAB_PORT_FILE", path) ? PMIX_SUCCESS : PMIX_ERR_NOMEM;
}

void child_finalized(const pmix_proc_t *proc)
{
    const std::string nsdir = nsdir_of(proc->nspace);
    if (!nsdir.empty()) simfabric::remove_file(simfabric::port_path(nsdir, proc->rank));
}

void local_app_finalized(const char *nspace, uint32_t appnum)
{
    const std::string nsdir = nsdir_of(nspace);
    if (!nsdir.empty()) simfabric::remove_file(simfabric::app_path(nsdir, appnum));
}

void deregister_nspace(const char *nspace)
{
    std::lock_guard lock(jobs_mutex);
    const auto it = jobs.find(nspace);
    if (it == jobs.end()) return;
    simfabric::remove_file(simfabric::table_path(it->second.nsdir));
    for (uint32_t app : it->second.apps) simfabric::remove_file(simfabric::app_path(it->second.nsdir, app));
    jobs.erase(it);
}

// The node's simulated NIC, for PMIx_server_collect_inventory.
pmix_status_t collect_inventory(const pmix_info_t[], size_t, void *ilist)
{
    const pmix_status_t rc = PMIx_Info_list_add(ilist, "pmixpp.simfab.nic", "simnic0", PMIX_STRING);
    return rc == PMIX_SUCCESS ? PMIX_OPERATION_SUCCEEDED : rc;
}

// Another node's inventory: a real fabric would learn its peers' NICs here.
pmix_status_t deliver_inventory(const pmix_info_t[], size_t, const pmix_info_t[], size_t)
{
    return PMIX_OPERATION_SUCCEEDED;
}

constexpr pmixpp_pnet_module_t simfabric_module = {
    .struct_size = sizeof(pmixpp_pnet_module_t),
    .setup_application = setup_application,
    .setup_local_support = setup_local_support,
    .setup_fork = setup_fork,
    .child_finalized = child_finalized,
    .local_app_finalized = local_app_finalized,
    .deregister_nspace = deregister_nspace,
    .collect_inventory = collect_inventory,
    .deliver_inventory = deliver_inventory,
    .register_fabric = simfabric::register_fabric,
    .update_fabric = simfabric::update_fabric,
    .deregister_fabric = simfabric::deregister_fabric,
};

}  // namespace

struct SimFabric {
    static constexpr const char *version = "1.0.0";
    // Below the real ones: a site's fabric component goes first.
    static constexpr int priority = 5;
    static constexpr uint16_t framework_major = PMIXPP_PNET_API_MAJOR;
    static constexpr uint16_t framework_minor = PMIXPP_PNET_API_MINOR;

    static void register_params(pmixpp::sdk::Services &s)
    {
        s.register_param("enable", PMIXPP_PARAM_BOOL, "false",
                         "take part in jobs (a simulated fabric: tests and demonstrations only)");
    }
    static void open(pmixpp::sdk::Services &s)
    {
        g_services = s.raw();
        g_enabled = s.param_bool("enable", false);
    }
    static const void *query(pmixpp::sdk::Services &s, int &)
    {
        g_services = s.raw();
        return g_enabled ? &simfabric_module : nullptr;
    }
    static void close()
    {
        g_services = nullptr;
        simfabric::forget_registrations();
        std::lock_guard lock(jobs_mutex);
        jobs.clear();
    }
};

PMIXPP_CXX_COMPONENT(pnet, simfabric, SimFabric)

std::size_t simfabric::local_jobs()
{
    std::lock_guard lock(jobs_mutex);
    return jobs.size();
}

void simfabric::warn(const std::string &line)
{
    if (const pmixpp_services_t *raw = g_services.load()) {
        pmixpp::sdk::Services(raw, pmixpp_pnet_simfabric_component()).log(PMIXPP_LOG_WARN, "%s", line.c_str());
    }
}
