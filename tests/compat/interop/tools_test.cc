// Our tools against a server on Debian's OpenPMIx 4.2.2 (pmixrun run on its
// library): the tool finds the server by OpenPMIx's rendezvous files, or by
// a URI no file names, and speaks OpenPMIx's tool handshake
// (client/openpmix/handshake.cc). The tool is pmixpp_ps on our build tree's
// library; its trace lines (PMIX_MCA_pmix_client_verbose) come from our
// library alone and say how it found the server; the server's library is
// read from /proc/<pid>/maps.
#include "libpmix_proof.h"
#include "support/child_process.h"

#include <criterion/criterion.h>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

using test_support::Result;

namespace {

constexpr int kJobRanks = 2;

struct OpenPmixServer {
    pid_t pid = -1;
    std::string tmpdir;  // its --tmpdir, which OpenPMIx removes at its end
    std::string uri_file;
    std::string nspace;
    std::string log;
};

std::string our_lib()
{
    return std::string(std::getenv("PMIXPP_BUILD_DIR")) + "/lib";
}

std::string first_line_of(const std::string &path)
{
    for (int i = 0; i < 200; ++i) {
        const std::string text = test_support::read_text(path);
        const std::size_t end = text.find('\n');
        if (end != std::string::npos) return text.substr(0, end);
        ::usleep(50000);
    }
    return "";
}

// pmixrun on Debian's OpenPMIx with tool support, a job of two processes
// that write their namespace down and wait.
OpenPmixServer start_openpmix_server(const std::string &scratch)
{
    OpenPmixServer server;
    server.tmpdir = scratch + "/server";
    server.uri_file = scratch + "/uri";
    server.log = scratch + "/pmixrun.log";
    const std::string nspace_file = scratch + "/nspace";
    cr_assert_eq(::mkdir(server.tmpdir.c_str(), 0700), 0, "cannot create %s", server.tmpdir.c_str());
    server.pid =
        test_support::start("/usr/bin/env",
                            {"LD_LIBRARY_PATH=" + std::string(DEBIAN_PMIX_LIBDIR), "TMPDIR=" + server.tmpdir,
                             "PMIX_SYSTEM_TMPDIR=" + server.tmpdir, PMIXRUN, "--tmpdir", server.tmpdir, "--report-uri",
                             server.uri_file, "--timeout", "60", "-n", std::to_string(kJobRanks), "/bin/sh", "-c",
                             "echo \"$PMIX_NAMESPACE\" > " + nspace_file + "; exec sleep 60"},
                            server.log);
    server.nspace = first_line_of(nspace_file);
    cr_assert(!server.nspace.empty() && !first_line_of(server.uri_file).empty(),
              "pmixrun on OpenPMIx did not come up:\n%s", test_support::read_text(server.log).c_str());
    char library[4096];
    compat_libpmix_of(server.pid, library, sizeof library);
    cr_assert(std::string(library).rfind(DEBIAN_PMIX_LIBDIR, 0) == 0, "the server mapped %s, not Debian's OpenPMIx",
              library);
    return server;
}

void stop(const OpenPmixServer &server)
{
    ::kill(server.pid, SIGTERM);
    test_support::finish(server.pid, 30);
}

// pmixpp_ps on our library, with its tmpdirs at `tmpdir`.
Result run_ps(const std::string &tmpdir, const std::vector<std::string> &args)
{
    std::vector<std::string> argv = {"LD_LIBRARY_PATH=" + our_lib(),   "TMPDIR=" + tmpdir,
                                     "PMIX_SYSTEM_TMPDIR=" + tmpdir,   "PMIX_SERVER_TMPDIR=" + tmpdir,
                                     "PMIX_MCA_pmix_client_verbose=1", PMIXPP_PS};
    argv.insert(argv.end(), args.begin(), args.end());
    return test_support::run("/usr/bin/env", argv, "", 30);
}

// The job's ranks, one line each, as the OpenPMIx server's host knows them.
void expect_job_listed(const Result &result, const OpenPmixServer &server)
{
    cr_assert_eq(result.code, 0, "pmixpp_ps exited %d:\n%s%s", result.code, result.out.c_str(), result.err.c_str());
    const int listed = test_support::count_lines_with(result.out, server.nspace + " ");
    cr_expect_eq(listed, kJobRanks, "%d lines name the job %s, expected %d:\n%s", listed, server.nspace.c_str(),
                 kJobRanks, result.out.c_str());
}

}  // namespace

// PMIX_SERVER_PIDINFO: OpenPMIx names the file pmix.<host>.tool.<pid>.
Test(our_tools_on_openpmix_pmixrun, pmixpp_ps_by_pid, .timeout = 120)
{
    const std::string scratch = test_support::scratch_dir("pmixpp-interop-tools");
    const OpenPmixServer server = start_openpmix_server(scratch);
    const Result result = run_ps(server.tmpdir, {"--pid", std::to_string(server.pid), "--tmpdir", server.tmpdir});
    stop(server);
    expect_job_listed(result, server);
    const std::string file = ".tool." + std::to_string(server.pid);
    cr_expect(result.err.find("connecting to the server found in " + server.tmpdir) != std::string::npos &&
                  result.err.find(file) != std::string::npos,
              "pmixpp_ps did not say it found OpenPMIx's file pmix.<host>%s:\n%s", file.c_str(), result.err.c_str());
    test_support::remove_tree(scratch);
}

// Only a URI (pmixrun --report-uri), and no file in the tool's tmpdirs names
// it: the tool's hello is ours, the server closes on it, the tool greets it
// OpenPMIx's way.
Test(our_tools_on_openpmix_pmixrun, pmixpp_ps_by_a_uri_no_file_names, .timeout = 120)
{
    const std::string scratch = test_support::scratch_dir("pmixpp-interop-tools");
    const OpenPmixServer server = start_openpmix_server(scratch);
    const std::string elsewhere = scratch + "/elsewhere";
    cr_assert_eq(::mkdir(elsewhere.c_str(), 0700), 0);
    const Result result = run_ps(elsewhere, {"--uri", "@" + server.uri_file, "--tmpdir", elsewhere});
    stop(server);
    expect_job_listed(result, server);
    cr_expect(result.err.find("trying OpenPMIx's protocol") != std::string::npos,
              "pmixpp_ps did not say it tried OpenPMIx's protocol after ours:\n%s", result.err.c_str());
    test_support::remove_tree(scratch);
}
