// Runs a program from a test the way a user would: its output, error output
// and exit code, always bounded by a deadline. Shared by the pmixrun and the
// compat (Open MPI, python3-pmix) suites.
#ifndef PMIXPP_TESTS_SUPPORT_CHILD_PROCESS_H
#define PMIXPP_TESTS_SUPPORT_CHILD_PROCESS_H

#include <sys/types.h>

#include <string>
#include <vector>

namespace test_support {

struct Result {
    int code = -1;  // exit code, or 128+signal
    std::string out;
    std::string err;
    bool timed_out = false;
};

// program <args>, with `input` on its stdin, bounded by `seconds`. The
// program runs in a process group of its own; at the deadline the whole group
// (with what it started: orted, ranks) is killed, and timed_out is set.
Result run(const char *program, const std::vector<std::string> &args, const std::string &input = "", int seconds = 60);
// The same, silent at the deadline: for a caller that judges a run that
// does not end as one outcome among others (Criterion fails the whole run
// on any logged error, even in a test that passes).
Result run_quietly(const char *program, const std::vector<std::string> &args, const std::string &input = "",
                   int seconds = 60);

// Starts program <args> in the background, stdout and stderr to `output`.
pid_t start(const char *program, const std::vector<std::string> &args, const std::string &output = "/dev/null");
// Its exit code (waits up to `seconds`, then kills it and fails the test).
int finish(pid_t pid, int seconds = 30);

std::string scratch_dir(const char *prefix = "pmixpp-test");
// A pid that certainly runs nothing of ours: a child that exited and was reaped.
pid_t dead_pid();
bool empty_dir(const std::string &dir);
void remove_tree(const std::string &dir);
std::string read_text(const std::string &path);
// The first line of a file a background process writes, once it is there
// (up to 10 s); "" if it never came.
std::string wait_for_first_line(const std::string &path);

bool has_line(const std::string &text, const std::string &line);
int count_lines_with(const std::string &text, const std::string &part);
std::vector<std::string> lines_with(const std::string &text, const std::string &part);
std::vector<std::string> lines_of(const std::string &text);

}  // namespace test_support

#endif
