// A fresh directory per test under the build tree's scratch root
// (PMIXPP_INDEX_SCRATCH), and its removal. Each Criterion test runs in its
// own process, so one remembered directory per process is enough.
#ifndef PMIXPP_TESTS_FRAMEWORK_SCRATCH_DIRECTORY_H
#define PMIXPP_TESTS_FRAMEWORK_SCRATCH_DIRECTORY_H

#include <criterion/criterion.h>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace scratch {

inline const std::string root = PMIXPP_INDEX_SCRATCH;
inline std::string made;

// <root>/<stem>.XXXXXX, made now.
inline std::string fresh(const char *stem)
{
    ::mkdir(root.c_str(), 0700);
    std::string pattern = root + "/" + stem + ".XXXXXX";
    cr_assert_not_null(::mkdtemp(pattern.data()), "mkdtemp under %s", root.c_str());
    made = pattern;
    return pattern;
}

// Removes the directory fresh() made, and nothing outside the root.
inline void remove_made()
{
    if (made.empty() || !made.starts_with(root + "/")) return;
    std::error_code ignored;
    std::filesystem::remove_all(made, ignored);
}

}  // namespace scratch

#endif
