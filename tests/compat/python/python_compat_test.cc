// Debian's python3-pmix (Cython bindings built against OpenPMIx 4.2.2) runs on
// our libpmix.so.2: client.py under pmixrun -n 4 exchanges a value
// with every peer through put/commit/fence/get, and host.py hosts a PMIx
// server of its own that forks client.py. Each script prints the
// libpmix.so.2 it has mapped; every run must show ours, from this build.
// calls.py goes through more of the client calls the bindings offer;
// tool_iof.py is a Python tool that pulls a rank's output and feeds its
// stdin through pmixrun.
#include "support/child_process.h"

#include <criterion/criterion.h>

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int kClientRanks = 4;
constexpr int kDeadlineSeconds = 90;

using test_support::lines_of;

struct Run {
    int code = -1;  // exit code, or 128+signal
    std::string out;
    std::string err;
};

// The program in a process group of its own, bounded by `seconds` (then the
// whole group is killed and the test fails).
Run run(const std::vector<std::string> &args, int seconds = kDeadlineSeconds)
{
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    const test_support::Result result = test_support::run(args[0].c_str(), rest, "", seconds);
    cr_assert(!result.timed_out, "%s did not end within %d s; output:\n%s\nerrors:\n%s", args[1].c_str(), seconds,
              result.out.c_str(), result.err.c_str());
    return {result.code, result.out, result.err};
}

// A line that ends with `text` (pmixrun --tag-output puts "[nspace:rank] "
// in front of each).
bool has_line_ending(const std::string &out, const std::string &text)
{
    for (const std::string &line : lines_of(out)) {
        if (line.size() >= text.size() && line.compare(line.size() - text.size(), text.size(), text) == 0) {
            return true;
        }
    }
    return false;
}

// The path after `prefix` on the line that contains it.
std::string value_after(const std::string &out, const std::string &prefix)
{
    for (const std::string &line : lines_of(out)) {
        const std::size_t at = line.find(prefix);
        if (at != std::string::npos) return line.substr(at + prefix.size());
    }
    return "";
}

std::string real_path(const std::string &path)
{
    char resolved[PATH_MAX];
    return ::realpath(path.c_str(), resolved) != nullptr ? resolved : path;
}

// The library mapped by the process that printed `prefix` is ours.
void expect_our_library(const std::string &out, const std::string &prefix)
{
    const std::string path = value_after(out, prefix);
    const std::string lib_dir = real_path(std::string(BUILD_DIR) + "/lib") + "/";
    cr_expect(real_path(path).rfind(lib_dir, 0) == 0, "'%s' mapped libpmix.so.2 from '%s', not from this build (%s)",
              prefix.c_str(), path.c_str(), lib_dir.c_str());
}

// The library mapped by the process that printed `prefix` is Debian's
// OpenPMIx (as python3-pmix loads it without LD_LIBRARY_PATH).
void expect_openpmix_library(const std::string &out, const std::string &prefix)
{
    const std::string path = real_path(value_after(out, prefix));
    cr_expect(path.find("/libpmix.so") != std::string::npos && path.find(BUILD_DIR) == std::string::npos &&
                  path.rfind("/usr/lib/", 0) == 0,
              "'%s' mapped libpmix.so.2 from '%s', not Debian's OpenPMIx", prefix.c_str(), path.c_str());
}

void require_bindings()
{
    const Run probe = run({PYTHON, "-c", "import pmix"}, 30);
    cr_assert_eq(probe.code, 0,
                 "%s cannot import the python3-pmix bindings (%s): apt-get install python3-pmix; "
                 "scripts/test.sh installs it",
                 PYTHON, probe.err.c_str());
}

std::string dump(const Run &r)
{
    return "output:\n" + r.out + "\nerrors:\n" + r.err;
}

// Each server its own directories: Criterion runs these tests side by side,
// and other servers may run on this machine.
std::string g_tmp;

void make_tmp()
{
    g_tmp = test_support::scratch_dir("python-compat");
}

void drop_tmp()
{
    if (!g_tmp.empty()) test_support::remove_tree(g_tmp);
}

}  // namespace

TestSuite(python_compat, .init = make_tmp, .fini = drop_tmp, .timeout = 110);

void expect_client_exchange(const Run &r, bool on_openpmix)
{
    for (int rank = 0; rank < kClientRanks; ++rank) {
        const std::string me = "rank " + std::to_string(rank);
        if (on_openpmix) {
            expect_openpmix_library(r.out, me + " libpmix ");
        } else {
            expect_our_library(r.out, me + " libpmix ");
        }
        cr_expect(has_line_ending(r.out, me + " job size " + std::to_string(kClientRanks) + " rc 0"),
                  "%s did not read the job size; %s", me.c_str(), dump(r).c_str());
        for (int peer = 0; peer < kClientRanks; ++peer) {
            const std::string line = me + " got value-from-" + std::to_string(peer) + " from " + std::to_string(peer);
            cr_expect(has_line_ending(r.out, line), "missing '%s'; %s", line.c_str(), dump(r).c_str());
        }
        cr_expect(has_line_ending(r.out, me + " all checks passed"), "%s failed a check; %s", me.c_str(),
                  dump(r).c_str());
    }
}

// python3-pmix as Debian ships it, on Debian's OpenPMIx (no LD_LIBRARY_PATH
// for the ranks), under pmixrun on ours: OpenPMIx's wire protocol.
Test(python_compat, client_on_openpmix_under_our_pmixrun)
{
    require_bindings();
    const Run r = run({PMIXRUN, "--tmpdir", g_tmp, "--tag-output", "--timeout", "60", "-n",
                       std::to_string(kClientRanks), "-x", "LD_LIBRARY_PATH=", PYTHON, CLIENT_PY});
    cr_expect_eq(r.code, 0, "pmixrun -n %d python3 client.py on OpenPMIx exited with %d; %s", kClientRanks, r.code,
                 dump(r).c_str());
    expect_client_exchange(r, true);
}

// And the other way round: python3-pmix on our library under pmixrun on
// Debian's OpenPMIx, whose server speaks only OpenPMIx's protocol
// (src/client/openpmix/).
Test(python_compat, client_on_ours_under_openpmix_pmixrun)
{
    require_bindings();
    const std::string openpmix_lib = "LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/pmix2/lib";
    const std::string our_lib = "LD_LIBRARY_PATH=" + std::string(BUILD_DIR) + "/lib";
    const Run r = run({"/usr/bin/env", openpmix_lib.c_str(), PMIXRUN, "--tmpdir", g_tmp, "--tag-output", "--timeout",
                       "60", "-n", std::to_string(kClientRanks), "-x", our_lib, PYTHON, CLIENT_PY});
    cr_expect_eq(r.code, 0, "pmixrun (on OpenPMIx) -n %d python3 client.py on ours exited with %d; %s", kClientRanks,
                 r.code, dump(r).c_str());
    expect_client_exchange(r, false);
}

Test(python_compat, client_exchanges_values_with_every_peer_under_pmixrun)
{
    require_bindings();
    const Run r = run({PMIXRUN, "--tmpdir", g_tmp, "--tag-output", "--timeout", "60", "-n",
                       std::to_string(kClientRanks), PYTHON, CLIENT_PY});
    cr_expect_eq(r.code, 0, "pmixrun -n %d python3 client.py exited with %d; %s", kClientRanks, r.code,
                 dump(r).c_str());
    for (int rank = 0; rank < kClientRanks; ++rank) {
        const std::string me = "rank " + std::to_string(rank);
        expect_our_library(r.out, me + " libpmix ");
        cr_expect(has_line_ending(r.out, me + " job size " + std::to_string(kClientRanks) + " rc 0"),
                  "%s did not read the job size; %s", me.c_str(), dump(r).c_str());
        for (int peer = 0; peer < kClientRanks; ++peer) {
            const std::string line = me + " got value-from-" + std::to_string(peer) + " from " + std::to_string(peer);
            cr_expect(has_line_ending(r.out, line), "missing '%s'; %s", line.c_str(), dump(r).c_str());
        }
        cr_expect(has_line_ending(r.out, me + " finalize rc 0"), "%s did not finalize; %s", me.c_str(),
                  dump(r).c_str());
        cr_expect(has_line_ending(r.out, me + " all checks passed"), "%s failed a check; %s", me.c_str(),
                  dump(r).c_str());
    }
    cr_expect(r.out.find("FAILED") == std::string::npos, "%s", dump(r).c_str());
}

Test(python_compat, python_host_registers_a_job_and_forks_a_client)
{
    require_bindings();
    const Run r = run({PYTHON, HOST_PY, "--timeout", "60", "--tmpdir", g_tmp, PYTHON, CLIENT_PY});
    cr_expect_eq(r.code, 0, "python3 host.py exited with %d; %s", r.code, dump(r).c_str());
    expect_our_library(r.out, "host: libpmix ");
    expect_our_library(r.out, "rank 0 libpmix ");
    for (const char *line :
         {"host: server init rc 0", "host: setup_fork rc 0", "host: client connected pycompat:0",
          "rank 0 nspace pycompat", "rank 0 job size 1 rc 0", "rank 0 fence rc 0", "rank 0 got value-from-0 from 0",
          "rank 0 all checks passed", "host: client finalized pycompat:0", "host: client exited with status 0",
          "host: server finalize rc 0", "host: all checks passed"}) {
        cr_expect(has_line_ending(r.out, line), "missing '%s'; %s", line, dump(r).c_str());
    }
    cr_expect(r.out.find("FAILED") == std::string::npos, "%s", dump(r).c_str());
}

Test(python_compat, more_client_calls_under_pmixrun)
{
    require_bindings();
    const Run r = run({PMIXRUN, "--tmpdir", g_tmp, "--timeout", "60", "-n", "1", PYTHON, CALLS_PY});
    cr_expect_eq(r.code, 0, "pmixrun -n 1 python3 calls.py exited with %d; %s", r.code, dump(r).c_str());
    expect_our_library(r.out, "libpmix ");
    for (const char *call : {"initialized",    "get_version",    "error_string",       "get_attribute_name",
                             "get hostname",   "resolve_peers",  "resolve_nodes",      "query namespaces",
                             "publish",        "lookup",         "unpublish",          "log",
                             "connect",        "disconnect",     "allocation_request", "get_cpuset",
                             "monitor",        "monitor cancel", "fabric_register",    "group_construct",
                             "group_destruct", "group_invite",   "group_join",         "group_destruct invited",
                             "finalize"}) {
        cr_expect(r.out.find(std::string("\n") + call + ": ") != std::string::npos, "no answer from %s; %s", call,
                  dump(r).c_str());
    }
    cr_expect(has_line_ending(r.out, "all calls passed"), "%s", dump(r).c_str());
    cr_expect(r.out.find("FAILED") == std::string::npos, "%s", dump(r).c_str());
}

// A Python tool (PMIxTool) pulls rank 1's stdout and pushes its stdin:
// pmixrun --stdin 1 --stdin-tool hands the push to rank 1's pipe.
Test(python_compat, python_tool_pulls_output_and_pushes_stdin)
{
    require_bindings();
    const Run r = run({PMIXRUN, "--tmpdir", g_tmp, "--timeout", "60", "--stdin", "1", "--stdin-tool", "-n", "2", PYTHON,
                       TOOL_IOF_PY});
    cr_expect_eq(r.code, 0, "pmixrun python3 tool_iof.py exited with %d; %s", r.code, dump(r).c_str());
    expect_our_library(r.out, "tool libpmix ");
    for (const char *line : {"tool: init: 0", "tool: iof_push: 0", "tool: all steps passed"}) {
        cr_expect(has_line_ending(r.out, line), "missing '%s'; %s", line, dump(r).c_str());
    }
    cr_expect(r.out.find("tool: pulled: py-out 0|") != std::string::npos, "%s", dump(r).c_str());
    cr_expect(r.out.find("tool: stdin delivered: ") != std::string::npos, "%s", dump(r).c_str());
    cr_expect(r.out.find("FAILED") == std::string::npos, "%s", dump(r).c_str());
}
