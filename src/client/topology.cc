// Topology, cpusets and binding through hwloc (relative locality and device
// distances have files of their own). PMIx_Load_topology hands out one process-wide
// topology, loaded on first use: from the hwloc XML the server shared
// (PMIX_SERVER_SHARE_TOPOLOGY) when there is one, else by discovery. It lives until the process exits (callers may hold it that
// long; PMIx_Topology_destruct never destroys it).
#include <pmix.h>

#include <hwloc.h>

#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>

#include "common/runtime/log.h"
#include "common/values/cpu_list.h"
#include "common/values/hwloc_bitmap.h"
#include "common/values/hwloc_ops.h"

namespace {

using pmixpp::values::Bitmap;

void log_refusal(const std::string &why)
{
    pmixpp::runtime::log_warning("topology", why);
}

// Fills the caller's cpuset (whatever it held is not read or freed).
pmix_status_t hand_out(Bitmap bitmap, pmix_cpuset_t *cpuset)
{
    char *source = strdup("hwloc");
    if (source == nullptr) return PMIX_ERR_NOMEM;
    cpuset->source = source;
    cpuset->bitmap = bitmap.release();
    return PMIX_SUCCESS;
}

std::mutex topology_mutex;
hwloc_topology_t loaded_topology = nullptr;

// The topology in the server's XML; nullptr when there is none or it does not load.
hwloc_topology_t topology_from_server()
{
    pmix_info_t qualifiers[2];
    const bool yes = true;
    PMIX_INFO_LOAD(&qualifiers[0], PMIX_NODE_INFO, &yes, PMIX_BOOL);
    // The server put it in the job data it sent, or nowhere: do not ask it.
    PMIX_INFO_LOAD(&qualifiers[1], PMIX_OPTIONAL, &yes, PMIX_BOOL);
    pmix_value_t *value = nullptr;
    const pmix_status_t rc = PMIx_Get(nullptr, PMIX_HWLOC_XML_V2, qualifiers, 2, &value);
    PMIX_INFO_DESTRUCT(&qualifiers[0]);
    PMIX_INFO_DESTRUCT(&qualifiers[1]);
    if (rc != PMIX_SUCCESS || value == nullptr) return nullptr;
    hwloc_topology_t topology = nullptr;
    if (value->type == PMIX_STRING && value->data.string != nullptr && hwloc_topology_init(&topology) == 0) {
        const char *xml = value->data.string;
        // The server of this node exported it: binding calls on it may act
        // on this system (hwloc disables them for XML topologies otherwise).
        if (hwloc_topology_set_flags(topology, HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM) != 0 ||
            hwloc_topology_set_xmlbuffer(topology, xml, static_cast<int>(std::strlen(xml) + 1)) != 0 ||
            hwloc_topology_load(topology) != 0) {
            hwloc_topology_destroy(topology);
            topology = nullptr;
        }
    }
    PMIX_VALUE_RELEASE(value);
    return topology;
}

hwloc_topology_t discovered_topology()
{
    hwloc_topology_t topology = nullptr;
    if (hwloc_topology_init(&topology) != 0) return nullptr;
    if (hwloc_topology_load(topology) != 0) {
        hwloc_topology_destroy(topology);
        return nullptr;
    }
    return topology;
}

pmix_status_t library_topology(hwloc_topology_t *topology_p)
{
    const std::lock_guard<std::mutex> lock(topology_mutex);
    if (loaded_topology == nullptr) {
        hwloc_topology_t topology = topology_from_server();
        if (topology == nullptr) topology = discovered_topology();
        if (topology == nullptr) return PMIX_ERR_NOT_AVAILABLE;
        loaded_topology = topology;
        pmixpp::values::set_library_topology(topology);
    }
    *topology_p = loaded_topology;
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t PMIx_Load_topology(pmix_topology_t *topo)
{
    if (topo == nullptr) return PMIX_ERR_BAD_PARAM;
    if (topo->source != nullptr && !pmixpp::values::is_hwloc_source(topo->source)) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    try {
        hwloc_topology_t topology = nullptr;
        const pmix_status_t rc = library_topology(&topology);
        if (rc != PMIX_SUCCESS) return rc;
        if (topo->source == nullptr) {
            topo->source = strdup("hwloc");
            if (topo->source == nullptr) return PMIX_ERR_NOMEM;
        }
        topo->topology = topology;
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

// "hwloc:<list>", as PMIx_server_generate_cpuset_string and hosts write
// PMIX_CPUSET. Anything before the first ':' is the source.
pmix_status_t PMIx_Parse_cpuset_string(const char *cpuset_string, pmix_cpuset_t *cpuset)
{
    if (cpuset_string == nullptr || cpuset == nullptr) return PMIX_ERR_BAD_PARAM;
    const char *colon = std::strchr(cpuset_string, ':');
    if (colon == nullptr) {
        log_refusal("\"" + std::string(cpuset_string) +
                    "\" names no source; a cpuset string reads \"hwloc:<cpu list>\" (e.g. hwloc:0-3,8)");
        return PMIX_ERR_BAD_PARAM;
    }
    if (!pmixpp::values::is_hwloc_source(std::string(cpuset_string, colon).c_str())) {
        return PMIX_ERR_NOT_SUPPORTED;  // only hwloc cpusets are known here
    }
    try {
        Bitmap bitmap(hwloc_bitmap_alloc());
        if (!bitmap) return PMIX_ERR_NOMEM;
        if (!pmixpp::values::is_bounded_cpu_list(colon + 1) || hwloc_bitmap_list_sscanf(bitmap.get(), colon + 1) != 0) {
            log_refusal("\"" + std::string(cpuset_string).substr(0, 80) +
                        "\" is not a cpu list; write it as hwloc:<cpu list> with cpus 0 to " +
                        std::to_string(pmixpp::values::kMaxCpuIndex) + " (e.g. hwloc:0-3,8)");
            return PMIX_ERR_BAD_PARAM;
        }
        return hand_out(std::move(bitmap), cpuset);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

// Where the calling process (or thread) may run now, as the OS binds it.
// `cpuset` is only written: callers such as python3-pmix pass an
// uninitialized struct, whose source field must not be read.
pmix_status_t PMIx_Get_cpuset(pmix_cpuset_t *cpuset, pmix_bind_envelope_t ref)
{
    if (cpuset == nullptr) return PMIX_ERR_BAD_PARAM;
    int flags = 0;
    if (ref == PMIX_CPUBIND_PROCESS) {
        flags = HWLOC_CPUBIND_PROCESS;
    } else if (ref == PMIX_CPUBIND_THREAD) {
        flags = HWLOC_CPUBIND_THREAD;
    } else {
        log_refusal("bind envelope " + std::to_string(ref) +
                    " is unknown; pass PMIX_CPUBIND_PROCESS or PMIX_CPUBIND_THREAD");
        return PMIX_ERR_BAD_PARAM;
    }
    try {
        hwloc_topology_t topology = nullptr;
        const pmix_status_t rc = library_topology(&topology);
        if (rc != PMIX_SUCCESS) return rc;
        Bitmap bitmap(hwloc_bitmap_alloc());
        if (!bitmap) return PMIX_ERR_NOMEM;
        if (hwloc_get_cpubind(topology, bitmap.get(), flags) != 0) return PMIX_ERR_NOT_FOUND;
        return hand_out(std::move(bitmap), cpuset);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
