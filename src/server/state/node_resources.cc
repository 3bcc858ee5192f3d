#include "server/state/node_resources.h"

#include <pmixpp/util.hpp>

#include "common/values/value_ops.h"
#include "server/state/info_read.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

namespace pmixpp::server {

namespace {

// One node as the host's info names it, and the entries about it.
struct NodeSpec {
    std::optional<uint32_t> nodeid;
    std::string hostname;
    std::vector<const pmix_info_t *> items;
};

using util::key_is;

bool is_identity(const pmix_info_t &item)
{
    return key_is(item, PMIX_NODEID) || key_is(item, PMIX_HOSTNAME);
}

pmix_status_t parse_node_array(const pmix_value_t &value, NodeSpec *spec_p, std::string *error_p)
{
    const pmix_data_array_t *array = value.type == PMIX_DATA_ARRAY ? value.data.darray : nullptr;
    if (array == nullptr || array->type != PMIX_INFO || (array->array == nullptr && array->size > 0)) {
        *error_p = std::string(PMIX_NODE_INFO_ARRAY) + " must be a data array of pmix_info_t";
        return PMIX_ERR_BAD_PARAM;
    }
    NodeSpec spec;
    const auto *items = static_cast<const pmix_info_t *>(array->array);
    for (std::size_t i = 0; i < array->size; ++i) {
        const pmix_info_t &item = items[i];
        if (key_is(item, PMIX_NODEID)) {
            uint32_t id = 0;
            if (read_u32(item.value, &id) != PMIX_SUCCESS) {
                *error_p = std::string(PMIX_NODEID) + " must be a uint32";
                return PMIX_ERR_BAD_PARAM;
            }
            spec.nodeid = id;
        } else if (key_is(item, PMIX_HOSTNAME)) {
            if (read_string(item.value, &spec.hostname) != PMIX_SUCCESS || spec.hostname.empty()) {
                *error_p = std::string(PMIX_HOSTNAME) + " must be a non-empty string";
                return PMIX_ERR_BAD_PARAM;
            }
        } else {
            spec.items.push_back(&item);
        }
    }
    *spec_p = std::move(spec);
    return PMIX_SUCCESS;
}

// Node arrays as they come, plus one spec for this node's plain entries.
pmix_status_t parse_specs(const Server &server, const pmix_info_t info[], std::size_t ninfo,
                          std::vector<NodeSpec> *specs_p, std::string *error_p)
{
    std::vector<NodeSpec> specs;
    NodeSpec local;
    for (std::size_t i = 0; i < ninfo; ++i) {
        if (!key_is(info[i], PMIX_NODE_INFO_ARRAY)) {
            if (!is_identity(info[i])) local.items.push_back(&info[i]);
            continue;
        }
        NodeSpec spec;
        const pmix_status_t rc = parse_node_array(info[i].value, &spec, error_p);
        if (rc != PMIX_SUCCESS) return rc;
        if (!spec.nodeid && spec.hostname.empty()) spec.hostname = server.config.hostname;
        specs.push_back(std::move(spec));
    }
    if (!local.items.empty()) {
        local.hostname = server.config.hostname;
        specs.push_back(std::move(local));
    }
    *specs_p = std::move(specs);
    return PMIX_SUCCESS;
}

NodeResources *find_by_name(Server &server, const std::string &hostname)
{
    for (auto &[id, node] : server.resources) {
        if (node.hostname == hostname) return &node;
    }
    return nullptr;
}

// The id the registered jobs know hostname by, else the next free one.
uint32_t id_for(Server &server, const std::string &hostname)
{
    for (const auto &[name, ns] : server.namespaces) {
        uint32_t id = 0;
        if (ns.registered && server.store->lookup_node(name.c_str(), hostname.c_str(), &id) == PMIX_SUCCESS &&
            server.resources.count(id) == 0) {
            return id;
        }
    }
    return server.resources.empty() ? 0 : server.resources.rbegin()->first + 1;
}

NodeResources *find_node(Server &server, const NodeSpec &spec)
{
    if (spec.nodeid) {
        auto found = server.resources.find(*spec.nodeid);
        return found == server.resources.end() ? nullptr : &found->second;
    }
    return find_by_name(server, spec.hostname);
}

NodeResources &node_entry(Server &server, const NodeSpec &spec)
{
    if (NodeResources *known = find_node(server, spec)) {
        if (!spec.hostname.empty()) known->hostname = spec.hostname;
        return *known;
    }
    const uint32_t id = spec.nodeid ? *spec.nodeid : id_for(server, spec.hostname);
    NodeResources &node = server.resources[id];
    node.nodeid = id;
    node.hostname = spec.hostname;
    return node;
}

void remove_key(NodeResources &node, const char *key)
{
    auto &info = node.info;
    for (auto it = info.begin(); it != info.end(); ++it) {
        if (!key_is(*it, key)) continue;
        values::info_destruct(&*it);
        info.erase(it);
        return;
    }
}

pmix_status_t merge(NodeResources &node, const NodeSpec &spec)
{
    for (const pmix_info_t *item : spec.items) {
        pmix_info_t copy{};
        const pmix_status_t rc = values::info_xfer(&copy, item);
        if (rc != PMIX_SUCCESS) return rc;
        remove_key(node, item->key);
        node.info.push_back(copy);
    }
    return PMIX_SUCCESS;
}

// One node's entries, with its identity so PMIX_HOSTNAME lookups find it.
pmix_status_t store_node(const Server &server, const NodeResources &node)
{
    std::vector<pmix_info_t> batch(node.info.begin(), node.info.end());  // shallow: the store copies
    pmix_info_t identity[2]{};
    values::info_load(&identity[0], PMIX_NODEID, &node.nodeid, PMIX_UINT32);
    const int with_name = node.hostname.empty() ? 0 : 1;
    if (with_name != 0) values::info_load(&identity[1], PMIX_HOSTNAME, node.hostname.c_str(), PMIX_STRING);
    batch.insert(batch.end(), identity, identity + 1 + with_name);
    const pmix_status_t rc =
        server.store->put(kResourceNamespace, PMIXPP_GDS_LEVEL_NODE, node.nodeid, batch.data(), batch.size());
    for (auto &item : identity) values::info_destruct(&item);
    return rc;
}

pmix_status_t store_all(const Server &server)
{
    server.store->remove_nspace(kResourceNamespace);
    for (const auto &[id, node] : server.resources) {
        const pmix_status_t rc = store_node(server, node);
        if (rc != PMIX_SUCCESS) return rc;
    }
    return PMIX_SUCCESS;
}

bool asks_about_a_node(const store::GetRequest &request)
{
    for (std::size_t i = 0; i < request.nqualifiers; ++i) {
        const pmix_info_t &item = request.qualifiers[i];
        if (key_is(item, PMIX_NODE_INFO) || is_identity(item)) return true;
    }
    const auto level = store::natural_level(request.key);
    return level && *level == PMIXPP_GDS_LEVEL_NODE;
}

bool names_a_node(const store::GetRequest &request)
{
    for (std::size_t i = 0; i < request.nqualifiers; ++i) {
        if (is_identity(request.qualifiers[i])) return true;
    }
    return false;
}

}  // namespace

pmix_status_t register_node_resources(Server &server, const pmix_info_t info[], std::size_t ninfo, std::string *error_p)
{
    std::vector<NodeSpec> specs;
    pmix_status_t rc = parse_specs(server, info, ninfo, &specs, error_p);
    if (rc != PMIX_SUCCESS) return rc;
    for (const auto &spec : specs) {
        NodeResources &node = node_entry(server, spec);
        if ((rc = merge(node, spec)) != PMIX_SUCCESS) return rc;
        if ((rc = store_node(server, node)) != PMIX_SUCCESS) return rc;
    }
    return PMIX_SUCCESS;
}

pmix_status_t deregister_node_resources(Server &server, const pmix_info_t info[], std::size_t ninfo,
                                        std::string *error_p)
{
    std::vector<NodeSpec> specs;
    const pmix_status_t rc = parse_specs(server, info, ninfo, &specs, error_p);
    if (rc != PMIX_SUCCESS) return rc;
    for (const auto &spec : specs) {
        NodeResources *node = find_node(server, spec);
        if (node == nullptr) continue;
        if (spec.items.empty()) {
            for (auto &item : node->info) values::info_destruct(&item);
            server.resources.erase(node->nodeid);
            continue;
        }
        for (const pmix_info_t *item : spec.items) remove_key(*node, item->key);
    }
    return store_all(server);
}

pmix_status_t get_node_resource(Server &server, const store::GetRequest &request, store::ValuePtr *value_p)
{
    if (server.resources.empty() || request.key == nullptr || !asks_about_a_node(request)) {
        return PMIX_ERR_NOT_FOUND;
    }
    const pmix_proc_t target = make_proc(kResourceNamespace, PMIX_RANK_WILDCARD);
    std::vector<pmix_info_t> qualifiers(request.qualifiers, request.qualifiers + request.nqualifiers);
    pmix_info_t here{};
    // Without a node named, the question is about this node.
    if (!names_a_node(request)) {
        values::info_load(&here, PMIX_HOSTNAME, server.config.hostname.c_str(), PMIX_STRING);
        qualifiers.push_back(here);
    }
    const bool node_info = true;
    pmix_info_t level{};
    values::info_load(&level, PMIX_NODE_INFO, &node_info, PMIX_BOOL);
    qualifiers.push_back(level);
    store::GetRequest lookup = request;
    lookup.target = &target;
    lookup.qualifiers = qualifiers.data();
    lookup.nqualifiers = qualifiers.size();
    lookup.self = nullptr;
    const pmix_status_t rc = store::get(*server.store, lookup, value_p);
    values::info_destruct(&here);
    values::info_destruct(&level);
    return rc;
}

}  // namespace pmixpp::server
