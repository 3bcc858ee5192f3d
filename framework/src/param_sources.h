// Where parameter values come from: the environment (PMIX_MCA_<name>), the
// user file ~/.pmix/mca-params.conf and the system file
// <prefix>/etc/pmixpp-mca-params.conf. Precedence: environment > user file >
// system file > the parameter's default.
#ifndef PMIXPP_FRAMEWORK_PARAM_SOURCES_H
#define PMIXPP_FRAMEWORK_PARAM_SOURCES_H

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace pmixpp::framework {

inline constexpr std::string_view env_prefix = "PMIX_MCA_";
inline constexpr std::string_view param_file_name = "pmixpp-mca-params.conf";

enum class SourceKind { default_value, system_file, user_file, environment };

struct Setting {
    std::string value;
    SourceKind kind = SourceKind::default_value;
    std::string path;  // file the value came from, empty otherwise
};

// "default", "environment", "user file <path>", "system file <path>"
std::string describe_source(const Setting &setting);

// Name -> winning setting; names are without the PMIX_MCA_ prefix.
using SettingMap = std::map<std::string, Setting, std::less<>>;

struct SourceLocations {
    std::string system_file;  // empty: no system file
    std::string user_file;    // empty: no user file
};

// System file: $PMIXPP_SYSCONFDIR/pmixpp-mca-params.conf (internal, for tests)
// or <prefix>/etc/... of the installation the core was loaded from (see
// install_layout.h). User file: $HOME/.pmix/mca-params.conf.
SourceLocations default_source_locations();

// Parses one param file's text. Malformed lines are reported through `warn_line`
// as "<path>:<line>: ..." and skipped.
void parse_param_file(std::string_view text, const std::string &path, SourceKind kind, SettingMap *settings_p,
                      const std::function<void(const std::string &)> &warn_line);

// Reads the files (missing files are fine) then the environment. The
// environment's mis-cased prefixes (PMIx_MCA_, pmix_mca_) are reported, not used.
SettingMap load_settings(const SourceLocations &locations, const std::function<void(const std::string &)> &warn_line);

}  // namespace pmixpp::framework

#endif
