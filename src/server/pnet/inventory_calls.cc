// Node inventory through the pnet components (see inventory_calls.h).
#include "server/pnet/inventory_calls.h"

#include "server/events/delivery.h"
#include "common/runtime/log.h"
#include "server/state/server.h"
#include "server/pnet/pnet_server.h"

#include <pmix.h>

#include <cstdlib>

namespace pmixpp::server::pnet {
namespace {

void release_array(void *cbdata)
{
    auto *array = static_cast<pmix_data_array_t *>(cbdata);
    PMIX_DATA_ARRAY_FREE(array);
}

}  // namespace

pmix_status_t collect_inventory(Server &server, const pmix_info_t directives[], std::size_t ndirs,
                                pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    void *all = PMIx_Info_list_start();
    if (all == nullptr) return PMIX_ERR_NOMEM;
    for (const auto &selected : server.pnet_modules) {
        const auto *module = module_of(selected);
        if (!PMIXPP_PNET_HAS(module, collect_inventory)) continue;
        void *mine = PMIx_Info_list_start();
        const pmix_status_t rc = mine == nullptr ? PMIX_ERR_NOMEM : module->collect_inventory(directives, ndirs, mine);
        if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) {
            warn_failed(selected.component, "collect_inventory", rc, "the inventory goes on without it");
        } else {
            pmix_data_array_t part;
            PMIX_DATA_ARRAY_CONSTRUCT(&part, 0, PMIX_INFO);
            if (PMIx_Info_list_convert(mine, &part) == PMIX_SUCCESS) {
                const auto *infos = static_cast<const pmix_info_t *>(part.array);
                for (std::size_t i = 0; i < part.size; ++i) (void)PMIx_Info_list_xfer(all, &infos[i]);
                PMIX_DATA_ARRAY_DESTRUCT(&part);
            }
        }
        if (mine != nullptr) PMIx_Info_list_release(mine);
    }
    auto *result = static_cast<pmix_data_array_t *>(std::calloc(1, sizeof(pmix_data_array_t)));
    pmix_status_t rc = result == nullptr ? PMIX_ERR_NOMEM : PMIx_Info_list_convert(all, result);
    PMIx_Info_list_release(all);
    if (rc != PMIX_SUCCESS) {
        std::free(result);
        return rc;
    }
    if (cbfunc == nullptr) {
        release_array(result);
        return PMIX_SUCCESS;
    }
    // The host's callback never runs before the call returned.
    post_to_server([cbfunc, cbdata, result](Server &) {
        cbfunc(PMIX_SUCCESS, static_cast<pmix_info_t *>(result->array), result->size, cbdata, release_array, result);
    });
    return PMIX_SUCCESS;
}

pmix_status_t deliver_inventory(Server &server, const pmix_info_t info[], std::size_t ninfo,
                                const pmix_info_t directives[], std::size_t ndirs, pmix_op_cbfunc_t cbfunc,
                                void *cbdata)
{
    for (const auto &selected : server.pnet_modules) {
        const auto *module = module_of(selected);
        if (!PMIXPP_PNET_HAS(module, deliver_inventory)) continue;
        const pmix_status_t rc = module->deliver_inventory(info, ninfo, directives, ndirs);
        if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED)
            warn_failed(selected.component, "deliver_inventory", rc, "the inventory goes on without it");
    }
    if (cbfunc != nullptr) post_to_server([cbfunc, cbdata](Server &) { cbfunc(PMIX_SUCCESS, cbdata); });
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::server::pnet
