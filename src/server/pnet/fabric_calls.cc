// Fabric registration through the pnet components (see fabric_calls.h).
#include "server/pnet/fabric_calls.h"

#include "common/runtime/log.h"
#include "server/state/server.h"
#include "server/pnet/pnet_server.h"

#include <pmix.h>

#include <cstring>

namespace pmixpp::server::pnet {
namespace {

const framework::SelectedModule *find_component(const Server &server, const std::string &name)
{
    for (const auto &selected : server.pnet_modules) {
        if (selected.component == name) return &selected;
    }
    return nullptr;
}

bool answered(pmix_status_t rc)
{
    return rc == PMIX_SUCCESS || rc == PMIX_OPERATION_SUCCEEDED;
}

// The component's list as an array, without a PMIX_FABRIC_INDEX of its own
// (the core numbers registrations, not the component).
pmix_status_t take_list(void *ilist, wire::InfoArray *info_p)
{
    pmix_data_array_t all;
    PMIX_DATA_ARRAY_CONSTRUCT(&all, 0, PMIX_INFO);
    pmix_status_t rc = PMIx_Info_list_convert(ilist, &all);
    if (rc == PMIX_ERR_EMPTY) {  // it knows the fabric, but nothing about it
        info_p->reset();
        return PMIX_SUCCESS;
    }
    if (rc != PMIX_SUCCESS) return rc;
    const auto *infos = static_cast<const pmix_info_t *>(all.array);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < all.size; ++i) kept += PMIX_CHECK_KEY(&infos[i], PMIX_FABRIC_INDEX) ? 0 : 1;
    wire::InfoArray out;
    rc = out.allocate(kept);
    for (std::size_t i = 0, at = 0; rc == PMIX_SUCCESS && i < all.size; ++i) {
        if (!PMIX_CHECK_KEY(&infos[i], PMIX_FABRIC_INDEX)) rc = PMIx_Info_xfer(&out[at++], &infos[i]);
    }
    PMIX_DATA_ARRAY_DESTRUCT(&all);
    if (rc == PMIX_SUCCESS) *info_p = std::move(out);
    return rc;
}

std::string identifier_in(const wire::InfoArray &info, const std::string &otherwise)
{
    for (const pmix_info_t &entry : info) {
        if (PMIX_CHECK_KEY(&entry, PMIX_FABRIC_IDENTIFIER) && entry.value.type == PMIX_STRING &&
            entry.value.data.string != nullptr && entry.value.data.string[0] != '\0') {
            return entry.value.data.string;
        }
    }
    return otherwise;
}

// Runs one hook with a fresh list; the description on success.
template <typename Hook> pmix_status_t describe_with(Hook hook, wire::InfoArray *info_p)
{
    void *ilist = PMIx_Info_list_start();
    if (ilist == nullptr) return PMIX_ERR_NOMEM;
    pmix_status_t rc = hook(ilist);
    if (answered(rc)) rc = take_list(ilist, info_p);
    PMIx_Info_list_release(ilist);
    return rc;
}

}  // namespace

bool any_component_knows_fabrics(const Server &server)
{
    for (const auto &selected : server.pnet_modules) {
        if (PMIXPP_PNET_HAS(module_of(selected), register_fabric)) return true;
    }
    return false;
}

pmix_status_t register_fabric(Server &server, const pmix_info_t directives[], std::size_t ndirs,
                              FabricDescription *description_p)
{
    for (const auto &selected : server.pnet_modules) {
        const auto *module = module_of(selected);
        if (!PMIXPP_PNET_HAS(module, register_fabric)) continue;
        wire::InfoArray info;
        const pmix_status_t rc =
            describe_with([&](void *ilist) { return module->register_fabric(directives, ndirs, ilist); }, &info);
        if (rc == PMIX_ERR_NOMEM) return rc;
        if (rc == PMIX_ERR_NOT_FOUND || rc == PMIX_ERR_NOT_SUPPORTED) continue;  // not one it knows
        if (rc != PMIX_SUCCESS) {
            warn_failed(selected.component, "register_fabric", rc, "asking the next one");
            continue;
        }
        description_p->component = selected.component;
        description_p->identifier = identifier_in(info, selected.component);
        description_p->info = std::move(info);
        return PMIX_SUCCESS;
    }
    return PMIX_ERR_NOT_FOUND;
}

pmix_status_t update_fabric(Server &server, const std::string &component, const std::string &identifier,
                            wire::InfoArray *info_p)
{
    const framework::SelectedModule *selected = find_component(server, component);
    const auto *module = selected == nullptr ? nullptr : module_of(*selected);
    if (!PMIXPP_PNET_HAS(module, update_fabric)) return PMIX_ERR_NOT_FOUND;
    return describe_with([&](void *ilist) { return module->update_fabric(identifier.c_str(), ilist); }, info_p);
}

void deregister_fabric(Server &server, const std::string &component, const std::string &identifier)
{
    const framework::SelectedModule *selected = find_component(server, component);
    const auto *module = selected == nullptr ? nullptr : module_of(*selected);
    if (PMIXPP_PNET_HAS(module, deregister_fabric)) module->deregister_fabric(identifier.c_str());
}

}  // namespace pmixpp::server::pnet
