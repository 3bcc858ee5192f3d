// Element operations for the small PMIx structs that own strings or arrays.
#include <cstdlib>
#include <cstring>

#include "common/values/array_ops.h"
#include "common/values/element_ops.h"
#include "common/values/memory_helpers.h"
#include "common/values/type_ops.h"

namespace pmixpp::values::ops {
namespace {

// Undoes a partial copy: the destination started zeroed, so its destructor
// releases exactly what was copied so far.
pmix_status_t fail_copy(void *dest, DestructFn destruct, pmix_status_t rc)
{
    destruct(dest);
    return rc;
}

}  // namespace

pmix_status_t copy_proc_info(void *dest, const void *src)
{
    auto to = static_cast<pmix_proc_info_t *>(dest);
    auto from = static_cast<const pmix_proc_info_t *>(src);
    to->proc = from->proc;
    to->pid = from->pid;
    to->exit_code = from->exit_code;
    to->state = from->state;
    if (PMIX_SUCCESS != dup_string(&to->hostname, from->hostname) ||
        PMIX_SUCCESS != dup_string(&to->executable_name, from->executable_name)) {
        return fail_copy(dest, destruct_proc_info, PMIX_ERR_NOMEM);
    }
    return PMIX_SUCCESS;
}

void destruct_proc_info(void *element)
{
    auto info = static_cast<pmix_proc_info_t *>(element);
    std::free(info->hostname);
    std::free(info->executable_name);
    std::memset(info, 0, sizeof(*info));
}

pmix_value_cmp_t compare_proc_info(const void *a, const void *b)
{
    auto x = static_cast<const pmix_proc_info_t *>(a);
    auto y = static_cast<const pmix_proc_info_t *>(b);
    FieldComparison cmp;
    cmp.then(compare_proc(&x->proc, &y->proc))
        .string(x->hostname, y->hostname)
        .string(x->executable_name, y->executable_name)
        .number(x->pid, y->pid)
        .number(x->exit_code, y->exit_code)
        .number(x->state, y->state);
    return cmp.result();
}

pmix_status_t copy_envar(void *dest, const void *src)
{
    auto to = static_cast<pmix_envar_t *>(dest);
    auto from = static_cast<const pmix_envar_t *>(src);
    to->separator = from->separator;
    if (PMIX_SUCCESS != dup_string(&to->envar, from->envar) || PMIX_SUCCESS != dup_string(&to->value, from->value)) {
        return fail_copy(dest, destruct_envar, PMIX_ERR_NOMEM);
    }
    return PMIX_SUCCESS;
}

void destruct_envar(void *element)
{
    auto envar = static_cast<pmix_envar_t *>(element);
    std::free(envar->envar);
    std::free(envar->value);
    std::memset(envar, 0, sizeof(*envar));
}

pmix_value_cmp_t compare_envar(const void *a, const void *b)
{
    auto x = static_cast<const pmix_envar_t *>(a);
    auto y = static_cast<const pmix_envar_t *>(b);
    FieldComparison cmp;
    cmp.string(x->envar, y->envar).string(x->value, y->value).number(x->separator, y->separator);
    return cmp.result();
}

pmix_status_t copy_coord(void *dest, const void *src)
{
    auto to = static_cast<pmix_coord_t *>(dest);
    auto from = static_cast<const pmix_coord_t *>(src);
    to->view = from->view;
    if (nullptr == from->coord || 0 == from->dims) {
        return PMIX_SUCCESS;
    }
    auto coord = static_cast<uint32_t *>(std::calloc(from->dims, sizeof(uint32_t)));
    if (nullptr == coord) {
        return PMIX_ERR_NOMEM;
    }
    std::memcpy(coord, from->coord, from->dims * sizeof(uint32_t));
    to->coord = coord;
    to->dims = from->dims;
    return PMIX_SUCCESS;
}

void destruct_coord(void *element)
{
    auto coord = static_cast<pmix_coord_t *>(element);
    std::free(coord->coord);
    std::memset(coord, 0, sizeof(*coord));
}

pmix_value_cmp_t compare_coord(const void *a, const void *b)
{
    auto x = static_cast<const pmix_coord_t *>(a);
    auto y = static_cast<const pmix_coord_t *>(b);
    if (x->view != y->view) {
        return PMIX_VALUE_INCOMPATIBLE_OBJECTS;
    }
    return compare_elements(x->coord, x->coord ? x->dims : 0, y->coord, y->coord ? y->dims : 0, PMIX_UINT32);
}

pmix_status_t copy_geometry(void *dest, const void *src)
{
    auto to = static_cast<pmix_geometry_t *>(dest);
    auto from = static_cast<const pmix_geometry_t *>(src);
    to->fabric = from->fabric;
    if (PMIX_SUCCESS != dup_string(&to->uuid, from->uuid) || PMIX_SUCCESS != dup_string(&to->osname, from->osname)) {
        return fail_copy(dest, destruct_geometry, PMIX_ERR_NOMEM);
    }
    void *coords = nullptr;
    pmix_status_t rc = copy_elements(&coords, from->coordinates, from->ncoords, PMIX_COORD);
    if (PMIX_SUCCESS != rc) {
        return fail_copy(dest, destruct_geometry, rc);
    }
    to->coordinates = static_cast<pmix_coord_t *>(coords);
    to->ncoords = (nullptr == coords) ? 0 : from->ncoords;
    return PMIX_SUCCESS;
}

void destruct_geometry(void *element)
{
    auto geometry = static_cast<pmix_geometry_t *>(element);
    std::free(geometry->uuid);
    std::free(geometry->osname);
    free_elements(geometry->coordinates, geometry->ncoords, PMIX_COORD);
    std::memset(geometry, 0, sizeof(*geometry));
}

pmix_value_cmp_t compare_geometry(const void *a, const void *b)
{
    auto x = static_cast<const pmix_geometry_t *>(a);
    auto y = static_cast<const pmix_geometry_t *>(b);
    if (x->fabric != y->fabric) {
        return PMIX_VALUE_INCOMPATIBLE_OBJECTS;
    }
    FieldComparison cmp;
    cmp.string(x->uuid, y->uuid).string(x->osname, y->osname);
    if (cmp.undecided()) {
        cmp.then(compare_elements(x->coordinates, x->ncoords, y->coordinates, y->ncoords, PMIX_COORD));
    }
    return cmp.result();
}

pmix_status_t copy_devdist(void *dest, const void *src)
{
    auto to = static_cast<pmix_device_distance_t *>(dest);
    auto from = static_cast<const pmix_device_distance_t *>(src);
    to->type = from->type;
    to->mindist = from->mindist;
    to->maxdist = from->maxdist;
    if (PMIX_SUCCESS != dup_string(&to->uuid, from->uuid) || PMIX_SUCCESS != dup_string(&to->osname, from->osname)) {
        return fail_copy(dest, destruct_devdist, PMIX_ERR_NOMEM);
    }
    return PMIX_SUCCESS;
}

void destruct_devdist(void *element)
{
    auto dist = static_cast<pmix_device_distance_t *>(element);
    std::free(dist->uuid);
    std::free(dist->osname);
    std::memset(dist, 0, sizeof(*dist));
}

pmix_value_cmp_t compare_devdist(const void *a, const void *b)
{
    auto x = static_cast<const pmix_device_distance_t *>(a);
    auto y = static_cast<const pmix_device_distance_t *>(b);
    if (x->type != y->type) {
        return PMIX_VALUE_INCOMPATIBLE_OBJECTS;
    }
    FieldComparison cmp;
    cmp.string(x->uuid, y->uuid)
        .string(x->osname, y->osname)
        .number(x->mindist, y->mindist)
        .number(x->maxdist, y->maxdist);
    return cmp.result();
}

pmix_status_t copy_endpoint(void *dest, const void *src)
{
    auto to = static_cast<pmix_endpoint_t *>(dest);
    auto from = static_cast<const pmix_endpoint_t *>(src);
    if (PMIX_SUCCESS != dup_string(&to->uuid, from->uuid) || PMIX_SUCCESS != dup_string(&to->osname, from->osname) ||
        PMIX_SUCCESS != copy_byte_object(&to->endpt, &from->endpt)) {
        return fail_copy(dest, destruct_endpoint, PMIX_ERR_NOMEM);
    }
    return PMIX_SUCCESS;
}

void destruct_endpoint(void *element)
{
    auto endpoint = static_cast<pmix_endpoint_t *>(element);
    std::free(endpoint->uuid);
    std::free(endpoint->osname);
    destruct_byte_object(&endpoint->endpt);
    std::memset(endpoint, 0, sizeof(*endpoint));
}

pmix_value_cmp_t compare_endpoint(const void *a, const void *b)
{
    auto x = static_cast<const pmix_endpoint_t *>(a);
    auto y = static_cast<const pmix_endpoint_t *>(b);
    FieldComparison cmp;
    cmp.string(x->uuid, y->uuid)
        .string(x->osname, y->osname)
        .bytes(x->endpt.bytes, x->endpt.size, y->endpt.bytes, y->endpt.size);
    return cmp.result();
}

pmix_status_t copy_regattr(void *dest, const void *src)
{
    auto to = static_cast<pmix_regattr_t *>(dest);
    auto from = static_cast<const pmix_regattr_t *>(src);
    std::memcpy(to->string, from->string, sizeof(to->string));
    to->string[PMIX_MAX_KEYLEN] = '\0';
    to->type = from->type;
    if (PMIX_SUCCESS != dup_string(&to->name, from->name) ||
        PMIX_SUCCESS != dup_argv(&to->description, from->description)) {
        return fail_copy(dest, destruct_regattr, PMIX_ERR_NOMEM);
    }
    return PMIX_SUCCESS;
}

void destruct_regattr(void *element)
{
    auto attr = static_cast<pmix_regattr_t *>(element);
    std::free(attr->name);
    free_argv(attr->description);
    std::memset(attr, 0, sizeof(*attr));
}

pmix_value_cmp_t compare_regattr(const void *a, const void *b)
{
    auto x = static_cast<const pmix_regattr_t *>(a);
    auto y = static_cast<const pmix_regattr_t *>(b);
    FieldComparison cmp;
    cmp.string(x->name, y->name).string(x->string, y->string).number(x->type, y->type);
    for (size_t n = 0; cmp.undecided(); ++n) {
        const char *dx = x->description ? x->description[n] : nullptr;
        const char *dy = y->description ? y->description[n] : nullptr;
        if (nullptr == dx && nullptr == dy) {
            break;
        }
        cmp.string(dx, dy);
    }
    return cmp.result();
}

}  // namespace pmixpp::values::ops
