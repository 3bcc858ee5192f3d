#include "client/core/local_credentials.h"

#include <pmix.h>
#include <pmixpp/psec.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/runtime/log.h"
#include "framework/src/selected_modules.h"

namespace pmixpp::client {

namespace {

struct PortableModule {
    std::string name;
    const pmixpp_psec_module_t *module;
};

// PMIX_CRED_TYPE as a list of names; empty when absent. *rc_p is
// PMIX_ERR_BAD_PARAM for a value that is not a string.
std::vector<std::string> requested_types(const pmix_info_t directives[], size_t ndirs, pmix_status_t *rc_p)
{
    std::vector<std::string> types;
    for (size_t i = 0; directives != nullptr && i < ndirs; ++i) {
        if (std::strncmp(directives[i].key, PMIX_CRED_TYPE, PMIX_MAX_KEYLEN) != 0) continue;
        if (directives[i].value.type != PMIX_STRING || directives[i].value.data.string == nullptr) {
            *rc_p = PMIX_ERR_BAD_PARAM;
            return types;
        }
        std::string_view list = directives[i].value.data.string;
        while (!list.empty()) {
            const size_t comma = std::min(list.find(','), list.size());
            if (comma > 0) types.emplace_back(list.substr(0, comma));
            list.remove_prefix(std::min(comma + 1, list.size()));
        }
    }
    return types;
}

// The selected psec modules that offer portable credentials (a component
// built against psec 1.0 does not), in the order the caller asked for.
std::vector<PortableModule> portable_modules(const std::vector<std::string> &types)
{
    std::vector<framework::SelectedModule> selected;
    (void)framework::select("psec", &selected);
    constexpr size_t needed = offsetof(pmixpp_psec_module_t, validate_portable_credential) + sizeof(void *);
    std::vector<PortableModule> usable;
    for (const auto &entry : selected) {
        const auto *module = static_cast<const pmixpp_psec_module_t *>(entry.module);
        if (module == nullptr || module->struct_size < needed || module->create_portable_credential == nullptr ||
            module->validate_portable_credential == nullptr) {
            continue;
        }
        usable.push_back({entry.component, module});
    }
    if (types.empty()) return usable;
    std::vector<PortableModule> ordered;
    for (const std::string &type : types) {
        for (const auto &candidate : usable) {
            if (candidate.name == type) ordered.push_back(candidate);
        }
    }
    return ordered;
}

std::string names_of(const std::vector<PortableModule> &modules)
{
    std::string names;
    for (const auto &m : modules) names += (names.empty() ? "" : ", ") + m.name;
    return names.empty() ? "none" : names;
}

std::string names_of(const std::vector<std::string> &types)
{
    std::string names;
    for (const auto &t : types) names += (names.empty() ? "" : ",") + t;
    return names;
}

// None of the modules the caller may use: say which exist and what to change.
pmix_status_t no_module(const char *call, const std::vector<std::string> &types)
{
    const std::string available = names_of(portable_modules({}));
    if (types.empty()) {
        runtime::log_warning("client", std::string(call) +
                                           ": no psec module makes portable credentials "
                                           "(selected: " +
                                           available + "); check PMIX_MCA_psec");
    } else {
        runtime::log_warning("client", std::string(call) + ": PMIX_CRED_TYPE asks for " + names_of(types) +
                                           " but the psec modules here are: " + available +
                                           " (ask for one of them, or select it with PMIX_MCA_psec)");
    }
    return PMIX_ERR_NOT_SUPPORTED;
}

// PMIX_CRED_TYPE, and for a validation PMIX_USERID and PMIX_GRPID.
pmix_status_t describe_credential(const std::string &type, const uid_t *uid, const gid_t *gid, wire::InfoArray *info_p)
{
    const pmix_status_t rc = info_p->allocate(uid != nullptr ? 3 : 1);
    if (rc != PMIX_SUCCESS) return rc;
    PMIx_Info_load(&(*info_p)[0], PMIX_CRED_TYPE, type.c_str(), PMIX_STRING);
    if (uid == nullptr) return PMIX_SUCCESS;
    const uint32_t uid32 = static_cast<uint32_t>(*uid);
    const uint32_t gid32 = static_cast<uint32_t>(*gid);
    PMIx_Info_load(&(*info_p)[1], PMIX_USERID, &uid32, PMIX_UINT32);
    PMIx_Info_load(&(*info_p)[2], PMIX_GRPID, &gid32, PMIX_UINT32);
    return PMIX_SUCCESS;
}

pmix_status_t refuse_other_user(const std::string &type, uid_t uid, gid_t gid)
{
    runtime::log_warning("client", "PMIx_Validate_credential: the " + type + " credential is of uid " +
                                       std::to_string(uid) + " gid " + std::to_string(gid) +
                                       ", and this process (uid " + std::to_string(geteuid()) + " gid " +
                                       std::to_string(getegid()) +
                                       ") accepts only its own user's credentials; a host that vouches "
                                       "for other users provides validate_credential");
    return PMIX_ERR_INVALID_CRED;
}

pmix_status_t refuse_unknown(size_t size, const std::vector<PortableModule> &tried)
{
    runtime::log_warning("client", "PMIx_Validate_credential: a credential of " + std::to_string(size) +
                                       " bytes is not valid for psec " + names_of(tried) +
                                       " (not made by them, damaged, expired, or a one-time credential "
                                       "validated once already); pass the bytes PMIx_Get_credential "
                                       "returned, unchanged, and validate each credential once");
    return PMIX_ERR_INVALID_CRED;
}

// The modules a call may use, in order; *rc_p says why there are none.
std::vector<PortableModule> modules_for(const char *call, const pmix_info_t directives[], size_t ndirs,
                                        pmix_status_t *rc_p)
{
    const std::vector<std::string> types = requested_types(directives, ndirs, rc_p);
    if (*rc_p != PMIX_SUCCESS) return {};
    std::vector<PortableModule> modules = portable_modules(types);
    if (modules.empty()) *rc_p = no_module(call, types);
    return modules;
}

}  // namespace

void make_local_credential(const pmix_info_t directives[], size_t ndirs, wire::GetCredentialReply *reply_p)
{
    pmix_status_t rc = PMIX_SUCCESS;
    const std::vector<PortableModule> modules = modules_for("PMIx_Get_credential", directives, ndirs, &rc);
    reply_p->status = rc;
    if (rc != PMIX_SUCCESS) return;
    for (const auto &candidate : modules) {
        pmix_byte_object_t credential{nullptr, 0};
        rc = candidate.module->create_portable_credential(&credential);
        if (rc != PMIX_SUCCESS) continue;  // the module logged why (e.g. its daemon is gone)
        const auto *first = reinterpret_cast<const uint8_t *>(credential.bytes);
        reply_p->credential.assign(first, first + credential.size);
        std::free(credential.bytes);
        reply_p->status = describe_credential(candidate.name, nullptr, nullptr, &reply_p->info);
        return;
    }
    reply_p->status = rc;
}

void check_local_credential(const pmix_byte_object_t &credential, const pmix_info_t directives[], size_t ndirs,
                            wire::InfoReply *reply_p)
{
    pmix_status_t rc = PMIX_SUCCESS;
    const std::vector<PortableModule> modules = modules_for("PMIx_Validate_credential", directives, ndirs, &rc);
    reply_p->status = rc;
    if (rc != PMIX_SUCCESS) return;
    for (const auto &candidate : modules) {
        uid_t uid = 0;
        gid_t gid = 0;
        if (candidate.module->validate_portable_credential(&credential, &uid, &gid) != PMIX_SUCCESS) continue;
        if (uid != geteuid() || gid != getegid()) {
            reply_p->status = refuse_other_user(candidate.name, uid, gid);
            return;
        }
        reply_p->status = describe_credential(candidate.name, &uid, &gid, &reply_p->info);
        return;
    }
    reply_p->status = refuse_unknown(credential.size, modules);
}

}  // namespace pmixpp::client
