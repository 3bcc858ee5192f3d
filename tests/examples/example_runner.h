// Runs one OpenPMIx example under pmixrun, on our libpmix.so.2 or on
// Debian's OpenPMIx one, and judges it by its own output and exit code.
#ifndef PMIXPP_TESTS_EXAMPLES_EXAMPLE_RUNNER_H
#define PMIXPP_TESTS_EXAMPLES_EXAMPLE_RUNNER_H

#include "example_cases.h"

#include <string>
#include <vector>

namespace examples_test {

// Every run is bounded: pmixrun's own --timeout ends the job cleanly, and the
// runner kills pmixrun's process group a little later if that did not work.
constexpr int kCaseSeconds = 30;

// Puts this (test) process into `mode`: the library path that pmixrun, the
// examples and the tools load, where our components are (mode kOurs only),
// `app` on PATH (launcher.c), and the examples' directory as the working
// directory (debugger.c and dynamic.c spawn ./client from there). Returns a
// private directory, which the caller removes.
std::string enter_mode(Mode mode);

const char *mode_name(Mode mode);

// What one run produced.
struct Outcome {
    int code = -1;
    bool timed_out = false;
    std::string output;        // the example's stdout and stderr (clients: pmixrun's, which carries them)
    std::string host_output;   // tools: the output of the pmixrun they talk to
    std::string nspace;        // tools: the waiting job's namespace
    std::string uri;           // tools: the server's URI
    bool host_stopped = true;  // tools: their pmixrun ended on SIGTERM
};

// Runs in a fresh tmpdir under `scratch` (TMPDIR and pmixrun --tmpdir),
// bounded by `seconds`.
Outcome run_case(const ExampleCase &example, int ranks, const std::string &scratch, int seconds = kCaseSeconds);

// Everything that is wrong with an outcome, one line each; empty when it passed.
std::vector<std::string> judge(const ExampleCase &example, int ranks, const Outcome &outcome,
                               int seconds = kCaseSeconds);

// Runs every -n of the case in `mode` and fails the test for a case that
// fails without a known reason. A known failure that fails is reported, one
// that passes gets a warning to remove it from the table; neither fails.
void run_and_judge(const char *name, Mode mode);

}  // namespace examples_test

#endif
