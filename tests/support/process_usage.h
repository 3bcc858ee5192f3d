// What this process holds right now, for tests that prove a server keeps
// nothing behind (descriptors and memory flat across many connections or
// jobs). Read from /proc; -1 when it cannot be read. No operator new: a
// test that makes allocations fail may call these.
#ifndef PMIXPP_TESTS_SUPPORT_PROCESS_USAGE_H
#define PMIXPP_TESTS_SUPPORT_PROCESS_USAGE_H

#include <dirent.h>

#include <cstdio>

namespace pmixpp_test {

// Open file descriptors (the one reading /proc/self/fd is not counted).
inline long open_fd_count()
{
    DIR *dir = ::opendir("/proc/self/fd");
    if (dir == nullptr) return -1;
    long count = 0;
    while (const dirent *entry = ::readdir(dir)) count += entry->d_name[0] != '.';
    ::closedir(dir);
    return count - 1;
}

// Resident memory (VmRSS) in kB.
inline long resident_kb()
{
    FILE *status = std::fopen("/proc/self/status", "r");
    if (status == nullptr) return -1;
    char line[256];
    long kb = -1;
    while (std::fgets(line, sizeof line, status) != nullptr) {
        if (std::sscanf(line, "VmRSS: %ld kB", &kb) == 1) break;
    }
    std::fclose(status);
    return kb;
}

}  // namespace pmixpp_test

#endif
