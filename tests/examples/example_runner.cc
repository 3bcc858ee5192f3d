#include "example_runner.h"

#include "support/child_process.h"

#include <criterion/criterion.h>

#include <signal.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <regex>

namespace examples_test {
namespace {

using test_support::Result;

std::string env(const char *name)
{
    const char *value = std::getenv(name);
    return value == nullptr ? "" : value;
}

std::string pmixrun_path()
{
    return env("PMIXPP_BUILD_DIR") + "/bin/pmixrun";
}

Mode current_mode = Mode::kOurs;

// pmixrun, and the arguments before its own: in mode kInterop it runs on
// our library through `env` while the examples keep OpenPMIx's, which the
// test's LD_LIBRARY_PATH names.
std::vector<std::string> pmixrun_command(std::string *program_p)
{
    if (current_mode == Mode::kReverse) {
        // pmixrun on OpenPMIx, the examples (the test's LD_LIBRARY_PATH) on ours.
        *program_p = "/usr/bin/env";
        return {"LD_LIBRARY_PATH=" + env("PMIXPP_OPENPMIX_LIBDIR"), pmixrun_path()};
    }
    if (current_mode != Mode::kInterop) {
        *program_p = pmixrun_path();
        return {};
    }
    // pmixrun finds our components beside the library: the component path
    // variable would reach the examples too, and OpenPMIx's library would
    // complain of every file in it.
    *program_p = "/usr/bin/env";
    return {"LD_LIBRARY_PATH=" + env("PMIXPP_BUILD_DIR") + "/lib", pmixrun_path()};
}

std::string host_name()
{
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    return host;
}

void replace_all(std::string &text, const std::string &from, const std::string &to)
{
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
}

std::string regex_escaped(const std::string &text)
{
    static const std::string kSpecial = "\\^$.|?*+()[]{}";
    std::string escaped;
    for (char c : text) {
        if (kSpecial.find(c) != std::string::npos) escaped += '\\';
        escaped += c;
    }
    return escaped;
}

// @URI@, @NSPACE@, @HOST@ in an argument; regex-escaped when in a pattern.
std::string with_placeholders(std::string text, const Outcome &outcome, bool for_regex)
{
    auto value = [for_regex](const std::string &v) { return for_regex ? regex_escaped(v) : v; };
    replace_all(text, "@URI@", value(outcome.uri));
    replace_all(text, "@NSPACE@", value(outcome.nspace));
    replace_all(text, "@HOST@", value(host_name()));
    return text;
}

Outcome run_client(const ExampleCase &example, int ranks, const std::string &tmpdir, int seconds)
{
    std::string program;
    std::vector<std::string> args = pmixrun_command(&program);
    for (const std::string &arg : {std::string("--tmpdir"), tmpdir, std::string("--timeout"), std::to_string(seconds),
                                   std::string("-n"), std::to_string(ranks)}) {
        args.push_back(arg);
    }
    if (current_mode == Mode::kInterop || current_mode == Mode::kReverse) {
        args.push_back("-x");
        args.push_back("LD_LIBRARY_PATH=" + env("LD_LIBRARY_PATH"));
    }
    args.push_back("./" + example.program);
    Outcome outcome;
    for (const std::string &arg : example.args) args.push_back(with_placeholders(arg, outcome, false));
    const Result result = test_support::run_quietly(program.c_str(), args, "", seconds + 10);
    outcome.code = result.code;
    outcome.timed_out = result.timed_out;
    outcome.output = result.out + result.err;
    return outcome;
}

// SIGTERM to the background pmixrun; false when it is still there 15 s later
// (then it is killed).
bool stop_host(pid_t host)
{
    ::kill(host, SIGTERM);
    for (int i = 0; i < 300; ++i) {
        int status = 0;
        if (::waitpid(host, &status, WNOHANG) == host) return true;
        ::usleep(50000);
    }
    ::kill(host, SIGKILL);
    ::waitpid(host, nullptr, 0);
    return false;
}

// A tool meets a running server: pmixrun --system-server with a job of `ranks`
// processes that write their namespace down and wait. The tool finds it through
// the URI (-u), or as the system server in the private tmpdir.
// Its files live outside the tmpdir, which OpenPMIx removes.
Outcome run_tool(const ExampleCase &example, int ranks, const std::string &tmpdir, const std::string &scratch,
                 int seconds)
{
    const std::string tag = "-" + std::to_string(ranks);
    const std::string uri_file = scratch + "/uri" + tag, nspace_file = scratch + "/nspace" + tag;
    const std::string host_log = scratch + "/pmixrun" + tag + ".log";
    std::string host_program;
    std::vector<std::string> host_args = pmixrun_command(&host_program);
    for (const std::string &arg :
         {std::string("--system-server"), std::string("--tmpdir"), tmpdir, std::string("--report-uri"), uri_file,
          std::string("--timeout"), std::to_string(3 * kCaseSeconds), std::string("-n"), std::to_string(ranks),
          std::string("/bin/sh"), std::string("-c"),
          "echo \"$PMIX_NAMESPACE\" > " + nspace_file + "; exec sleep " + std::to_string(3 * kCaseSeconds)}) {
        host_args.push_back(arg);
    }
    const pid_t host = test_support::start(host_program.c_str(), host_args, host_log);
    Outcome outcome;
    outcome.uri = test_support::wait_for_first_line(uri_file);
    outcome.nspace = test_support::wait_for_first_line(nspace_file);
    if (outcome.uri.empty() || outcome.nspace.empty()) {
        stop_host(host);
        cr_assert_fail("pmixrun --system-server did not come up (URI '%s', job namespace '%s'):\n%s",
                       outcome.uri.c_str(), outcome.nspace.c_str(), test_support::read_text(host_log).c_str());
    }
    std::vector<std::string> args;
    for (const std::string &arg : example.args) args.push_back(with_placeholders(arg, outcome, false));
    const std::string program = "./" + example.program;
    const Result result = test_support::run_quietly(program.c_str(), args, "", seconds);
    outcome.code = result.code;
    outcome.timed_out = result.timed_out;
    outcome.output = result.out + result.err;
    outcome.host_stopped = stop_host(host);
    outcome.host_output = test_support::read_text(host_log);
    return outcome;
}

std::string for_rank(std::string pattern, int rank, int ranks)
{
    replace_all(pattern, "{rank}", std::to_string(rank));
    replace_all(pattern, "{n}", std::to_string(ranks));
    return pattern;
}

// A pattern as the failure message shows it: its newlines as \\n.
std::string shown(std::string pattern)
{
    replace_all(pattern, "\n", "\\n");
    return "/" + pattern + "/";
}

bool matches(const std::string &text, const std::string &pattern)
{
    return std::regex_search(text, std::regex(pattern, std::regex::ECMAScript));
}

// The examples' library directory: ours from the build tree, OpenPMIx's from
// Debian (pmixrun's, in mode kInterop, is ours: pmixrun_command).
std::string library_dir(Mode mode)
{
    const bool ours = mode == Mode::kOurs || mode == Mode::kReverse;
    return ours ? env("PMIXPP_BUILD_DIR") + "/lib" : env("PMIXPP_OPENPMIX_LIBDIR");
}

std::string verdict(bool passed, const KnownFailure *known)
{
    if (known == nullptr) return passed ? "passed" : "FAILED";
    if (passed) return "passed, though listed as a known failure (remove it): " + known->reason;
    switch (known->kind) {
    case Known::kPending: return known->reason;  // "pending: ..."
    case Known::kOpenPmix: return "OpenPMIx's failure: " + known->reason;
    case Known::kExample: return "the example's failure: " + known->reason;
    }
    return known->reason;
}

}  // namespace

const char *mode_name(Mode mode)
{
    switch (mode) {
    case Mode::kOurs: return "ours";
    case Mode::kOpenPmix: return "openpmix";
    case Mode::kInterop: return "interop";
    case Mode::kReverse: return "reverse";
    }
    return "?";
}

std::string enter_mode(Mode mode)
{
    const std::string dir = library_dir(mode);
    struct stat info;
    cr_assert_eq(::stat((dir + "/libpmix.so.2").c_str(), &info), 0,
                 "no libpmix.so.2 in '%s' (%s mode; OpenPMIx's comes with Debian's libpmix2)", dir.c_str(),
                 mode_name(mode));
    // pmixrun's RUNPATH ($ORIGIN/../lib) and the examples' yield to LD_LIBRARY_PATH.
    ::setenv("LD_LIBRARY_PATH", dir.c_str(), 1);
    current_mode = mode;
    if (mode == Mode::kOurs) {
        ::setenv("PMIX_MCA_mca_base_component_path", env("PMIXPP_BUILD_COMPONENT_DIR").c_str(), 1);
    } else {
        ::unsetenv("PMIX_MCA_mca_base_component_path");  // OpenPMIx finds its own
    }
    const std::string scratch = test_support::scratch_dir("pmixpp-examples");
    // launcher.c spawns `app`, which OpenPMIx does not ship: /bin/true stands in.
    const std::string bin = scratch + "/bin";
    cr_assert_eq(::mkdir(bin.c_str(), 0755), 0);
    cr_assert_eq(::symlink("/bin/true", (bin + "/app").c_str()), 0);
    ::setenv("PATH", (bin + ":" + env("PATH")).c_str(), 1);
    cr_assert_eq(::chdir(env("PMIXPP_EXAMPLES_BIN_DIR").c_str()), 0, "no examples built in '%s'",
                 env("PMIXPP_EXAMPLES_BIN_DIR").c_str());
    return scratch;
}

Outcome run_case(const ExampleCase &example, int ranks, const std::string &scratch, int seconds)
{
    // A fresh tmpdir per run: OpenPMIx's server removes the one it was given
    // (docs/openpmix-examples.md). Rendezvous files of any other server on
    // this node stay out of sight: OpenPMIx's tools refuse to choose.
    const std::string tmpdir = scratch + "/run-" + std::to_string(ranks);
    cr_assert_eq(::mkdir(tmpdir.c_str(), 0700), 0, "cannot create %s", tmpdir.c_str());
    for (const char *name : {"TMPDIR", "PMIX_SYSTEM_TMPDIR", "PMIX_SERVER_TMPDIR"}) ::setenv(name, tmpdir.c_str(), 1);
    return example.role == Role::kClient ? run_client(example, ranks, tmpdir, seconds)
                                         : run_tool(example, ranks, tmpdir, scratch, seconds);
}

std::vector<std::string> judge(const ExampleCase &example, int ranks, const Outcome &outcome, int seconds)
{
    std::vector<std::string> problems;
    if (outcome.timed_out) problems.push_back("did not end within " + std::to_string(seconds) + " s");
    if (!outcome.host_stopped) problems.push_back("its pmixrun did not end on SIGTERM within 15 s");
    if (outcome.code != example.exit_code) {
        problems.push_back("exit code " + std::to_string(outcome.code) + ", expected " +
                           std::to_string(example.exit_code));
    }
    for (const std::string &pattern : example.must) {
        const std::string expanded = with_placeholders(for_rank(pattern, 0, ranks), outcome, true);
        if (!matches(outcome.output, expanded)) problems.push_back("missing " + shown(expanded));
    }
    for (const std::string &pattern : example.per_rank) {
        for (int rank = 0; rank < ranks; ++rank) {
            const std::string expanded = with_placeholders(for_rank(pattern, rank, ranks), outcome, true);
            if (!matches(outcome.output, expanded)) problems.push_back("missing " + shown(expanded));
        }
    }
    for (const std::string &pattern : example.must_not) {
        std::smatch found;
        if (std::regex_search(outcome.output, found, std::regex(pattern))) {
            problems.push_back("has " + shown(pattern) + " (\"" + found.str() + "\")");
        }
    }
    return problems;
}

void run_and_judge(const char *name, Mode mode)
{
    const ExampleCase *example = find_case(name);
    cr_assert_not_null(example, "no row for %s in example_cases.cc", name);
    const std::string scratch = enter_mode(mode);
    for (int ranks : example->ranks) {
        const KnownFailure *known = known_failure(name, mode, ranks);
        const int seconds = known != nullptr && known->seconds > 0 ? known->seconds : kCaseSeconds;
        const Outcome outcome = run_case(*example, ranks, scratch, seconds);
        const std::vector<std::string> problems = judge(*example, ranks, outcome, seconds);
        std::string listed;
        for (const std::string &problem : problems) listed += "  " + problem + "\n";
        // The line that makes the per-case table in the test's output.
        std::fprintf(stderr, "example %-20s %-8s -n %d: %s\n", name, mode_name(mode), ranks,
                     verdict(problems.empty(), known).c_str());
        if (known != nullptr && problems.empty()) {
            // A warning, not a failure (and not cr_log_warn: Criterion fails the run on it).
            std::fprintf(stderr,
                         "WARNING: %s (%s, -n %d) now passes, remove it from known_failures() in "
                         "example_cases.cc\n",
                         name, mode_name(mode), ranks);
        } else if (known == nullptr) {
            cr_expect(problems.empty(), "%s (%s, -n %d):\n%s--- its output:\n%s%s%s", name, mode_name(mode), ranks,
                      listed.c_str(), outcome.output.c_str(), outcome.host_output.empty() ? "" : "--- pmixrun's:\n",
                      outcome.host_output.c_str());
        } else if (std::getenv("PMIXPP_EXAMPLES_VERBOSE") != nullptr) {
            std::fprintf(stderr, "%s--- its output:\n%s\n", listed.c_str(), outcome.output.c_str());
        }
    }
    test_support::remove_tree(scratch);
}

}  // namespace examples_test
