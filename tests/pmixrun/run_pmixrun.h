// Runs pmixrun as a user does, from a test: its output, error output and
// exit code.
#ifndef PMIXPP_TESTS_PMIXRUN_RUN_H
#define PMIXPP_TESTS_PMIXRUN_RUN_H

#include <sys/types.h>

#include <string>
#include <vector>

namespace pmixrun_test {

struct Result {
    int code = -1;       // exit code, or 128+signal
    std::string out;
    std::string err;
};

// pmixrun <args>, with `input` on its stdin, bounded by `seconds`.
Result run(const std::vector<std::string> &args, const std::string &input = "", int seconds = 60);
// Another program the same way.
Result run_program(const char *program, const std::vector<std::string> &args, int seconds = 60);

// Starts pmixrun <args> in the background (stdout/stderr to /dev/null).
pid_t start(const std::vector<std::string> &args);
// Its exit code (waits up to `seconds`, then kills it and fails).
int finish(pid_t pid, int seconds = 30);

std::string scratch_dir();
bool empty_dir(const std::string &dir);
void remove_tree(const std::string &dir);
bool has_line(const std::string &text, const std::string &line);
int count_lines_with(const std::string &text, const std::string &part);

} // namespace pmixrun_test

#endif
