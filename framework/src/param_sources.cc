#include "param_sources.h"

#include "install_layout.h"
#include "text_file.h"

#include <unistd.h>

#include <cctype>
#include <cstdlib>

extern "C" char **environ;

namespace pmixpp::framework {
namespace {

std::string_view trim(std::string_view text)
{
    const auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
    while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
    return text;
}

std::string_view strip_quotes(std::string_view value)
{
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front()) {
        return value.substr(1, value.size() - 2);
    }
    return value;
}

bool equals_ignoring_case(std::string_view a, std::string_view b)
{
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::toupper(static_cast<unsigned char>(a[i])) != std::toupper(static_cast<unsigned char>(b[i]))) {
            return false;
        }
    }
    return true;
}

void read_file_if_present(const std::string &path, SourceKind kind, SettingMap *settings_p,
                          const std::function<void(const std::string &)> &warn_line)
{
    std::string text;
    if (path.empty() || ::access(path.c_str(), F_OK) != 0) return;  // none there: nothing to say
    if (!read_text_file(path, &text)) {
        warn_line(path + ": cannot be read, or is longer than 1 MiB; its settings are ignored (check the file)");
        return;
    }
    parse_param_file(text, path, kind, settings_p, warn_line);
}

void read_environment(SettingMap *settings_p, const std::function<void(const std::string &)> &warn_line)
{
    for (char **entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        const std::string_view text(*entry);
        const auto equals = text.find('=');
        if (equals == std::string_view::npos || equals < env_prefix.size()) continue;
        const std::string_view name = text.substr(0, equals);
        const std::string_view prefix = name.substr(0, env_prefix.size());
        const std::string_view key = name.substr(env_prefix.size());
        if (prefix == env_prefix) {
            (*settings_p)[std::string(key)] =
                Setting{std::string(text.substr(equals + 1)), SourceKind::environment, {}};
        } else if (equals_ignoring_case(prefix, env_prefix)) {
            // OpenPMIx silently ignores these; a user who typed them meant something.
            warn_line("environment variable " + std::string(name) +
                      " is ignored: the prefix is spelled PMIX_MCA_ (did you mean " + std::string(env_prefix) +
                      std::string(key) + "?)");
        }
    }
}

}  // namespace

std::string describe_source(const Setting &setting)
{
    switch (setting.kind) {
    case SourceKind::environment: return "environment";
    case SourceKind::user_file: return "user file " + setting.path;
    case SourceKind::system_file: return "system file " + setting.path;
    case SourceKind::default_value: break;
    }
    return "default";
}

SourceLocations default_source_locations()
{
    SourceLocations locations;
    // PMIXPP_SYSCONFDIR lets tests point away from the real installation.
    const char *sysconfdir = std::getenv("PMIXPP_SYSCONFDIR");
    locations.system_file =
        sysconfdir != nullptr ? std::string(sysconfdir) + "/" + std::string(param_file_name) : system_param_file();
    const char *home = std::getenv("HOME");
    if (home != nullptr && *home != '\0') locations.user_file = std::string(home) + "/.pmix/mca-params.conf";
    return locations;
}

void parse_param_file(std::string_view text, const std::string &path, SourceKind kind, SettingMap *settings_p,
                      const std::function<void(const std::string &)> &warn_line)
{
    int line_number = 0;
    while (!text.empty()) {
        ++line_number;
        const auto end = text.find('\n');
        std::string_view line = trim(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        if (line.empty() || line.front() == '#') continue;
        const auto equals = line.find('=');
        std::string_view name = trim(line.substr(0, equals));
        if (equals == std::string_view::npos || name.empty()) {
            warn_line(path + ":" + std::to_string(line_number) +
                      ": ignored line, expected `name = value` (e.g. `gds = hash`)");
            continue;
        }
        // Tolerate names copied from the environment with their prefix.
        if (name.starts_with(env_prefix)) name.remove_prefix(env_prefix.size());
        const std::string_view value = strip_quotes(trim(line.substr(equals + 1)));
        (*settings_p)[std::string(name)] = Setting{std::string(value), kind, path};
    }
}

SettingMap load_settings(const SourceLocations &locations, const std::function<void(const std::string &)> &warn_line)
{
    SettingMap settings;
    // Lowest precedence first: each later source overwrites.
    read_file_if_present(locations.system_file, SourceKind::system_file, &settings, warn_line);
    read_file_if_present(locations.user_file, SourceKind::user_file, &settings, warn_line);
    read_environment(&settings, warn_line);
    return settings;
}

}  // namespace pmixpp::framework
