// The rules of RFC0027 for what one scope (a process, or the local clients
// of a namespace) has registered for removal: parsing a request's
// directives, and aggregating requests with the RFC's de-duplication and
// conflict rules. Pure bookkeeping: nothing here touches the file system.
//
//  - PMIX_REGISTER_CLEANUP (files), PMIX_REGISTER_CLEANUP_DIR (directories)
//    and PMIX_CLEANUP_IGNORE are comma-delimited lists of absolute paths;
//    a request may give each key several times.
//  - PMIX_CLEANUP_RECURSIVE, PMIX_CLEANUP_LEAVE_TOPDIR and PMIX_CLEANUP_EMPTY
//    apply to every directory of the request they are in.
//  - A file or directory both to remove and to ignore, in one request or
//    across requests of the same scope, refuses the request that contradicts
//    with PMIX_ERR_CONFLICTING_CLEANUP_DIRECTIVES; nothing of it is kept.
//  - A duplicate file is dropped. A duplicate directory is merged: recursive
//    wins over non-recursive, leave-top wins, "only empty directories" stays
//    only if both asked for it (the wider removal wins, like recursive).
//  - Nested directories are separate entries (the RFC does not merge them).
//  - Entries are duplicates only with the same owner (uid and gid).
#ifndef PMIXPP_SERVER_CLEANUP_RULES_H
#define PMIXPP_SERVER_CLEANUP_RULES_H

#include <pmix_common.h>

#include <sys/types.h>

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace pmixpp::cleanup {

// Whose files may be removed: the requester's uid AND gid.
struct Owner {
    uid_t uid = 0;
    gid_t gid = 0;
    bool operator==(const Owner &) const = default;
};

struct FileEntry {
    std::string path;  // normalized (paths.h)
    Owner owner;
};

struct DirectoryEntry {
    std::string path;  // normalized
    Owner owner;
    bool recursive = false;   // PMIX_CLEANUP_RECURSIVE
    bool leave_top = false;   // PMIX_CLEANUP_LEAVE_TOPDIR
    bool empty_only = false;  // PMIX_CLEANUP_EMPTY: remove directories only, and only empty ones
};

// One request's cleanup directives, parsed and normalized.
struct Registration {
    std::vector<std::string> files;
    std::vector<std::string> directories;
    std::vector<std::string> ignores;
    bool recursive = false;
    bool leave_top = false;
    bool empty_only = false;
};

// True when directives hold PMIX_REGISTER_CLEANUP, PMIX_REGISTER_CLEANUP_DIR
// or PMIX_CLEANUP_IGNORE: the request is the server's own, never the host's.
bool is_cleanup_request(const pmix_info_t directives[], std::size_t ndirs);

// PMIX_ERR_BAD_PARAM with *why_p for a relative path or a value of the wrong
// type; PMIX_ERR_CONFLICTING_CLEANUP_DIRECTIVES for a path the request both
// removes and ignores. Other directives are not looked at.
pmix_status_t parse_registration(const pmix_info_t directives[], std::size_t ndirs, Registration *reg_p,
                                 std::string *why_p);

// Everything one scope registered.
class CleanupSet {
public:
    // PMIX_ERR_CONFLICTING_CLEANUP_DIRECTIVES (with *why_p) when reg removes
    // what this set ignores or ignores what it removes.
    pmix_status_t check(const Registration &reg, std::string *why_p) const;
    // Adds reg (which check() accepted) with the rules above.
    void merge(const Registration &reg, const Owner &owner);

    const std::vector<FileEntry> &files() const { return files_; }
    const std::vector<DirectoryEntry> &directories() const { return directories_; }
    const std::set<std::string> &ignores() const { return ignores_; }
    bool empty() const { return files_.empty() && directories_.empty(); }

private:
    bool removes(const std::string &path) const;

    std::vector<FileEntry> files_;
    std::vector<DirectoryEntry> directories_;
    std::set<std::string> ignores_;
};

}  // namespace pmixpp::cleanup

#endif
