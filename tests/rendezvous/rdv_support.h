// Support of the rendezvous server tests: a scratch with a system and a
// server tmpdir, the tiny server program as a child that dies with the test,
// and the in-process server.
#ifndef PMIXPP_TESTS_RENDEZVOUS_SUPPORT_H
#define PMIXPP_TESTS_RENDEZVOUS_SUPPORT_H

#include "rendezvous/rdv_fixture.h"

#include <pmix.h>
#include <pmix_server.h>

#include <criterion/criterion.h>

#include <string>
#include <vector>

#include <sys/types.h>

inline constexpr const char *kHost = "rdvhost";

struct TmpDirs {
    std::string root = make_scratch();
    std::string system = root + "/sys";
    std::string server = root + "/srv";
    TmpDirs();
    ~TmpDirs() { remove_scratch(root); }
    TmpDirs(const TmpDirs &) = delete;
    TmpDirs &operator=(const TmpDirs &) = delete;
};

// The names in dir (without "." and ".."), sorted.
std::vector<std::string> names_in(const std::string &dir);

// The rdv_server program, started with the two tmpdirs and flags.
class ServerChild {
public:
    ServerChild(const TmpDirs &dirs, const std::vector<std::string> &flags);
    ~ServerChild();
    ServerChild(const ServerChild &) = delete;
    ServerChild &operator=(const ServerChild &) = delete;

    const std::string &first_line() const { return line_; }  // "ready" or "error ..."
    pid_t pid() const { return pid_; }
    void kill_hard();  // SIGKILL and reap
    int stop();        // EOF on stdin, bounded wait; exit status

private:
    pid_t pid_ = -1;
    int to_child_ = -1;
    int from_child_ = -1;
    std::string line_;
};

// PMIx_server_init in this process with the two tmpdirs, PMIX_HOSTNAME
// kHost, and the given bool flags plus extra info.
pmix_status_t init_server(const TmpDirs &dirs, const std::vector<const char *> &flags,
                          const std::vector<pmix_info_t> &extra = {});

#endif
