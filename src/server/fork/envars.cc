// Environment directives of a job (see envars.h).
#include "server/fork/envars.h"

#include "server/fork/fork_env.h"

#include <cstring>

namespace pmixpp::server::pnet {
namespace {

struct KeyOp {
    const char *key;
    EnvarOp op;
};
constexpr KeyOp kKeys[] = {
    {PMIX_SET_ENVAR, EnvarOp::set},         {PMIX_ADD_ENVAR, EnvarOp::add},       {PMIX_UNSET_ENVAR, EnvarOp::unset},
    {PMIX_PREPEND_ENVAR, EnvarOp::prepend}, {PMIX_APPEND_ENVAR, EnvarOp::append}, {PMIX_FIRST_ENVAR, EnvarOp::first},
};

std::string_view key_of(const pmix_info_t &info)
{
    return {info.key, strnlen(info.key, sizeof info.key)};
}

bool valid_name(const std::string &name)
{
    return !name.empty() && name.find('=') == std::string::npos;
}

pmix_status_t from_text(const char *text, EnvarDirective *d)
{
    const char *equals = std::strchr(text, '=');
    if (d->op == EnvarOp::unset) {
        d->name.assign(text, equals == nullptr ? std::strlen(text) : static_cast<std::size_t>(equals - text));
        return PMIX_SUCCESS;
    }
    if (equals == nullptr) return PMIX_ERR_BAD_PARAM;
    d->name.assign(text, static_cast<std::size_t>(equals - text));
    d->value = equals + 1;
    return PMIX_SUCCESS;
}

// The entries of a <sep>-separated list, without `drop`.
std::string without(std::string_view list, std::string_view drop, char separator)
{
    std::string rest;
    while (!list.empty()) {
        const std::size_t cut = list.find(separator);
        const std::string_view item = list.substr(0, cut);
        if (item != drop && !item.empty()) rest += (rest.empty() ? "" : std::string(1, separator)) + std::string(item);
        list = cut == std::string_view::npos ? std::string_view() : list.substr(cut + 1);
    }
    return rest;
}

pmix_status_t apply_one(const EnvarDirective &d, char ***env_p)
{
    const char *old = env_get(*env_p, d.name);
    const std::string sep(1, d.separator);
    switch (d.op) {
    case EnvarOp::set: return env_set(env_p, d.name, d.value);
    case EnvarOp::add: return old != nullptr ? PMIX_SUCCESS : env_set(env_p, d.name, d.value);
    case EnvarOp::unset: env_unset(*env_p, d.name); return PMIX_SUCCESS;
    case EnvarOp::prepend:
        return env_set(env_p, d.name, old == nullptr || *old == '\0' ? d.value : d.value + sep + old);
    case EnvarOp::append:
        return env_set(env_p, d.name, old == nullptr || *old == '\0' ? d.value : std::string(old) + sep + d.value);
    case EnvarOp::first: {
        const std::string rest = old == nullptr ? std::string() : without(old, d.value, d.separator);
        return env_set(env_p, d.name, rest.empty() ? d.value : d.value + sep + rest);
    }
    }
    return PMIX_ERR_BAD_PARAM;
}

}  // namespace

bool is_envar_key(std::string_view key)
{
    for (const KeyOp &entry : kKeys) {
        if (key == entry.key) return true;
    }
    return false;
}

pmix_status_t parse_envar(const pmix_info_t &info, EnvarDirective *directive_p, std::string *why_p)
{
    const std::string_view key = key_of(info);
    EnvarDirective d;
    bool known = false;
    for (const KeyOp &entry : kKeys) {
        if (key == entry.key) {
            d.op = entry.op;
            known = true;
        }
    }
    if (!known) return PMIX_ERR_BAD_PARAM;
    pmix_status_t rc = PMIX_SUCCESS;
    if (info.value.type == PMIX_ENVAR && info.value.data.envar.envar != nullptr) {
        const pmix_envar_t &e = info.value.data.envar;
        d.name = e.envar;
        d.value = e.value != nullptr ? e.value : "";
        if (e.separator != '\0') d.separator = e.separator;
    } else if (info.value.type == PMIX_STRING && info.value.data.string != nullptr) {
        rc = from_text(info.value.data.string, &d);
    } else {
        *why_p = std::string(key) + " must be a pmix_envar_t (PMIX_ENVAR) or a \"NAME=value\" string";
        return PMIX_ERR_TYPE_MISMATCH;
    }
    if (rc != PMIX_SUCCESS || !valid_name(d.name)) {
        *why_p = std::string(key) + " names no valid environment variable (give NAME and a value; NAME without '=')";
        return PMIX_ERR_BAD_PARAM;
    }
    *directive_p = std::move(d);
    return PMIX_SUCCESS;
}

pmix_status_t collect_envars(const pmix_info_t info[], std::size_t ninfo, std::vector<EnvarDirective> *out_p,
                             std::string *why_p)
{
    std::vector<EnvarDirective> found;
    for (std::size_t i = 0; info != nullptr && i < ninfo; ++i) {
        const std::string_view key = key_of(info[i]);
        if (key == PMIX_JOB_INFO_ARRAY && info[i].value.type == PMIX_DATA_ARRAY &&
            info[i].value.data.darray != nullptr && info[i].value.data.darray->type == PMIX_INFO) {
            const pmix_data_array_t &array = *info[i].value.data.darray;
            std::vector<EnvarDirective> nested;
            const pmix_status_t rc =
                collect_envars(static_cast<const pmix_info_t *>(array.array), array.size, &nested, why_p);
            if (rc != PMIX_SUCCESS) return rc;
            for (auto &d : nested) found.push_back(std::move(d));
            continue;
        }
        if (!is_envar_key(key)) continue;
        EnvarDirective d;
        const pmix_status_t rc = parse_envar(info[i], &d, why_p);
        if (rc != PMIX_SUCCESS) return rc;
        found.push_back(std::move(d));
    }
    *out_p = std::move(found);
    return PMIX_SUCCESS;
}

pmix_status_t apply_envars(const std::vector<EnvarDirective> &directives, char ***env_p)
{
    for (const EnvarDirective &d : directives) {
        const pmix_status_t rc = apply_one(d, env_p);
        if (rc != PMIX_SUCCESS) return rc;
    }
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::server::pnet
