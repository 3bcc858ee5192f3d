// Paths of registered cleanup (RFC0027): the comma-delimited lists of the
// PMIX_REGISTER_CLEANUP* / PMIX_CLEANUP_IGNORE values, and the one spelling
// every path is compared in. Purely lexical: links are never resolved (a
// link's target is not ours to judge), so "/a//b/" and "/a/b" are the same
// path but "/link/x" and "/real/x" are not.
#ifndef PMIXPP_SERVER_CLEANUP_PATHS_H
#define PMIXPP_SERVER_CLEANUP_PATHS_H

#include <pmix_common.h>

#include <string>
#include <string_view>
#include <vector>

namespace pmixpp::cleanup {

// The entries of a comma-delimited list, surrounding blanks trimmed, empty
// entries dropped.
std::vector<std::string> split_list(std::string_view list);

// The path with "//" collapsed, "." components and a trailing "/" dropped.
// PMIX_ERR_BAD_PARAM (and *why_p says so) for a path that is not absolute
// (the server's working directory is not the client's), that has a ".."
// component (where it leads depends on links), or that is "/" itself.
pmix_status_t normalize_path(std::string_view path, std::string *normal_p, std::string *why_p);

}  // namespace pmixpp::cleanup

#endif
