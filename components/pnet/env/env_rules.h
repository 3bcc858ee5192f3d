// pnet/env: the site's rules, read from the component's parameters once.
// Each is a comma-separated list:
//   forward  name patterns (fnmatch: UCX_*, FI_PROVIDER); matching variables
//            of the environment of the process calling setup_application
//            (the launcher on the head node) are set in every job
//   set      NAME=value items, set in every job
//   prepend  NAME=value items, prepended with ':' (PATH-like lists)
//   append   NAME=value items, appended with ':'
//   unset    name patterns removed from every child's environment at fork
// A value cannot contain a comma. A malformed item is named in one line and
// skipped; the others apply.
#ifndef PMIXPP_PNET_ENV_RULES_H
#define PMIXPP_PNET_ENV_RULES_H

#include <string>
#include <utility>
#include <vector>

namespace pnet_env {

struct Rules {
    std::vector<std::string> forward;
    std::vector<std::pair<std::string, std::string>> set, prepend, append;
    std::vector<std::string> unset;

    bool empty() const { return forward.empty() && set.empty() && prepend.empty() && append.empty() && unset.empty(); }
};

// The items of a comma-separated list, blanks trimmed, empty ones dropped.
std::vector<std::string> split_list(const std::string &text);
// "NAME=value" -> (NAME, value); false for an item without '=' or NAME.
bool split_assignment(const std::string &item, std::pair<std::string, std::string> *out_p);
// True when `name` matches one of the patterns.
bool matches_any(const std::vector<std::string> &patterns, const char *name);

}  // namespace pnet_env

#endif
