// Which hwloc plugins pmixrun loads (hwloc_plugins.h).
#include "hwloc_plugins.h"

#include <cstdlib>
#include <cstring>

namespace pmixrun {
namespace {

constexpr const char kVariable[] = "HWLOC_PLUGINS_BLACKLIST";
constexpr const char kUnneeded[] = "hwloc_gl,hwloc_xml_libxml";
bool g_set_here = false;

}  // namespace

void leave_out_unneeded_hwloc_plugins()
{
    if (std::getenv(kVariable) != nullptr) return;  // the user's choice
    g_set_here = ::setenv(kVariable, kUnneeded, 0) == 0;
}

bool own_hwloc_setting(const char *entry)
{
    const std::size_t length = sizeof kVariable - 1;
    return g_set_here && std::strncmp(entry, kVariable, length) == 0 && entry[length] == '=';
}

}  // namespace pmixrun
