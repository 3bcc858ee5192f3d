#include "server/cleanup/rules.h"

#include "server/cleanup/paths.h"
#include "server/state/info_read.h"

#include <pmixpp/util.hpp>

#include <algorithm>

namespace pmixpp::cleanup {

namespace {

using util::key_is;

// Appends the normalized entries of one list value to *paths_p.
pmix_status_t add_list(const pmix_info_t &info, std::vector<std::string> *paths_p, std::string *why_p)
{
    std::string list;
    if (server::read_string(info.value, &list) != PMIX_SUCCESS) {
        *why_p = std::string(info.key) + " must be a string (a comma-delimited list of absolute paths)";
        return PMIX_ERR_BAD_PARAM;
    }
    for (const std::string &entry : split_list(list)) {
        std::string normal;
        const pmix_status_t rc = normalize_path(entry, &normal, why_p);
        if (rc != PMIX_SUCCESS) {
            *why_p = std::string(info.key) + ": " + *why_p;
            return rc;
        }
        paths_p->push_back(std::move(normal));
    }
    return PMIX_SUCCESS;
}

pmix_status_t read_flag(const pmix_info_t &info, bool *flag_p, std::string *why_p)
{
    if (server::read_bool(info.value, flag_p) == PMIX_SUCCESS) return PMIX_SUCCESS;
    *why_p = std::string(info.key) + " must be a bool";
    return PMIX_ERR_BAD_PARAM;
}

pmix_status_t read_directive(const pmix_info_t &info, Registration &reg, std::string *why_p)
{
    if (key_is(info, PMIX_REGISTER_CLEANUP)) return add_list(info, &reg.files, why_p);
    if (key_is(info, PMIX_REGISTER_CLEANUP_DIR)) return add_list(info, &reg.directories, why_p);
    if (key_is(info, PMIX_CLEANUP_IGNORE)) return add_list(info, &reg.ignores, why_p);
    if (key_is(info, PMIX_CLEANUP_RECURSIVE)) return read_flag(info, &reg.recursive, why_p);
    if (key_is(info, PMIX_CLEANUP_LEAVE_TOPDIR)) return read_flag(info, &reg.leave_top, why_p);
    if (key_is(info, PMIX_CLEANUP_EMPTY)) return read_flag(info, &reg.empty_only, why_p);
    return PMIX_SUCCESS;
}

bool contains(const std::vector<std::string> &paths, const std::string &path)
{
    return std::find(paths.begin(), paths.end(), path) != paths.end();
}

pmix_status_t conflict(const std::string &path, const char *where, std::string *why_p)
{
    *why_p = "\"" + path + "\" is both to be removed and to be ignored" + where;
    return PMIX_ERR_CONFLICTING_CLEANUP_DIRECTIVES;
}

}  // namespace

bool is_cleanup_request(const pmix_info_t directives[], std::size_t ndirs)
{
    for (std::size_t i = 0; directives != nullptr && i < ndirs; ++i) {
        const pmix_info_t &info = directives[i];
        if (key_is(info, PMIX_REGISTER_CLEANUP) || key_is(info, PMIX_REGISTER_CLEANUP_DIR) ||
            key_is(info, PMIX_CLEANUP_IGNORE)) {
            return true;
        }
    }
    return false;
}

pmix_status_t parse_registration(const pmix_info_t directives[], std::size_t ndirs, Registration *reg_p,
                                 std::string *why_p)
{
    Registration reg;
    for (std::size_t i = 0; directives != nullptr && i < ndirs; ++i) {
        const pmix_status_t rc = read_directive(directives[i], reg, why_p);
        if (rc != PMIX_SUCCESS) return rc;
    }
    for (const std::string &ignored : reg.ignores) {
        if (contains(reg.files, ignored) || contains(reg.directories, ignored)) {
            return conflict(ignored, " in the same request", why_p);
        }
    }
    *reg_p = std::move(reg);
    return PMIX_SUCCESS;
}

bool CleanupSet::removes(const std::string &path) const
{
    const auto same = [&](const auto &entry) { return entry.path == path; };
    return std::any_of(files_.begin(), files_.end(), same) ||
           std::any_of(directories_.begin(), directories_.end(), same);
}

pmix_status_t CleanupSet::check(const Registration &reg, std::string *why_p) const
{
    const char *earlier = " (an earlier request of the same target says otherwise)";
    for (const auto *paths : {&reg.files, &reg.directories}) {
        for (const std::string &path : *paths) {
            if (ignores_.count(path) != 0) return conflict(path, earlier, why_p);
        }
    }
    for (const std::string &ignored : reg.ignores) {
        if (removes(ignored)) return conflict(ignored, earlier, why_p);
    }
    return PMIX_SUCCESS;
}

void CleanupSet::merge(const Registration &reg, const Owner &owner)
{
    for (const std::string &path : reg.files) {
        const auto same = [&](const FileEntry &entry) { return entry.path == path && entry.owner == owner; };
        if (std::none_of(files_.begin(), files_.end(), same)) files_.push_back(FileEntry{path, owner});
    }
    for (const std::string &path : reg.directories) {
        const auto same = [&](const DirectoryEntry &entry) { return entry.path == path && entry.owner == owner; };
        const auto found = std::find_if(directories_.begin(), directories_.end(), same);
        if (found == directories_.end()) {
            directories_.push_back(DirectoryEntry{path, owner, reg.recursive, reg.leave_top, reg.empty_only});
            continue;
        }
        found->recursive = found->recursive || reg.recursive;
        found->leave_top = found->leave_top || reg.leave_top;
        found->empty_only = found->empty_only && reg.empty_only;
    }
    ignores_.insert(reg.ignores.begin(), reg.ignores.end());
}

}  // namespace pmixpp::cleanup
