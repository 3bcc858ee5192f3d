// pnet/env: the site's environment rules for every job (env_rules.h). At
// setup_application the forwarded, set, prepended and appended variables
// become the job's envar directives; at setup_fork the unset patterns are
// removed from each child's environment (after the job's directives).
#include "env_rules.h"

#include <pmixpp/component.hpp>
#include <pmixpp/pnet.h>

#include <pmix.h>

#include <cstdlib>
#include <cstring>

extern char **environ;

namespace {

pnet_env::Rules rules;  // read at open

pmix_status_t add_envar(void *ilist, const char *key, const std::string &name, const std::string &value)
{
    pmix_envar_t envar;
    envar.envar = const_cast<char *>(name.c_str());
    envar.value = const_cast<char *>(value.c_str());
    envar.separator = ':';
    return PMIx_Info_list_add(ilist, key, &envar, PMIX_ENVAR);
}

pmix_status_t forward_matching(void *ilist)
{
    for (char **entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        const char *equals = std::strchr(*entry, '=');
        if (equals == nullptr) continue;
        const std::string name(*entry, static_cast<std::size_t>(equals - *entry));
        if (!pnet_env::matches_any(rules.forward, name.c_str())) continue;
        const pmix_status_t rc = add_envar(ilist, PMIX_SET_ENVAR, name, equals + 1);
        if (rc != PMIX_SUCCESS) return rc;
    }
    return PMIX_SUCCESS;
}

pmix_status_t setup_application(const char *, const pmix_info_t[], size_t, void *ilist, pmixpp_pnet_done_fn, void *)
{
    if (ilist == nullptr) return PMIX_ERR_BAD_PARAM;
    pmix_status_t rc = forward_matching(ilist);
    for (const auto &[name, value] : rules.set) {
        if (rc == PMIX_SUCCESS) rc = add_envar(ilist, PMIX_SET_ENVAR, name, value);
    }
    for (const auto &[name, value] : rules.prepend) {
        if (rc == PMIX_SUCCESS) rc = add_envar(ilist, PMIX_PREPEND_ENVAR, name, value);
    }
    for (const auto &[name, value] : rules.append) {
        if (rc == PMIX_SUCCESS) rc = add_envar(ilist, PMIX_APPEND_ENVAR, name, value);
    }
    return rc == PMIX_SUCCESS ? PMIX_OPERATION_SUCCEEDED : rc;
}

pmix_status_t setup_fork(const pmix_proc_t *, char ***env_p)
{
    if (rules.unset.empty() || env_p == nullptr || *env_p == nullptr) return PMIX_SUCCESS;
    char **env = *env_p;
    std::size_t out = 0;
    for (std::size_t i = 0; env[i] != nullptr; ++i) {
        const char *equals = std::strchr(env[i], '=');
        const std::string name(env[i],
                               equals == nullptr ? std::strlen(env[i]) : static_cast<std::size_t>(equals - env[i]));
        if (pnet_env::matches_any(rules.unset, name.c_str())) {
            std::free(env[i]);
            continue;
        }
        env[out++] = env[i];
    }
    env[out] = nullptr;
    return PMIX_SUCCESS;
}

constexpr pmixpp_pnet_module_t env_module = {
    .struct_size = sizeof(pmixpp_pnet_module_t),
    .setup_application = setup_application,
    .setup_local_support = nullptr,
    .setup_fork = setup_fork,
    .child_finalized = nullptr,
    .local_app_finalized = nullptr,
    .deregister_nspace = nullptr,
    .collect_inventory = nullptr,
    .deliver_inventory = nullptr,
    .register_fabric = nullptr,
    .update_fabric = nullptr,
    .deregister_fabric = nullptr,
};

void read_assignments(pmixpp::sdk::Services &services, const char *param,
                      std::vector<std::pair<std::string, std::string>> &out)
{
    for (const std::string &item : pnet_env::split_list(services.param_string(param))) {
        std::pair<std::string, std::string> assignment;
        if (pnet_env::split_assignment(item, &assignment)) {
            out.push_back(std::move(assignment));
        } else {
            services.log(PMIXPP_LOG_WARN, "PMIX_MCA_pnet_env_%s: '%s' is not NAME=value; skipped", param, item.c_str());
        }
    }
}

}  // namespace

struct EnvNet {
    static constexpr const char *version = "1.0.0";
    static constexpr int priority = 20;
    static constexpr uint16_t framework_major = PMIXPP_PNET_API_MAJOR;
    static constexpr uint16_t framework_minor = PMIXPP_PNET_API_MINOR;

    static void register_params(pmixpp::sdk::Services &services)
    {
        services.register_param("forward", PMIXPP_PARAM_STRING, "",
                                "name patterns (UCX_*,FI_PROVIDER) of the launcher's variables every job gets");
        services.register_param("set", PMIXPP_PARAM_STRING, "", "NAME=value items every job gets");
        services.register_param("prepend", PMIXPP_PARAM_STRING, "", "NAME=value items prepended with ':'");
        services.register_param("append", PMIXPP_PARAM_STRING, "", "NAME=value items appended with ':'");
        services.register_param("unset", PMIXPP_PARAM_STRING, "", "name patterns removed from every child");
    }

    static void open(pmixpp::sdk::Services &services)
    {
        rules = pnet_env::Rules{};
        rules.forward = pnet_env::split_list(services.param_string("forward"));
        rules.unset = pnet_env::split_list(services.param_string("unset"));
        read_assignments(services, "set", rules.set);
        read_assignments(services, "prepend", rules.prepend);
        read_assignments(services, "append", rules.append);
    }

    // No rule: nothing to do, so stay out of the way.
    static const void *query(pmixpp::sdk::Services &, int &) { return rules.empty() ? nullptr : &env_module; }

    static void close() { rules = pnet_env::Rules{}; }
};

PMIXPP_CXX_COMPONENT(pnet, env, EnvNet)
