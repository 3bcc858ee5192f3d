#include "cleanup/temp_tree.h"

#include <criterion/criterion.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

namespace pmixpp::cleanup_test {

namespace fs = std::filesystem;

TempTree::TempTree()
{
    const char *base = std::getenv("TMPDIR");
    std::string pattern = std::string(base != nullptr && base[0] == '/' ? base : "/tmp") + "/pmixpp-cleanup-XXXXXX";
    cr_assert_not_null(mkdtemp(pattern.data()), "mkdtemp %s", pattern.c_str());
    root_ = pattern;
}

TempTree::~TempTree()
{
    remove_all(root_);
}

void TempTree::file(const std::string &relative) const
{
    const fs::path target = path(relative);
    fs::create_directories(target.parent_path());
    std::ofstream(target) << "data\n";
    cr_assert(exists(target), "cannot create %s", target.c_str());
}

void TempTree::dir(const std::string &relative) const
{
    fs::create_directories(path(relative));
}

void TempTree::link(const std::string &relative, const std::string &target) const
{
    const fs::path at = path(relative);
    fs::create_directories(at.parent_path());
    cr_assert_eq(symlink(target.c_str(), at.c_str()), 0, "symlink %s", at.c_str());
}

bool exists(const std::string &path)
{
    struct stat info {};
    return lstat(path.c_str(), &info) == 0;
}

void remove_all(const std::string &path)
{
    std::error_code ignored;
    fs::remove_all(path, ignored);  // removes links themselves, never their targets
}

}  // namespace pmixpp::cleanup_test
