#include "server/state/topology.h"

#include "common/runtime/log.h"
#include "common/values/hwloc_ops.h"

#include <cstdlib>

namespace pmixpp::server {

namespace {

// The topology as hwloc v2 XML; empty when hwloc cannot export it.
std::string topology_xml(hwloc_topology_t topology)
{
    char *buffer = nullptr;
    int length = 0;
    if (hwloc_topology_export_xmlbuffer(topology, &buffer, &length, 0) != 0 || buffer == nullptr) {
        return {};
    }
    std::string xml(buffer);
    hwloc_free_xmlbuffer(topology, buffer);
    return xml;
}

}  // namespace

void setup_topology(Server &server)
{
    const pmix_topology_t *given = server.config.topology;
    // The host may free what it gave once PMIx_server_init returns (PRRTE
    // frees its info array, and with it the topology PMIX_INFO_LIST_ADD
    // copied): we keep a copy of our own.
    server.config.topology = nullptr;
    if (given == nullptr || given->topology == nullptr || !values::is_hwloc_source(given->source)) return;
    hwloc_topology_t copy = nullptr;
    if (hwloc_topology_dup(&copy, static_cast<hwloc_topology_t>(given->topology)) != 0) {
        runtime::log_warning("server", "cannot copy the host's PMIX_TOPOLOGY2; the node's topology will be loaded "
                                       "here instead");
        return;
    }
    server.topology = copy;
    server.own_topology = true;
    server.topology_tried = true;
}

hwloc_topology_t node_topology(Server &server)
{
    if (server.topology_tried) return server.topology;
    server.topology_tried = true;
    hwloc_topology_t topology = nullptr;
    if (hwloc_topology_init(&topology) != 0) return nullptr;
    if (hwloc_topology_load(topology) != 0) {
        hwloc_topology_destroy(topology);
        runtime::log_warning("server", "cannot load the node topology with hwloc "
                                       "(locality strings will be missing; pass PMIX_TOPOLOGY2)");
        return nullptr;
    }
    server.topology = topology;
    server.own_topology = true;
    return topology;
}

void share_topology(Server &server, const std::string &nspace, uint32_t local_nodeid)
{
    if (!server.config.share_topology || node_topology(server) == nullptr) return;
    // Exported per namespace: a namespace's data must not depend on another's.
    std::string xml = topology_xml(server.topology);
    pmix_status_t rc = PMIX_ERR_NOT_AVAILABLE;
    if (!xml.empty()) {
        pmix_value_t value;
        value.type = PMIX_STRING;
        value.data.string = xml.data();
        rc = server.store->put_value(nspace.c_str(), PMIXPP_GDS_LEVEL_NODE, local_nodeid, PMIX_HWLOC_XML_V2, &value);
    }
    if (rc != PMIX_SUCCESS) {
        runtime::log_warning("server", "cannot share the node topology with nspace " + nspace +
                                           " (its clients will discover it themselves)");
    }
}

}  // namespace pmixpp::server
