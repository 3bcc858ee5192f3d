// Real temporary trees for the cleanup tests: a fresh directory per test,
// removed (without following links) when the test ends.
#ifndef PMIXPP_TESTS_CLEANUP_TEMP_TREE_H
#define PMIXPP_TESTS_CLEANUP_TEMP_TREE_H

#include <string>

namespace pmixpp::cleanup_test {

class TempTree {
public:
    TempTree();  // a fresh 0700 directory under $TMPDIR or /tmp
    ~TempTree();
    TempTree(const TempTree &) = delete;
    TempTree &operator=(const TempTree &) = delete;

    const std::string &root() const { return root_; }
    std::string path(const std::string &relative) const { return root_ + "/" + relative; }
    // Creates root/relative (parents included) as a file, a directory or a link.
    void file(const std::string &relative) const;
    void dir(const std::string &relative) const;
    void link(const std::string &relative, const std::string &target) const;

private:
    std::string root_;
};

// lstat succeeds (a dangling link exists too).
bool exists(const std::string &path);
// Removes path and everything below, never following a link.
void remove_all(const std::string &path);

}  // namespace pmixpp::cleanup_test

#endif
