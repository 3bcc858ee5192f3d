// Element operations for the types that contain other PMIx elements: values,
// infos, lookup data, apps, queries and data arrays (nested to any depth).
#include <cstdlib>
#include <cstring>

#include "common/values/array_ops.h"
#include "common/values/element_ops.h"
#include "common/values/memory_helpers.h"
#include "common/values/type_ops.h"
#include "common/values/value_ops.h"

namespace pmixpp::values::ops {

pmix_status_t copy_value(void *dest, const void *src)
{
    return value_xfer(static_cast<pmix_value_t *>(dest), static_cast<const pmix_value_t *>(src));
}

void destruct_value(void *element)
{
    value_destruct(static_cast<pmix_value_t *>(element));
}

pmix_value_cmp_t compare_value(const void *a, const void *b)
{
    return value_compare(static_cast<const pmix_value_t *>(a), static_cast<const pmix_value_t *>(b));
}

pmix_status_t copy_info(void *dest, const void *src)
{
    return info_xfer(static_cast<pmix_info_t *>(dest), static_cast<const pmix_info_t *>(src));
}

void destruct_info(void *element)
{
    info_destruct(static_cast<pmix_info_t *>(element));
}

pmix_value_cmp_t compare_info(const void *a, const void *b)
{
    auto x = static_cast<const pmix_info_t *>(a);
    auto y = static_cast<const pmix_info_t *>(b);
    FieldComparison cmp;
    cmp.then(three_way(std::strncmp(x->key, y->key, PMIX_MAX_KEYLEN), 0));
    if (cmp.undecided()) {
        cmp.then(value_compare(&x->value, &y->value));
    }
    return cmp.result();
}

pmix_status_t copy_pdata(void *dest, const void *src)
{
    auto to = static_cast<pmix_pdata_t *>(dest);
    auto from = static_cast<const pmix_pdata_t *>(src);
    to->proc = from->proc;
    std::memcpy(to->key, from->key, sizeof(to->key));
    to->key[PMIX_MAX_KEYLEN] = '\0';
    pmix_status_t rc = value_xfer(&to->value, &from->value);
    if (PMIX_SUCCESS != rc) {
        std::memset(to, 0, sizeof(*to));
    }
    return rc;
}

void destruct_pdata(void *element)
{
    auto pdata = static_cast<pmix_pdata_t *>(element);
    value_destruct(&pdata->value);
    std::memset(pdata, 0, sizeof(*pdata));
}

pmix_value_cmp_t compare_pdata(const void *a, const void *b)
{
    auto x = static_cast<const pmix_pdata_t *>(a);
    auto y = static_cast<const pmix_pdata_t *>(b);
    FieldComparison cmp;
    cmp.then(compare_proc(&x->proc, &y->proc)).then(three_way(std::strncmp(x->key, y->key, PMIX_MAX_KEYLEN), 0));
    if (cmp.undecided()) {
        cmp.then(value_compare(&x->value, &y->value));
    }
    return cmp.result();
}

pmix_status_t copy_app(void *dest, const void *src)
{
    auto to = static_cast<pmix_app_t *>(dest);
    auto from = static_cast<const pmix_app_t *>(src);
    to->maxprocs = from->maxprocs;
    pmix_status_t rc = PMIX_ERR_NOMEM;
    void *infos = nullptr;
    if (PMIX_SUCCESS == dup_string(&to->cmd, from->cmd) && PMIX_SUCCESS == dup_argv(&to->argv, from->argv) &&
        PMIX_SUCCESS == dup_argv(&to->env, from->env) && PMIX_SUCCESS == dup_string(&to->cwd, from->cwd)) {
        rc = copy_elements(&infos, from->info, from->ninfo, PMIX_INFO);
    }
    if (PMIX_SUCCESS != rc) {
        destruct_app(dest);
        return rc;
    }
    to->info = static_cast<pmix_info_t *>(infos);
    to->ninfo = infos ? from->ninfo : 0;
    return PMIX_SUCCESS;
}

void destruct_app(void *element)
{
    auto app = static_cast<pmix_app_t *>(element);
    std::free(app->cmd);
    free_argv(app->argv);
    free_argv(app->env);
    std::free(app->cwd);
    free_elements(app->info, app->ninfo, PMIX_INFO);
    std::memset(app, 0, sizeof(*app));
}

namespace {

pmix_value_cmp_t compare_argv(char *const *a, char *const *b)
{
    FieldComparison cmp;
    for (size_t n = 0; cmp.undecided(); ++n) {
        const char *x = a ? a[n] : nullptr;
        const char *y = b ? b[n] : nullptr;
        if (nullptr == x && nullptr == y) {
            break;
        }
        cmp.string(x, y);
    }
    return cmp.result();
}

}  // namespace

pmix_value_cmp_t compare_app(const void *a, const void *b)
{
    auto x = static_cast<const pmix_app_t *>(a);
    auto y = static_cast<const pmix_app_t *>(b);
    FieldComparison cmp;
    cmp.string(x->cmd, y->cmd)
        .then(compare_argv(x->argv, y->argv))
        .then(compare_argv(x->env, y->env))
        .string(x->cwd, y->cwd)
        .number(x->maxprocs, y->maxprocs);
    if (cmp.undecided()) {
        cmp.then(compare_elements(x->info, x->ninfo, y->info, y->ninfo, PMIX_INFO));
    }
    return cmp.result();
}

pmix_status_t copy_query(void *dest, const void *src)
{
    auto to = static_cast<pmix_query_t *>(dest);
    auto from = static_cast<const pmix_query_t *>(src);
    void *quals = nullptr;
    pmix_status_t rc = dup_argv(&to->keys, from->keys);
    if (PMIX_SUCCESS == rc) {
        rc = copy_elements(&quals, from->qualifiers, from->nqual, PMIX_INFO);
    }
    if (PMIX_SUCCESS != rc) {
        destruct_query(dest);
        return rc;
    }
    to->qualifiers = static_cast<pmix_info_t *>(quals);
    to->nqual = quals ? from->nqual : 0;
    return PMIX_SUCCESS;
}

void destruct_query(void *element)
{
    auto query = static_cast<pmix_query_t *>(element);
    free_argv(query->keys);
    free_elements(query->qualifiers, query->nqual, PMIX_INFO);
    std::memset(query, 0, sizeof(*query));
}

pmix_value_cmp_t compare_query(const void *a, const void *b)
{
    auto x = static_cast<const pmix_query_t *>(a);
    auto y = static_cast<const pmix_query_t *>(b);
    FieldComparison cmp;
    cmp.then(compare_argv(x->keys, y->keys));
    if (cmp.undecided()) {
        cmp.then(compare_elements(x->qualifiers, x->nqual, y->qualifiers, y->nqual, PMIX_INFO));
    }
    return cmp.result();
}

pmix_status_t copy_data_array(void *dest, const void *src)
{
    return values::copy_data_array(static_cast<pmix_data_array_t *>(dest), static_cast<const pmix_data_array_t *>(src));
}

void destruct_data_array(void *element)
{
    auto array = static_cast<pmix_data_array_t *>(element);
    free_elements(array->array, array->size, array->type);
    std::memset(array, 0, sizeof(*array));
}

pmix_value_cmp_t compare_data_array(const void *a, const void *b)
{
    auto x = static_cast<const pmix_data_array_t *>(a);
    auto y = static_cast<const pmix_data_array_t *>(b);
    if (x->type != y->type) {
        return PMIX_VALUE_TYPE_DIFFERENT;
    }
    return compare_elements(x->array, x->size, y->array, y->size, x->type);
}

}  // namespace pmixpp::values::ops
