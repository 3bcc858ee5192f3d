#include "common/runtime/tmpdirs.h"

#include <cstdlib>
#include <initializer_list>

namespace pmixpp::runtime {

namespace {

std::string first_set(std::initializer_list<const char *> variables)
{
    for (const char *variable : variables) {
        const char *value = std::getenv(variable);
        if (value != nullptr && *value != '\0') return value;
    }
    return "/tmp";
}

}  // namespace

std::string system_tmpdir_fallback()
{
    return first_set({"PMIX_SYSTEM_TMPDIR", "TMPDIR", "TEMP", "TMP"});
}

std::string server_tmpdir_fallback()
{
    return first_set({"PMIX_SERVER_TMPDIR", "TMPDIR", "TEMP", "TMP"});
}

}  // namespace pmixpp::runtime
