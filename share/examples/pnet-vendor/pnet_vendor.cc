// pnet/vendor: an example vendor component, written as a C++ class through the
// optional adapter <pmixpp/component.hpp>, that goes through every pnet hook
// the way a real fabric's component does:
//
//   setup_application    (head node) reserves a virtual network id (VNI) for
//                        the job from the site's pool and hands every process
//                        VENDOR_FABRIC_KEY and VENDOR_VNI; the job data gets
//                        vendor.vni for the compute nodes
//   setup_local_support  (compute node) writes the job's fabric configuration,
//                        vendor-fabric.conf, into the job's session directory
//                        (PMIX_NSDIR), where the fabric driver would read it
//   setup_fork           points each child at it (VENDOR_FABRIC_CONF)
//   child_finalized      counts the job's children that ended
//   local_app_finalized  nothing per application here
//   deregister_nspace    removes the configuration and returns the VNI
//
// Parameters: PMIX_MCA_pnet_vendor_key (default demo-fabric-key; empty:
// the component declines), PMIX_MCA_pnet_vendor_vni_base (1000) and
// PMIX_MCA_pnet_vendor_vni_count (64): the pool of VNIs.
#include <pmixpp/component.hpp>
#include <pmixpp/pnet.h>
#include <pmixpp/util.hpp>

#include <pmix.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <string>

namespace {

constexpr const char *kVniKey = "vendor.vni";

// Read at open; hooks run after open and before close.
std::string fabric_key;
long long vni_base = 1000;
long long vni_count = 64;

struct Job {
    long long vni = -1;     // reserved on the head node (this process)
    std::string conf_path;  // written on the compute node
    unsigned children_ended = 0;
};
std::mutex jobs_mutex;
std::map<std::string, Job> jobs;
std::set<long long> vnis_in_use;

pmix_status_t add_envar(void *ilist, const char *name, const std::string &value)
{
    pmix_envar_t envar;
    envar.envar = const_cast<char *>(name);
    envar.value = const_cast<char *>(value.c_str());
    envar.separator = ':';
    // PMIx_Info_list_add copies the value, so pointing at our strings is fine.
    return PMIx_Info_list_add(ilist, PMIX_SET_ENVAR, &envar, PMIX_ENVAR);
}

long long reserve_vni(const std::string &nspace)
{
    std::lock_guard lock(jobs_mutex);
    Job &job = jobs[nspace];
    if (job.vni >= 0) return job.vni;  // the same job asked again
    for (long long vni = vni_base; vni < vni_base + vni_count; ++vni) {
        if (vnis_in_use.insert(vni).second) return job.vni = vni;
    }
    return -1;
}

pmix_status_t setup_application(const char *nspace, const pmix_info_t info[], size_t ninfo, void *ilist,
                                pmixpp_pnet_done_fn done, void *cbdata)
{
    (void)info;
    (void)ninfo;
    (void)done;
    (void)cbdata;
    if (ilist == nullptr) return PMIX_ERR_BAD_PARAM;
    const long long vni = reserve_vni(nspace);
    if (vni < 0) return PMIX_ERR_OUT_OF_RESOURCE;  // the pool is exhausted: the core names us
    const std::string vni_text = std::to_string(vni);
    pmix_status_t rc = add_envar(ilist, "VENDOR_FABRIC_KEY", fabric_key);
    if (rc == PMIX_SUCCESS) rc = add_envar(ilist, "VENDOR_VNI", vni_text);
    uint32_t vni32 = static_cast<uint32_t>(vni);
    if (rc == PMIX_SUCCESS) rc = PMIx_Info_list_add(ilist, kVniKey, &vni32, PMIX_UINT32);
    return rc == PMIX_SUCCESS ? PMIX_OPERATION_SUCCEEDED : rc;
}

bool write_conf(const std::string &path, const std::string &text)
{
    const pmixpp::util::UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600));
    if (!fd) return false;
    return ::write(fd.get(), text.data(), text.size()) == static_cast<ssize_t>(text.size());
}

pmix_status_t setup_local_support(const char *nspace, const pmix_info_t info[], size_t ninfo, pmixpp_pnet_done_fn,
                                  void *)
{
    const pmix_info_t *nsdir = pmixpp::util::find_info(info, ninfo, PMIX_NSDIR);
    const pmix_info_t *vni = pmixpp::util::find_info(info, ninfo, kVniKey);
    if (vni == nullptr) return PMIX_OPERATION_SUCCEEDED;  // not a job we set up
    if (nsdir == nullptr || nsdir->value.type != PMIX_STRING || vni->value.type != PMIX_UINT32) {
        return PMIX_ERR_BAD_PARAM;
    }
    const std::string path = std::string(nsdir->value.data.string) + "/vendor-fabric.conf";
    if (!write_conf(path, "vni " + std::to_string(vni->value.data.uint32) + "\n")) return PMIX_ERR_FILE_OPEN_FAILURE;
    std::lock_guard lock(jobs_mutex);
    jobs[nspace].conf_path = path;
    return PMIX_OPERATION_SUCCEEDED;
}

pmix_status_t setup_fork(const pmix_proc_t *proc, char ***env)
{
    std::string path;
    {
        std::lock_guard lock(jobs_mutex);
        const auto it = jobs.find(proc->nspace);
        if (it == jobs.end() || it->second.conf_path.empty()) return PMIX_SUCCESS;
        path = it->second.conf_path;
    }
    return pmixpp::sdk::env_set(env, "VENDOR_FABRIC_CONF", path) ? PMIX_SUCCESS : PMIX_ERR_NOMEM;
}

void child_finalized(const pmix_proc_t *proc)
{
    std::lock_guard lock(jobs_mutex);
    const auto it = jobs.find(proc->nspace);
    if (it != jobs.end()) ++it->second.children_ended;
}

void local_app_finalized(const char *, uint32_t) {}

void deregister_nspace(const char *nspace)
{
    std::lock_guard lock(jobs_mutex);
    const auto it = jobs.find(nspace);
    if (it == jobs.end()) return;
    if (!it->second.conf_path.empty()) (void)::unlink(it->second.conf_path.c_str());
    vnis_in_use.erase(it->second.vni);
    jobs.erase(it);
}

constexpr pmixpp_pnet_module_t vendor_module = {
    .struct_size = sizeof(pmixpp_pnet_module_t),
    .setup_application = setup_application,
    .setup_local_support = setup_local_support,
    .setup_fork = setup_fork,
    .child_finalized = child_finalized,
    .local_app_finalized = local_app_finalized,
    .deregister_nspace = deregister_nspace,
    .collect_inventory = nullptr,
    .deliver_inventory = nullptr,
    .register_fabric = nullptr,
    .update_fabric = nullptr,
    .deregister_fabric = nullptr,
};

}  // namespace

struct VendorNet {
    static constexpr const char *version = "1.0.0";
    static constexpr int priority = 20;
    static constexpr uint16_t framework_major = PMIXPP_PNET_API_MAJOR;
    static constexpr uint16_t framework_minor = PMIXPP_PNET_API_MINOR;

    static void register_params(pmixpp::sdk::Services &services)
    {
        services.register_param("key", PMIXPP_PARAM_STRING, "demo-fabric-key",
                                "Fabric key handed to every process as VENDOR_FABRIC_KEY");
        services.register_param("vni_base", PMIXPP_PARAM_INT, "1000", "First virtual network id of the pool");
        services.register_param("vni_count", PMIXPP_PARAM_INT, "64", "Virtual network ids in the pool");
    }

    static void open(pmixpp::sdk::Services &services)
    {
        fabric_key = services.param_string("key");
        vni_base = services.param_int("vni_base", 1000);
        vni_count = services.param_int("vni_count", 64);
        services.log(PMIXPP_LOG_TRACE, "VNI pool %lld..%lld", vni_base, vni_base + vni_count - 1);
    }

    static const void *query(pmixpp::sdk::Services &services, int &)
    {
        if (fabric_key.empty()) {
            return nullptr;  // no key configured: decline quietly
        }
        if (vni_base < 0 || vni_count < 1) {
            services.log(PMIXPP_LOG_WARN, "PMIX_MCA_pnet_vendor_vni_base/_count give an empty pool; not used");
            return nullptr;
        }
        return &vendor_module;
    }

    static void close()
    {
        std::lock_guard lock(jobs_mutex);
        fabric_key.clear();
        jobs.clear();
        vnis_in_use.clear();
    }
};

PMIXPP_CXX_COMPONENT(pnet, vendor, VendorNet)
