#include "setting_names.h"

#include "diagnostics.h"
#include "framework_table.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace pmixpp::framework {
namespace {

// Frameworks of OpenPMIx 4.2 that pmixpp does not have.
constexpr std::array<std::string_view, 15> openpmix_only_frameworks{
    "bfrops", "pcompress", "pfexec",  "pgpu",   "pif",     "pinstalldirs", "plog", "pmdl",
    "preg",   "prm",       "psensor", "pshmem", "psquash", "pstat",        "pstrg"};

bool names_or_prefixes(std::string_view key, std::string_view word)
{
    return key == word || (key.starts_with(word) && key.size() > word.size() && key[word.size()] == '_');
}

std::string lowercase(std::string_view text)
{
    std::string lower(text);
    std::ranges::transform(lower, lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lower;
}

std::string_view trim(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
    return text;
}

std::string setting_origin(const std::string &key, const Setting &setting)
{
    return std::string(env_prefix) + key + "=" + setting.value + " (" + describe_source(setting) + ")";
}

// "PMIX_MCA_GDS" -> " (did you mean PMIX_MCA_gds?)"
std::string case_hint(std::string_view key)
{
    const std::string lower = lowercase(key);
    if (lower == key) return {};
    for (const auto &framework : all_frameworks()) {
        if (names_or_prefixes(lower, framework.name)) {
            return " (did you mean " + std::string(env_prefix) + lower + "?)";
        }
    }
    return {};
}

}  // namespace

std::string join(const std::vector<std::string> &names)
{
    if (names.empty()) return "none";
    std::string text;
    for (const auto &name : names) {
        if (!text.empty()) text += ", ";
        text += name;
    }
    return text;
}

void warn_unknown_frameworks(const SettingMap &settings)
{
    for (const auto &[key, setting] : settings) {
        // Named, not the binding itself: clang before 16 cannot capture a structured binding.
        const std::string &name = key;
        const auto known = [&](std::string_view word) { return names_or_prefixes(name, word); };
        if (std::ranges::any_of(all_frameworks(), [&](const auto &fw) { return known(fw.name); })) continue;
        if (key.starts_with("mca_base_")) continue;
        // The library's own parameters (PMIX_MCA_pmix_verbose,
        // PMIX_MCA_pmix_client_finalize_timeout, ...) name no framework.
        if (key.starts_with("pmix_")) continue;
        if (std::ranges::any_of(openpmix_only_frameworks, known)) continue;
        warn(setting_origin(key, setting) + " names no framework of pmixpp" + case_hint(key) +
             "; valid frameworks: " + framework_names());
    }
}

void warn_unknown_components(std::string_view framework, const SettingMap &settings,
                             const std::vector<std::string> &component_names)
{
    const std::string prefix = std::string(framework) + "_";
    for (const auto &[key, setting] : settings) {
        if (!key.starts_with(prefix)) continue;
        const std::string_view rest = std::string_view(key).substr(prefix.size());
        if (rest == "verbose" || names_or_prefixes(rest, "base")) continue;
        const auto names_component = [&](const std::string &name) { return rest.starts_with(name + "_"); };
        if (std::ranges::any_of(component_names, names_component)) continue;
        warn(setting_origin(key, setting) + " names no " + std::string(framework) +
             " component; available: " + join(component_names));
    }
}

bool ComponentFilter::admits(std::string_view name) const
{
    const bool listed = std::ranges::find(names, name) != names.end();
    switch (mode) {
    case Mode::include: return listed;
    case Mode::exclude: return !listed;
    case Mode::all: break;
    }
    return true;
}

pmix_status_t parse_component_filter(std::string_view value, ComponentFilter *filter_p, std::string *error_p)
{
    ComponentFilter filter;
    std::string_view rest = trim(value);
    if (rest.empty()) {
        *filter_p = filter;
        return PMIX_SUCCESS;
    }
    filter.mode = ComponentFilter::Mode::include;
    if (rest.front() == '^') {
        filter.mode = ComponentFilter::Mode::exclude;
        rest.remove_prefix(1);
    }
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string_view name = trim(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
        if (name.empty()) continue;
        if (name.front() == '^') {
            *error_p = "mixes included and excluded components; use either a,b (only these) or ^a,b "
                       "(all but these)";
            return PMIX_ERR_BAD_PARAM;
        }
        filter.names.emplace_back(name);
    }
    *filter_p = std::move(filter);
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::framework
