// Scratch directories and small file helpers of the rendezvous tests.
#ifndef PMIXPP_TESTS_RENDEZVOUS_FIXTURE_H
#define PMIXPP_TESTS_RENDEZVOUS_FIXTURE_H

#include <criterion/criterion.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

inline std::string make_scratch()
{
    char pattern[] = "/tmp/pmixpp-rdv-test.XXXXXX";
    cr_assert_not_null(mkdtemp(pattern));
    return pattern;
}

inline void remove_scratch(const std::string &path)
{
    const std::string command = "rm -rf '" + path + "'";
    cr_assert_eq(std::system(command.c_str()), 0);
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

inline std::string slurp(const std::string &path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

inline void put_text(const std::string &path, const std::string &text, mode_t mode = 0600)
{
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, mode);
    cr_assert_geq(fd, 0, "%s", path.c_str());
    cr_assert_eq(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
    cr_assert_eq(fchmod(fd, mode), 0);
    close(fd);
}

inline std::string hostname()
{
    char host[256] = {};
    gethostname(host, sizeof(host) - 1);
    return host;
}

// The value of "key=" in a rendezvous text; empty when absent.
inline std::string field(const std::string &text, const std::string &key)
{
    const std::string needle = "\n" + key + "=";
    const std::size_t at = text.find(needle);
    if (at == std::string::npos) return {};
    const std::size_t start = at + needle.size();
    return text.substr(start, text.find('\n', start) - start);
}

// Field 22 of /proc/<pid>/stat (written here independently of the library).
inline std::string start_time_of(pid_t pid)
{
    const std::string text = slurp("/proc/" + std::to_string(pid) + "/stat");
    const std::size_t paren = text.rfind(')');
    if (paren == std::string::npos) return {};
    std::istringstream fields(text.substr(paren + 1));
    std::string value;
    for (int number = 3; number <= 22; ++number) fields >> value;
    return value;
}

// A rendezvous text as docs/rendezvous.md describes it.
inline std::string rendezvous_text(pid_t pid, const std::string &start_time, const std::string &nspace = "stale-ns")
{
    const std::string uri = "usock:/nowhere/sock";
    return nspace + ".0;" + uri + "\nv4.2\npmixpp-rendezvous=1\nuris=" + uri + "\nnspace=" + nspace +
           "\nrank=0\nversion=test\npid=" + std::to_string(pid) + "\nuid=" + std::to_string(geteuid()) +
           "\ngid=" + std::to_string(getegid()) + "\nstart_time=" + start_time + "\n";
}

#endif
