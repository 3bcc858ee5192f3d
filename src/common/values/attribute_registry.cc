// The per-function registry behind PMIx_Register_attributes.
#include "common/values/attribute_registry.h"

#include <map>
#include <mutex>
#include <new>

#include <pmix_server.h>

#include "common/values/attribute_dictionary.h"
#include "common/values/type_ops.h"
#include "common/values/value_ops.h"

namespace pmixpp::values {
namespace {

struct Registry {
    std::mutex mutex;
    std::map<std::string, std::vector<RegisteredAttribute>> by_function;
};

// Created on first use and never destroyed, so nothing runs at load time and
// no thread can see it torn down during exit.
Registry *registry()
{
    static Registry *const instance = new (std::nothrow) Registry;
    return instance;
}

RegisteredAttribute describe(const char *attr)
{
    const AttributeEntry *entry = find_attribute_by_key(attr);
    if (nullptr == entry) {
        entry = find_attribute_by_name(attr);
    }
    if (nullptr == entry) {
        return RegisteredAttribute{attr, attr, PMIX_UNDEF};
    }
    return RegisteredAttribute{entry->name, entry->key, entry->type};
}

}  // namespace

pmix_status_t register_attributes(const char *function, char *const attrs[])
{
    Registry *reg = registry();
    if (nullptr == function || nullptr == attrs || '\0' == function[0]) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (nullptr == reg) {
        return PMIX_ERR_NOMEM;
    }
    try {
        std::vector<RegisteredAttribute> described;
        for (size_t n = 0; nullptr != attrs[n]; ++n) {
            described.push_back(describe(attrs[n]));
        }
        std::lock_guard<std::mutex> lock(reg->mutex);
        auto [it, inserted] = reg->by_function.try_emplace(function, std::move(described));
        (void)it;
        return inserted ? PMIX_SUCCESS : PMIX_ERR_REPEAT_ATTR_REGISTRATION;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t registered_attributes(const char *function, std::vector<RegisteredAttribute> *attrs_p)
{
    Registry *reg = registry();
    if (nullptr == function || nullptr == attrs_p) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (nullptr == reg) {
        return PMIX_ERR_NOT_FOUND;
    }
    try {
        std::lock_guard<std::mutex> lock(reg->mutex);
        auto it = reg->by_function.find(function);
        if (it == reg->by_function.end()) {
            return PMIX_ERR_NOT_FOUND;
        }
        *attrs_p = it->second;
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

std::vector<std::string> registered_functions()
{
    std::vector<std::string> names;
    Registry *reg = registry();
    if (nullptr == reg) {
        return names;
    }
    try {
        std::lock_guard<std::mutex> lock(reg->mutex);
        for (const auto &entry : reg->by_function) {
            names.push_back(entry.first);
        }
    } catch (const std::bad_alloc &) {
        names.clear();
    }
    return names;
}

pmix_status_t registered_attributes_as_regattr(const char *function, pmix_regattr_t **attrs_p, size_t *count_p)
{
    if (nullptr == attrs_p || nullptr == count_p) {
        return PMIX_ERR_BAD_PARAM;
    }
    std::vector<RegisteredAttribute> attrs;
    pmix_status_t rc = registered_attributes(function, &attrs);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    auto array = static_cast<pmix_regattr_t *>(alloc_elements(PMIX_REGATTR, attrs.size()));
    if (nullptr == array && !attrs.empty()) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t n = 0; n < attrs.size(); ++n) {
        array[n].name = strdup(attrs[n].name.c_str());
        if (nullptr == array[n].name) {
            free_elements(array, attrs.size(), PMIX_REGATTR);
            return PMIX_ERR_NOMEM;
        }
        load_key(array[n].string, attrs[n].key.c_str());
        array[n].type = attrs[n].type;
    }
    *attrs_p = array;
    *count_p = attrs.size();
    return PMIX_SUCCESS;
}

void clear_registered_attributes()
{
    Registry *reg = registry();
    if (nullptr == reg) {
        return;
    }
    std::lock_guard<std::mutex> lock(reg->mutex);
    reg->by_function.clear();
}

}  // namespace pmixpp::values

extern "C" PMIX_EXPORT pmix_status_t PMIx_Register_attributes(char *function, char *attrs[])
{
    return pmixpp::values::register_attributes(function, attrs);
}
