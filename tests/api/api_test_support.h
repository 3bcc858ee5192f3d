// Small helpers shared by the tests/api checks: where the build and source
// trees are (CTest sets PMIXPP_BUILD_DIR / PMIXPP_SOURCE_DIR), and running a
// shell command to collect its output.
#ifndef PMIXPP_TESTS_API_SUPPORT_H
#define PMIXPP_TESTS_API_SUPPORT_H

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

#include <criterion/criterion.h>

// Criterion's Test() and assertion macros expand to C-style casts; the
// warning stays on for everything but these test files.
#pragma GCC diagnostic ignored "-Wold-style-cast"

namespace pmixpp::api_test {

inline std::string required_env(const char *name)
{
    const char *value = std::getenv(name);
    cr_assert(value != nullptr && *value != '\0', "%s is not set; run this test through ctest", name);
    return value;
}

inline std::string build_lib_dir()
{
    return required_env("PMIXPP_BUILD_DIR") + "/lib";
}

inline std::string source_path(const std::string &relative)
{
    return required_env("PMIXPP_SOURCE_DIR") + "/" + relative;
}

// Canonical absolute path (symlinks resolved); fails the test if none.
inline std::string real_path(const std::string &path)
{
    char resolved[PATH_MAX];
    cr_assert(realpath(path.c_str(), resolved) != nullptr, "cannot resolve %s", path.c_str());
    return resolved;
}

// Runs `command` through /bin/sh and returns its stdout; fails the test when
// the command cannot start or exits non-zero.
inline std::string command_output(const std::string &command)
{
    FILE *pipe = popen(command.c_str(), "r");
    cr_assert(pipe != nullptr, "cannot run: %s", command.c_str());
    std::string output;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, pipe)) > 0) {
        output.append(chunk, n);
    }
    int status = pclose(pipe);
    cr_assert_eq(status, 0, "command failed (status %d): %s", status, command.c_str());
    return output;
}

// Non-empty lines of a text file, ignoring lines that start with '#'.
inline std::set<std::string> lines_of(const std::string &path)
{
    std::ifstream in(path);
    cr_assert(in.good(), "cannot read %s", path.c_str());
    std::set<std::string> lines;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line[0] != '#') {
            lines.insert(line);
        }
    }
    return lines;
}

// Names in a but not in b.
inline std::set<std::string> difference(const std::set<std::string> &a, const std::set<std::string> &b)
{
    std::set<std::string> out;
    for (const auto &name : a) {
        if (b.count(name) == 0) {
            out.insert(name);
        }
    }
    return out;
}

inline std::string joined(const std::set<std::string> &names)
{
    std::string text;
    for (const auto &name : names) {
        text += " " + name;
    }
    return text.empty() ? " (none)" : text;
}

}  // namespace pmixpp::api_test

#endif
