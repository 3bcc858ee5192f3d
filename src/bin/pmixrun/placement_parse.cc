// Reading mpirun's --map-by and --bind-to values (and a spawn's PMIX_MAPBY
// and PMIX_BINDTO, which Open MPI fills from the same words): levels and
// modifiers in any case, as mpirun takes them.
#include "placement.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>

namespace pmixrun {
namespace {

const std::map<std::string, Level> &level_names()
{
    static const std::map<std::string, Level> names = {
        {"hwthread", Level::hwthread}, {"core", Level::core},       {"l3cache", Level::l3cache},
        {"numa", Level::numa},         {"package", Level::package}, {"socket", Level::package},
    };
    return names;
}

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

// The words between ':' or ',' separators.
std::vector<std::string> split_modifiers(const std::string &text)
{
    std::vector<std::string> words;
    std::size_t start = 0;
    for (std::size_t end; (end = text.find_first_of(":,", start)) != std::string::npos; start = end + 1) {
        words.push_back(text.substr(start, end - start));
    }
    words.push_back(text.substr(start));
    return words;
}

// What may follow a mapping after ':': PE=n (cpus per rank), DISPLAY (the
// bindings are reported), OVERSUBSCRIBE and SPAN (nothing to change on one
// node) and NOOVERSUBSCRIBE (oversubscription is refused).
bool parse_modifiers(const std::string &text, const std::string &modifiers, PlacementOptions *options_p,
                     std::string *error_p)
{
    for (const std::string &word : split_modifiers(modifiers)) {
        const std::string modifier = lower(word);
        if (modifier == "oversubscribe" || modifier == "span") continue;
        if (modifier == "nooversubscribe") {
            options_p->refuse_oversubscription = true;
        } else if (modifier == "display") {
            options_p->report = true;
        } else if (modifier.rfind("pe=", 0) == 0) {
            char *stop = nullptr;
            const unsigned long pe = std::strtoul(modifier.c_str() + 3, &stop, 10);
            if (pe == 0 || pe > 65536 || *stop != '\0') {
                *error_p = "--map-by " + text + ": PE=n takes a count of cpus per rank, 1 to 65536";
                return false;
            }
            options_p->cpus_per_rank = static_cast<uint32_t>(pe);
        } else {
            *error_p = "--map-by " + text +
                       ": modifiers are PE=n, DISPLAY, OVERSUBSCRIBE, NOOVERSUBSCRIBE and SPAN, not '" + word + "'";
            return false;
        }
    }
    return true;
}

// A level of --map-by: mpirun's names, "slot" (in order, by core) and
// "node" (this one node: in order too).
bool map_level(const std::string &name, Level *level_p)
{
    const std::string word = lower(name);
    if (word == "slot") {
        *level_p = Level::core;
        return true;
    }
    if (word == "node") {
        *level_p = Level::node;
        return true;
    }
    const auto found = level_names().find(word);
    if (found == level_names().end()) return false;
    *level_p = found->second;
    return true;
}

bool parse_ppr(const std::string &text, PlacementOptions *options_p, std::string *error_p)
{
    // ppr:N:level[:modifiers]
    const std::string usage = "--map-by " + text +
                              ": ppr:N:LEVEL puts N ranks on each hwthread, core, l3cache, numa, package or node "
                              "(N >= 1, then :PE=n if wanted)";
    const std::size_t second = text.find(':', 4);
    char *end = nullptr;
    const unsigned long n = std::strtoul(text.c_str() + 4, &end, 10);
    if (second == std::string::npos || n == 0 || n > 65536 || end != text.c_str() + second) {
        *error_p = usage;
        return false;
    }
    const std::size_t third = text.find(':', second + 1);
    const std::string name =
        text.substr(second + 1, third == std::string::npos ? std::string::npos : third - second - 1);
    Level level = Level::core;
    if (lower(name) == "slot" || !map_level(name, &level)) {
        *error_p = usage;
        return false;
    }
    options_p->map_by = level;
    options_p->per_object = static_cast<uint32_t>(n);
    return third == std::string::npos || parse_modifiers(text, text.substr(third + 1), options_p, error_p);
}

}  // namespace

bool parse_map_by(const std::string &text, PlacementOptions *options_p, std::string *error_p)
{
    if (lower(text.substr(0, 4)) == "ppr:") return parse_ppr(text, options_p, error_p);
    const std::size_t colon = text.find(':');
    Level level = Level::core;
    if (!map_level(text.substr(0, colon), &level)) {
        *error_p = "--map-by " + text +
                   ": map by slot, hwthread, core, l3cache, numa, package or node (with :PE=n), or ppr:N:LEVEL";
        return false;
    }
    options_p->map_by = level;
    return colon == std::string::npos || parse_modifiers(text, text.substr(colon + 1), options_p, error_p);
}

bool parse_bind_to(const std::string &text, PlacementOptions *options_p, std::string *error_p)
{
    // mpirun's qualifiers change nothing here: overload-allowed (pmixrun
    // never refuses to stack, it runs unbound) and if-supported.
    const std::size_t colon = text.find(':');
    for (const std::string &word : split_modifiers(colon == std::string::npos ? "" : text.substr(colon + 1))) {
        const std::string qualifier = lower(word);
        if (qualifier.empty() || qualifier == "overload-allowed" || qualifier == "if-supported") continue;
        *error_p = "--bind-to " + text + ": the qualifiers are overload-allowed and if-supported, not '" + word + "'";
        return false;
    }
    const std::string name = lower(text.substr(0, colon));
    if (name == "none") {
        options_p->bind_none = true;
        return true;
    }
    const auto found = level_names().find(name);
    if (found == level_names().end()) {
        *error_p = "--bind-to " + text + ": bind to none, hwthread, core, l3cache, numa or package";
        return false;
    }
    options_p->bind_to = found->second;
    return true;
}

}  // namespace pmixrun
