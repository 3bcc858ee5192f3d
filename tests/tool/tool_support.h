// Child-process servers (tool_server.c) for the tool tests: the test
// process is the tool.
#ifndef PMIXPP_TESTS_TOOL_TOOL_SUPPORT_H
#define PMIXPP_TESTS_TOOL_TOOL_SUPPORT_H

#include <sys/types.h>

#include <string>
#include <vector>

#include <pmix_common.h>

struct TestServer {
    pid_t pid = -1;
    int to_child = -1;    // its stdin: closing it stops the server
    int from_child = -1;  // its stdout: "ready <pid>"
};

// A fresh private directory for one test's rendezvous files.
std::string make_tmpdir();
// Removes it (after the servers stopped).
void remove_tmpdir(const std::string &dir);

// Starts tool_server --name name --tmpdir tmpdir flags...; true once it said
// "ready" (within 30 s).
bool start_server(TestServer *server, const std::string &name, const std::string &tmpdir,
                  const std::vector<std::string> &flags);
// Closes its stdin and waits (bounded, then SIGKILL).
void stop_server(TestServer *server);

std::string hostname();
// The first line of a file ("" when unreadable).
std::string first_line(const std::string &path);

std::string whole_file(const std::string &path);
// Writes text to path, mode 0600 (replacing it).
bool write_private_file(const std::string &path, const std::string &text);

// Small helpers for info arrays.
void load_string(pmix_info_t *info, const char *key, const std::string &value);
void load_flag(pmix_info_t *info, const char *key);

#endif
