// Executes registered cleanup on the file system (RFC0027), safely:
//
//  - only entries whose owner uid AND gid are the requester's are removed;
//  - listed files first, then each directory tree: files that are not
//    ignored, then the directories that became empty, deepest first;
//  - the walk opens every directory relative to its parent's fd with
//    O_NOFOLLOW | O_DIRECTORY and looks at entries with
//    fstatat(AT_SYMLINK_NOFOLLOW): a symbolic link in a tree is an entry of
//    the tree and is unlinked itself, never followed; a top directory that
//    is a link is skipped;
//  - it never leaves the file system of the top directory (st_dev), never
//    goes deeper than kMaxDepth levels nor looks at more than kMaxEntries
//    entries per directory tree, so it always ends;
//  - failures (EACCES, EBUSY, a vanished entry, ...) are skipped silently.
//
// Every skipped item goes to a SkipReport: with PMIX_DEBUG >= 10 in the
// environment it prints one stderr line per item and why.
#ifndef PMIXPP_SERVER_CLEANUP_WALKER_H
#define PMIXPP_SERVER_CLEANUP_WALKER_H

#include "server/cleanup/rules.h"

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pmixpp::cleanup {

inline constexpr int kMaxDepth = 64;
inline constexpr std::size_t kMaxEntries = 100000;

// True when PMIX_DEBUG >= 10 in the environment.
bool debug_enabled();

// What was left alone and why (kept for tests; printed when verbose).
class SkipReport {
public:
    explicit SkipReport(bool verbose) : verbose_(verbose) {}
    void skipped(const std::string &path, std::string_view why);
    const std::vector<std::pair<std::string, std::string>> &items() const { return items_; }
    // The reason recorded for path, or "" when it was not skipped.
    std::string reason_for(const std::string &path) const;

private:
    bool verbose_;
    std::vector<std::pair<std::string, std::string>> items_;
};

// One file of PMIX_REGISTER_CLEANUP (not a directory; a link is unlinked).
void remove_listed_file(const FileEntry &file, const std::set<std::string> &ignores, SkipReport &report);
// One directory of PMIX_REGISTER_CLEANUP_DIR with its directives.
void clean_directory(const DirectoryEntry &dir, const std::set<std::string> &ignores, SkipReport &report);
// Everything of a set, in the RFC's order.
void execute(const CleanupSet &set, SkipReport &report);

}  // namespace pmixpp::cleanup

#endif
