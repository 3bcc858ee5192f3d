// The standard's value and info utilities (PMIx_Value_*, PMIx_Info_load/xfer,
// PMIx_Data_array_destruct). Each validates its arguments and delegates to
// value_ops.h.
#include <cstring>

#include "common/values/type_ops.h"
#include "common/values/value_ops.h"

namespace values = pmixpp::values;

extern "C" {

PMIX_EXPORT pmix_status_t PMIx_Value_load(pmix_value_t *val, const void *data, pmix_data_type_t type)
{
    if (nullptr == val) {
        return PMIX_ERR_BAD_PARAM;
    }
    return values::value_load(val, data, type);
}

PMIX_EXPORT pmix_status_t PMIx_Value_unload(pmix_value_t *val, void **data, size_t *sz)
{
    return values::value_unload(val, data, sz);
}

PMIX_EXPORT void PMIx_Value_destruct(pmix_value_t *val)
{
    values::value_destruct(val);
}

PMIX_EXPORT pmix_status_t PMIx_Value_xfer(pmix_value_t *dest, const pmix_value_t *src)
{
    return values::value_xfer(dest, src);
}

PMIX_EXPORT pmix_value_cmp_t PMIx_Value_compare(pmix_value_t *v1, pmix_value_t *v2)
{
    return values::value_compare(v1, v2);
}

PMIX_EXPORT void PMIx_Data_array_destruct(pmix_data_array_t *d)
{
    if (nullptr == d) {
        return;
    }
    values::free_elements(d->array, d->size, d->type);
    d->array = nullptr;
    d->size = 0;
}

PMIX_EXPORT pmix_status_t PMIx_Info_load(pmix_info_t *info, const char *key, const void *data, pmix_data_type_t type)
{
    return values::info_load(info, key, data, type);
}

PMIX_EXPORT pmix_status_t PMIx_Info_xfer(pmix_info_t *dest, const pmix_info_t *src)
{
    return values::info_xfer(dest, src);
}

}  // extern "C"
