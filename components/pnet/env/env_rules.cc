#include "env_rules.h"

#include <fnmatch.h>

namespace pnet_env {

std::vector<std::string> split_list(const std::string &text)
{
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        if (comma == std::string::npos) comma = text.size();
        std::string item = text.substr(start, comma - start);
        const std::size_t first = item.find_first_not_of(" \t");
        const std::size_t last = item.find_last_not_of(" \t");
        if (first != std::string::npos) items.push_back(item.substr(first, last - first + 1));
        start = comma + 1;
    }
    return items;
}

bool split_assignment(const std::string &item, std::pair<std::string, std::string> *out_p)
{
    const std::size_t equals = item.find('=');
    if (equals == std::string::npos || equals == 0) return false;
    *out_p = {item.substr(0, equals), item.substr(equals + 1)};
    return true;
}

bool matches_any(const std::vector<std::string> &patterns, const char *name)
{
    for (const std::string &pattern : patterns) {
        if (::fnmatch(pattern.c_str(), name, 0) == 0) return true;
    }
    return false;
}

}  // namespace pnet_env
