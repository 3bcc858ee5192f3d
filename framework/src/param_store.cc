#include "param_store.h"

#include "diagnostics.h"

#include <pmixpp/util.hpp>

#include <cerrno>
#include <cstdlib>

namespace pmixpp::framework {
namespace {

bool value_fits_type(pmixpp_param_type_t type, std::string_view value)
{
    long long number = 0;
    bool flag = false;
    switch (type) {
    case PMIXPP_PARAM_INT: return parse_int(value, &number);
    case PMIXPP_PARAM_BOOL: return parse_bool(value, &flag);
    case PMIXPP_PARAM_STRING: break;
    }
    return true;
}

}  // namespace

bool parse_int(std::string_view text, long long *value_p)
{
    const std::string copy(text);
    if (copy.empty()) return false;
    char *end = nullptr;
    errno = 0;
    const long long value = std::strtoll(copy.c_str(), &end, 0);
    if (errno != 0 || end == copy.c_str() || *end != '\0') return false;
    *value_p = value;
    return true;
}

// The SDK's words (pmixpp/util.hpp), so a param file says "on" to the core
// as it does to a component reading its own settings.
bool parse_bool(std::string_view text, bool *value_p)
{
    return util::parse_bool(text, value_p) == PMIX_SUCCESS;
}

void ParamStore::reset(SettingMap settings)
{
    std::lock_guard lock(mutex_);
    settings_ = std::move(settings);
    params_.clear();
    components_.clear();
}

std::optional<Setting> ParamStore::setting(std::string_view key) const
{
    std::lock_guard lock(mutex_);
    const auto found = settings_.find(key);
    if (found == settings_.end()) return std::nullopt;
    return found->second;
}

SettingMap ParamStore::settings() const
{
    std::lock_guard lock(mutex_);
    return settings_;
}

pmix_status_t ParamStore::declare(const ParamDeclaration &declaration)
{
    if (declaration.key.empty()) return PMIX_ERR_BAD_PARAM;
    std::lock_guard lock(mutex_);
    Param param{declaration, declaration.default_value, Setting{}};
    const auto found = settings_.find(declaration.key);
    if (found != settings_.end()) {
        if (value_fits_type(declaration.type, found->second.value)) {
            param.value = found->second.value;
            param.source = found->second;
        } else {
            warn("PMIX_MCA_" + declaration.key + "=" + found->second.value + " (from " +
                 describe_source(found->second) + ") is not a valid " +
                 (declaration.type == PMIXPP_PARAM_INT ? "integer" : "boolean") + "; using the default " +
                 declaration.default_value);
        }
    }
    // Assign in place when re-declared so earlier value() pointers stay valid.
    auto [slot, inserted] = params_.try_emplace(declaration.key, param);
    if (!inserted) slot->second = std::move(param);
    return PMIX_SUCCESS;
}

const char *ParamStore::value(std::string_view key) const
{
    std::lock_guard lock(mutex_);
    const auto found = params_.find(key);
    return found == params_.end() ? nullptr : found->second.value.c_str();
}

int ParamStore::verbosity(std::string_view framework) const
{
    std::string key(framework);
    key += "_verbose";
    std::lock_guard lock(mutex_);
    const auto found = settings_.find(key);
    long long level = 0;
    if (found == settings_.end() || !parse_int(found->second.value, &level)) return 0;
    return static_cast<int>(std::clamp(level, 0LL, 100LL));
}

std::vector<ParamReport> ParamStore::report(std::string_view framework) const
{
    std::lock_guard lock(mutex_);
    std::vector<ParamReport> reports;
    for (const auto &[key, param] : params_) {
        if (param.declaration.framework != framework) continue;
        reports.push_back(ParamReport{std::string(env_prefix) + key, param.value, describe_source(param.source),
                                      param.declaration.help});
    }
    return reports;
}

void ParamStore::add_component(const pmixpp_component_t *descriptor, std::string framework, std::string name)
{
    std::lock_guard lock(mutex_);
    components_[descriptor] = {std::move(framework), std::move(name)};
}

void ParamStore::remove_component(const pmixpp_component_t *descriptor)
{
    std::lock_guard lock(mutex_);
    components_.erase(descriptor);
}

bool ParamStore::identify(const pmixpp_component_t *descriptor, std::string *framework_p, std::string *name_p) const
{
    std::lock_guard lock(mutex_);
    const auto found = components_.find(descriptor);
    if (found == components_.end()) return false;
    *framework_p = found->second.first;
    *name_p = found->second.second;
    return true;
}

ParamStore &param_store()
{
    // Function-local: built on first use (thread-safe), never at load time.
    static ParamStore *store = new ParamStore;
    return *store;
}

}  // namespace pmixpp::framework
