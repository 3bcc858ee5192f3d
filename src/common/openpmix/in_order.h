// Packing or reading OpenPMIx's payloads field after field: each step is a
// callable returning a status, and the first failure ends the run.
#ifndef PMIXPP_COMMON_OPENPMIX_IN_ORDER_H
#define PMIXPP_COMMON_OPENPMIX_IN_ORDER_H

#include <pmix_common.h>

namespace pmixpp::openpmix {

template <typename... Steps> pmix_status_t in_order(Steps... steps)
{
    pmix_status_t rc = PMIX_SUCCESS;
    ((rc = rc == PMIX_SUCCESS ? steps() : rc), ...);
    return rc;
}

}  // namespace pmixpp::openpmix

#endif
