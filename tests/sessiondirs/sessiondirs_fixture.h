// A scratch directory per test in /tmp (mkdtemp) and checks on paths.
#ifndef PMIXPP_TESTS_SESSIONDIRS_FIXTURE_H
#define PMIXPP_TESTS_SESSIONDIRS_FIXTURE_H

#include <criterion/criterion.h>

#include <cstdlib>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

inline std::string make_scratch()
{
    char pattern[] = "/tmp/pmixpp-sdir-test.XXXXXX";
    cr_assert_not_null(mkdtemp(pattern));
    return pattern;
}

inline bool exists(const std::string &path)
{
    struct stat info {};
    return lstat(path.c_str(), &info) == 0;
}

inline unsigned mode_of(const std::string &path)
{
    struct stat info {};
    cr_assert_eq(lstat(path.c_str(), &info), 0, "%s", path.c_str());
    return info.st_mode & 07777;
}

inline void write_file(const std::string &path)
{
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    cr_assert_geq(fd, 0, "%s", path.c_str());
    cr_assert_eq(write(fd, "x", 1), 1);
    close(fd);
}

// Best effort, for the test's own scratch (plain files and dirs only).
inline void remove_scratch(const std::string &path)
{
    const std::string command = "rm -rf '" + path + "'";
    cr_assert_eq(std::system(command.c_str()), 0);
}

#endif
