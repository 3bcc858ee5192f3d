// Removing a directory tree the library created, never anything outside it.
//
// The walk goes through directory file descriptors (openat with O_NOFOLLOW,
// unlinkat): a symbolic link inside the tree is removed as a link and its
// target is never touched, and a directory swapped for a link while we walk
// is refused instead of followed. Mount points (another st_dev) are left.
#ifndef PMIXPP_SERVER_SESSIONDIRS_TREE_REMOVAL_H
#define PMIXPP_SERVER_SESSIONDIRS_TREE_REMOVAL_H

#include <string>

namespace pmixpp::sessiondirs {

// Removes `path` and everything below it. True when `path` is gone (also
// when it did not exist). `path` itself must be a real directory, not a link.
bool remove_tree(const std::string &path);

}  // namespace pmixpp::sessiondirs

#endif
