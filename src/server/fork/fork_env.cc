#include "server/fork/fork_env.h"

#include <pmix_version.h>

#include <cstdlib>
#include <cstring>

namespace pmixpp::server {

namespace {

std::string joined(const std::vector<std::string> &items, const char *separator)
{
    std::string text;
    for (const auto &item : items) text += (text.empty() ? "" : separator) + item;
    return text;
}

std::vector<std::string> component_names(const std::vector<framework::SelectedModule> &modules)
{
    std::vector<std::string> names;
    for (const auto &module : modules) names.push_back(module.component);
    return names;
}

std::vector<std::string> listening_transports(const Server &server)
{
    std::vector<std::string> names;
    for (const auto &listener : server.listeners) {
        bool seen = false;
        for (const auto &name : names) seen = seen || name == listener.component;
        if (!seen) names.push_back(listener.component);
    }
    return names;
}

std::string version_text()
{
    return std::to_string(PMIX_VERSION_MAJOR) + "." + std::to_string(PMIX_VERSION_MINOR) + "." +
           std::to_string(PMIX_VERSION_RELEASE);
}

}  // namespace

EnvList fork_environment(const Server &server)
{
    const Config &config = server.config;
    EnvList env;
    env.emplace_back("PMIX_SERVER_NSPACE", config.nspace);
    env.emplace_back("PMIX_SERVER_RANK", std::to_string(config.rank));
    const std::vector<std::string> uris = server.uris();
    if (!uris.empty()) env.emplace_back("PMIXPP_SERVER_URIS", joined(uris, ";"));
    // OpenPMIx's clients read these (common/openpmix/, docs/compat.md): its
    // tcp URI, gds/hash (the job data goes to them in its layout), its
    // default buffer type. Ours read the PMIXPP_ names first.
    const std::string contact = server.openpmix_contact();
    if (!contact.empty()) {
        for (const char *name :
             {"PMIX_SERVER_URI41", "PMIX_SERVER_URI4", "PMIX_SERVER_URI3", "PMIX_SERVER_URI2", "PMIX_SERVER_URI21"}) {
            env.emplace_back(name, contact);
        }
    }
    env.emplace_back("PMIX_SECURITY_MODE", joined(component_names(server.psec_modules), ","));
    env.emplace_back("PMIXPP_GDS_MODULE", server.store->module_name());
    env.emplace_back("PMIX_GDS_MODULE", "hash");
    env.emplace_back("PMIX_BFROP_BUFFER_TYPE", "PMIX_BFROP_BUFFER_NON_DESC");
    env.emplace_back("PMIX_PTL_MODULE", joined(listening_transports(server), ","));
    env.emplace_back("PMIX_SERVER_TMPDIR", config.server_tmpdir);
    env.emplace_back("PMIX_SYSTEM_TMPDIR", config.system_tmpdir);
    env.emplace_back("PMIX_VERSION", version_text());
    // Where our components are: a child whose library finds none beside
    // itself looks there (framework/src/repository.h).
    const std::string components = framework::selected_component_path();
    if (!components.empty()) env.emplace_back(framework::server_component_path_variable, components);
    return env;
}

EnvList child_environment(const pmix_proc_t &proc, const std::string &hostname)
{
    return {{"PMIX_NAMESPACE", std::string(proc.nspace, strnlen(proc.nspace, PMIX_MAX_NSLEN))},
            {"PMIX_RANK", std::to_string(proc.rank)},
            {"PMIX_HOSTNAME", hostname}};
}

pmix_status_t env_set(char ***env_p, const std::string &name, const std::string &value)
{
    const std::string entry = name + "=" + value;
    char *copy = strdup(entry.c_str());
    if (copy == nullptr) return PMIX_ERR_NOMEM;
    char **env = *env_p;
    std::size_t count = 0;
    for (; env != nullptr && env[count] != nullptr; ++count) {
        if (std::strncmp(env[count], entry.c_str(), name.size() + 1) == 0) {
            std::free(env[count]);
            env[count] = copy;
            return PMIX_SUCCESS;
        }
    }
    auto **grown = static_cast<char **>(std::realloc(env, (count + 2) * sizeof(char *)));
    if (grown == nullptr) {
        std::free(copy);
        return PMIX_ERR_NOMEM;
    }
    grown[count] = copy;
    grown[count + 1] = nullptr;
    *env_p = grown;
    return PMIX_SUCCESS;
}

const char *env_get(char *const *env, const std::string &name)
{
    for (std::size_t i = 0; env != nullptr && env[i] != nullptr; ++i) {
        if (std::strncmp(env[i], name.c_str(), name.size()) == 0 && env[i][name.size()] == '=') {
            return env[i] + name.size() + 1;
        }
    }
    return nullptr;
}

void env_unset(char **env, const std::string &name)
{
    std::size_t out = 0;
    for (std::size_t i = 0; env != nullptr && env[i] != nullptr; ++i) {
        if (std::strncmp(env[i], name.c_str(), name.size()) == 0 && env[i][name.size()] == '=') {
            std::free(env[i]);
            continue;
        }
        env[out++] = env[i];
    }
    if (env != nullptr) env[out] = nullptr;
}

}  // namespace pmixpp::server
