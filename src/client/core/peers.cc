#include "client/core/peers.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "client/core/discovery.h"

namespace pmixpp::client {

pmix_status_t procs_from_peer_list(const char *nspace, const pmix_value_t &peers, pmix_proc_t **procs_p,
                                   size_t *nprocs_p)
{
    if (peers.type != PMIX_STRING || peers.data.string == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    std::vector<pmix_rank_t> ranks;
    for (const std::string &item : split_list(peers.data.string, ',')) {
        char *end = nullptr;
        unsigned long rank = std::strtoul(item.c_str(), &end, 10);
        if (end != nullptr && *end == '\0') {
            ranks.push_back(static_cast<pmix_rank_t>(rank));
        }
    }
    if (ranks.empty()) {
        return PMIX_ERR_NOT_FOUND;
    }
    auto *array = static_cast<pmix_proc_t *>(std::calloc(ranks.size(), sizeof(pmix_proc_t)));
    if (array == nullptr) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < ranks.size(); ++i) {
        PMIX_LOAD_NSPACE(array[i].nspace, nspace);
        array[i].rank = ranks[i];
    }
    *procs_p = array;
    *nprocs_p = ranks.size();
    return PMIX_SUCCESS;
}

pmix_status_t nodelist_from(const pmix_value_t &list, char **nodelist_p)
{
    if (list.type != PMIX_STRING || list.data.string == nullptr || list.data.string[0] == '\0') {
        return PMIX_ERR_NOT_FOUND;
    }
    char *copy = strdup(list.data.string);
    if (copy == nullptr) {
        return PMIX_ERR_NOMEM;
    }
    *nodelist_p = copy;
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::client
