// OpenPMIx's example programs as test cases: how each is run under pmixrun and
// how its own output and exit code are judged. Most examples print an error
// and still exit 0, so the output patterns carry the verdict as much as the
// exit code does.
#ifndef PMIXPP_TESTS_EXAMPLES_EXAMPLE_CASES_H
#define PMIXPP_TESTS_EXAMPLES_EXAMPLE_CASES_H

#include <string>
#include <vector>

namespace examples_test {

// Which libpmix.so.2 pmixrun and the examples load: both ours, both
// Debian's OpenPMIx, or pmixrun ours and the examples OpenPMIx's (they then
// talk OpenPMIx's wire protocol, server/openpmix/).
// kReverse: pmixrun on OpenPMIx, the examples on ours (src/client/openpmix/).
enum class Mode { kOurs, kOpenPmix, kInterop, kReverse };

// How an example meets pmixrun.
enum class Role {
    kClient,  // pmixrun -n N <example> <args>
    kTool,    // started beside `pmixrun --system-server -n N <a waiting job>`
};

// One row: an example run with one set of arguments.
struct ExampleCase {
    std::string name;     // test name; the example's file name, or name_variant
    std::string program;  // the example binary
    Role role;
    // Placeholders, replaced at run time: @URI@ (the server's URI, tools),
    // @NSPACE@ (the waiting job's namespace, tools), @HOST@ (this host's name).
    std::vector<std::string> args;
    std::vector<int> ranks;  // pmixrun -n values: the job's size
    int exit_code;
    // ECMAScript regexes over stdout and stderr together. In per_rank, {rank}
    // stands for each rank of the job in turn; in all three, {n} for its size.
    std::vector<std::string> must;
    std::vector<std::string> per_rank;
    std::vector<std::string> must_not;
};

// Why a case is expected to fail today.
enum class Known {
    kPending,   // a feature or fix of OURS not built yet: the case should pass once it is
    kOpenPmix,  // OpenPMIx itself gets it wrong (modes kOpenPmix, kInterop): documented, not ours
    kExample,   // the example cannot pass under any host we have: documented
};

struct KnownFailure {
    std::string name;  // an ExampleCase name
    std::vector<Mode> modes;
    std::vector<int> ranks;  // empty: every -n of the case
    Known kind;
    std::string reason;  // for kPending, "pending: <feature or fix>: <diagnosis>"
    // A case known to wait until it is stopped gets this bound instead of
    // kCaseSeconds (0): long enough to pass once it is fixed, short enough not
    // to hold the suite.
    int seconds = 0;
};

const std::vector<ExampleCase> &example_cases();
const std::vector<KnownFailure> &known_failures();

// Examples that are not run, and why.
struct SkippedExample {
    std::string file;
    std::string reason;
};
const std::vector<SkippedExample> &skipped_examples();

const ExampleCase *find_case(const std::string &name);
// The known failure of name in mode with ranks processes, or nullptr.
const KnownFailure *known_failure(const std::string &name, Mode mode, int ranks);

}  // namespace examples_test

#endif
