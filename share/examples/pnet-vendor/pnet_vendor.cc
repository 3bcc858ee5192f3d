// pnet/vendor: an example vendor component, written as a C++ class through the
// optional adapter <pmixpp/component.hpp>.
//
// At job setup on the head node it hands every process of the job the
// environment variable VENDOR_FABRIC_KEY, whose value users choose with the
// parameter PMIX_MCA_pnet_vendor_key.
#include <pmixpp/component.hpp>
#include <pmixpp/pnet.h>

#include <pmix.h>

#include <string>

namespace {

// Read at open; pnet hooks run after open and before close.
std::string fabric_key;

pmix_status_t setup_application(const char *nspace, const pmix_info_t info[], size_t ninfo, void *ilist,
                                pmixpp_pnet_done_fn done, void *cbdata)
{
    (void) nspace;
    (void) info;
    (void) ninfo;
    (void) done;
    (void) cbdata;
    if (ilist == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    // PMIx_Info_list_add copies the value, so pointing at our strings is fine.
    static char variable[] = "VENDOR_FABRIC_KEY";
    pmix_envar_t envar;
    envar.envar = variable;
    envar.value = fabric_key.data();
    envar.separator = ':';
    const pmix_status_t rc = PMIx_Info_list_add(ilist, PMIX_SET_ENVAR, &envar, PMIX_ENVAR);
    return rc == PMIX_SUCCESS ? PMIX_OPERATION_SUCCEEDED : rc;
}

pmix_status_t setup_local_support(const char *, const pmix_info_t[], size_t, pmixpp_pnet_done_fn, void *)
{
    return PMIX_OPERATION_SUCCEEDED; // nothing to prepare on compute nodes
}

pmix_status_t setup_fork(const pmix_proc_t *, char ***)
{
    return PMIX_SUCCESS; // the key already travels in the job's envars
}

void child_finalized(const pmix_proc_t *) {}
void local_app_finalized(const char *, uint32_t) {}
void deregister_nspace(const char *) {}

constexpr pmixpp_pnet_module_t vendor_module = {
    .struct_size = sizeof(pmixpp_pnet_module_t),
    .setup_application = setup_application,
    .setup_local_support = setup_local_support,
    .setup_fork = setup_fork,
    .child_finalized = child_finalized,
    .local_app_finalized = local_app_finalized,
    .deregister_nspace = deregister_nspace,
};

} // namespace

struct VendorNet {
    static constexpr const char *version = "1.0.0";
    static constexpr int priority = 20;
    static constexpr uint16_t framework_major = PMIXPP_PNET_API_MAJOR;
    static constexpr uint16_t framework_minor = PMIXPP_PNET_API_MINOR;

    static void register_params(pmixpp::sdk::Services &services)
    {
        services.register_param("key", PMIXPP_PARAM_STRING, "demo-fabric-key",
                                "Fabric key handed to every process as VENDOR_FABRIC_KEY");
    }

    static void open(pmixpp::sdk::Services &services)
    {
        fabric_key = services.param_string("key");
        services.log(PMIXPP_LOG_TRACE, "fabric key is '%s'", fabric_key.c_str());
    }

    static const void *query(pmixpp::sdk::Services &, int &)
    {
        if (fabric_key.empty()) {
            return nullptr; // no key configured: decline quietly
        }
        return &vendor_module;
    }

    static void close() { fabric_key.clear(); }
};

PMIXPP_CXX_COMPONENT(pnet, vendor, VendorNet)
