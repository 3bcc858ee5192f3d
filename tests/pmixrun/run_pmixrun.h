// Runs pmixrun as a user does, from a test: its output, error output and
// exit code (the general helpers are in support/child_process.h).
#ifndef PMIXPP_TESTS_PMIXRUN_RUN_H
#define PMIXPP_TESTS_PMIXRUN_RUN_H

#include "support/child_process.h"

namespace pmixrun_test {

using test_support::count_lines_with;
using test_support::empty_dir;
using test_support::finish;
using test_support::has_line;
using test_support::remove_tree;
using test_support::Result;

// pmixrun <args>, with `input` on its stdin, bounded by `seconds`.
Result run(const std::vector<std::string> &args, const std::string &input = "", int seconds = 60);
// Another program the same way.
Result run_program(const char *program, const std::vector<std::string> &args, int seconds = 60);
// Starts pmixrun <args> in the background (stdout/stderr to /dev/null).
pid_t start(const std::vector<std::string> &args);
std::string scratch_dir();
// The cores this process may run on (distinct package and core ids of the
// cpus in its affinity, from sysfs), as pmixrun counts them.
int usable_cores();
// The cpus it may run on.
int usable_cpus();

}  // namespace pmixrun_test

#endif
