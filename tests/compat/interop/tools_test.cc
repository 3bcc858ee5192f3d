// Tools across the libraries. OpenPMIx 4.2.2's own tools (Debian's
// libpmix-bin: pps, pattrs) against pmixrun on ours: they find it by the
// OpenPMIx files our server writes (server/rendezvous/openpmix_files.h).
// Our tools against a server on Debian's OpenPMIx (pmixrun run on its
// library): the tool finds the server by OpenPMIx's rendezvous files, or by
// a URI no file names, and speaks OpenPMIx's tool handshake
// (client/openpmix/handshake.cc). Our tool is pmixpp_ps on our build tree's
// library; its trace lines (PMIX_MCA_pmix_client_verbose) come from our
// library alone and say how it found the server. A server's library is
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

struct Server {
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

// pmixrun with tool and system-server support on the library in
// `library_dir`, a job of two processes that write their namespace down and
// wait.
Server start_server(const std::string &scratch, const std::string &library_dir)
{
    Server server;
    server.tmpdir = scratch + "/server";
    server.uri_file = scratch + "/uri";
    server.log = scratch + "/pmixrun.log";
    const std::string nspace_file = scratch + "/nspace";
    cr_assert_eq(::mkdir(server.tmpdir.c_str(), 0700), 0, "cannot create %s", server.tmpdir.c_str());
    server.pid = test_support::start(
        "/usr/bin/env",
        {"LD_LIBRARY_PATH=" + library_dir, "TMPDIR=" + server.tmpdir, "PMIX_SYSTEM_TMPDIR=" + server.tmpdir, PMIXRUN,
         "--system-server", "--tmpdir", server.tmpdir, "--report-uri", server.uri_file, "--timeout", "60", "-n",
         std::to_string(kJobRanks), "/bin/sh", "-c", "echo \"$PMIX_NAMESPACE\" > " + nspace_file + "; exec sleep 60"},
        server.log);
    server.nspace = test_support::wait_for_first_line(nspace_file);
    cr_assert(!server.nspace.empty() && !test_support::wait_for_first_line(server.uri_file).empty(),
              "pmixrun on %s did not come up:\n%s", library_dir.c_str(), test_support::read_text(server.log).c_str());
    char library[4096];
    compat_libpmix_of(server.pid, library, sizeof library);
    cr_assert(std::string(library).rfind(library_dir + "/libpmix.so", 0) == 0, "the server mapped %s, not %s's",
              library, library_dir.c_str());
    return server;
}

Server start_openpmix_server(const std::string &scratch)
{
    return start_server(scratch, DEBIAN_PMIX_LIBDIR);
}

void stop(const Server &server)
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
void expect_job_listed(const Result &result, const Server &server)
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
    const Server server = start_openpmix_server(scratch);
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
    const Server server = start_openpmix_server(scratch);
    const std::string elsewhere = scratch + "/elsewhere";
    cr_assert_eq(::mkdir(elsewhere.c_str(), 0700), 0);
    const Result result = run_ps(elsewhere, {"--uri", "@" + server.uri_file, "--tmpdir", elsewhere});
    stop(server);
    expect_job_listed(result, server);
    cr_expect(result.err.find("trying OpenPMIx's protocol") != std::string::npos,
              "pmixpp_ps did not say it tried OpenPMIx's protocol after ours:\n%s", result.err.c_str());
    test_support::remove_tree(scratch);
}

// ---- OpenPMIx's tools, pmixrun on ours

namespace {

// Debian's tool, on Debian's library (no LD_LIBRARY_PATH), tmpdirs at `tmpdir`.
Result run_openpmix_tool(const char *tool, const std::string &tmpdir, const std::vector<std::string> &args)
{
    std::vector<std::string> argv = {"LD_LIBRARY_PATH=", "TMPDIR=" + tmpdir, "PMIX_SYSTEM_TMPDIR=" + tmpdir,
                                     "PMIX_SERVER_TMPDIR=" + tmpdir, std::string("/usr/bin/") + tool};
    argv.insert(argv.end(), args.begin(), args.end());
    return test_support::run("/usr/bin/env", argv, "", 30);
}

// A line of the tool's output that starts with `name` (pattrs pads them).
bool names(const Result &result, const std::string &name)
{
    for (const std::string &line : test_support::lines_of(result.out + result.err)) {
        if (line.rfind(name, 0) == 0 && line.find_first_not_of(" \t", name.size()) == std::string::npos) return true;
    }
    return false;
}

}  // namespace

// pps with no target finds the system server (pmix.sys.<host>), with --pid
// OpenPMIx's pmix.<host>.tool.<pid>; both list the job.
Test(openpmix_tools_on_pmixrun, pps_finds_and_lists_the_job, .timeout = 120)
{
    const std::string scratch = test_support::scratch_dir("pmixpp-interop-tools");
    const Server server = start_server(scratch, our_lib());
    const Result found = run_openpmix_tool("pps", server.tmpdir, {});
    const Result by_pid = run_openpmix_tool("pps", server.tmpdir, {"--pid", std::to_string(server.pid)});
    stop(server);
    for (const Result *result : {&found, &by_pid}) {
        cr_expect_eq(result->code, 0, "pps exited %d:\n%s%s", result->code, result->out.c_str(), result->err.c_str());
        cr_expect((result->out + result->err).find("Active nspaces: " + server.nspace) != std::string::npos,
                  "pps did not list %s:\n%s%s", server.nspace.c_str(), result->out.c_str(), result->err.c_str());
    }
    test_support::remove_tree(scratch);
}

// pattrs asks the server's host which functions and attributes it supports
// (PMIX_QUERY_ATTRIBUTE_SUPPORT through OpenPMIx's query command).
Test(openpmix_tools_on_pmixrun, pattrs_lists_client_and_server_functions, .timeout = 120)
{
    const std::string scratch = test_support::scratch_dir("pmixpp-interop-tools");
    const Server server = start_server(scratch, our_lib());
    const Result client =
        run_openpmix_tool("pattrs", server.tmpdir, {"--pid", std::to_string(server.pid), "--client-fns"});
    const Result host =
        run_openpmix_tool("pattrs", server.tmpdir, {"--pid", std::to_string(server.pid), "--server-fns"});
    stop(server);
    cr_expect_eq(client.code, 0, "pattrs --client-fns exited %d:\n%s%s", client.code, client.out.c_str(),
                 client.err.c_str());
    cr_expect(names(client, "PMIx_Init") && names(client, "PMIx_Fence"), "pattrs --client-fns:\n%s%s",
              client.out.c_str(), client.err.c_str());
    cr_expect_eq(host.code, 0, "pattrs --server-fns exited %d:\n%s%s", host.code, host.out.c_str(), host.err.c_str());
    cr_expect(names(host, "PMIx_server_register_nspace"), "pattrs --server-fns:\n%s%s", host.out.c_str(),
              host.err.c_str());
    test_support::remove_tree(scratch);
}
