// Two separately started mpiruns meet through MPI_Publish_name /
// MPI_Lookup_name (Open MPI's ompi-server holds the names) and
// MPI_Comm_accept / MPI_Comm_connect.
#include "mpirun_runner.h"

#include <criterion/criterion.h>

#include <signal.h>
#include <unistd.h>

#include <string>

using namespace compat_test;
using test_support::has_line;
using test_support::read_text;

namespace {

// Waits (bounded) until `path` holds `text`: ompi-server's contact URI, the
// server job's "published" line (a lookup before the publish would fail).
bool wait_for_text(const std::string &path, const std::string &text, int seconds)
{
    for (int i = 0; i < seconds * 10; ++i) {
        if (read_text(path).find(text) != std::string::npos) return true;
        ::usleep(100000);
    }
    return false;
}

std::vector<std::string> with_name_server(const std::string &uri_file, std::vector<std::string> args)
{
    args.insert(args.begin(), {"--ompi-server", "file:" + uri_file});
    return args;
}

}  // namespace

Test(open_mpi, publish_lookup_accept_connect_between_two_jobs)
{
    const std::string dir = test_support::scratch_dir("pmixpp-compat");
    const std::string uri_file = dir + "/ompi-server.uri";
    const pid_t name_server =
        test_support::start(OMPI_SERVER, {"--no-daemonize", "-r", uri_file}, dir + "/ompi-server.log");
    cr_assert(wait_for_text(uri_file, ":", 30), "ompi-server wrote no URI:\n%s",
              read_text(dir + "/ompi-server.log").c_str());

    const std::string server_log = dir + "/server.log";
    const pid_t server = test_support::start(
        MPIRUN, with_name_server(uri_file, mpirun_args(2, program_path("accept_connect"), {"server"})), server_log);
    const bool published = wait_for_text(server_log, "server published", MPIRUN_TIMEOUT_SECONDS);
    const Result client = test_support::run(
        MPIRUN, with_name_server(uri_file, mpirun_args(2, program_path("accept_connect"), {"client"})), "",
        MPIRUN_TIMEOUT_SECONDS + 15);
    const int server_code = test_support::finish(server, MPIRUN_TIMEOUT_SECONDS + 15);
    ::kill(name_server, SIGTERM);
    test_support::finish(name_server, 15);
    const std::string server_out = read_text(server_log);
    test_support::remove_tree(dir);

    cr_assert(published, "the server job never published its port:\n%s", server_out.c_str());
    cr_assert_eq(client.code, 0, "client job exited %d:\n%s%s", client.code, client.out.c_str(), client.err.c_str());
    cr_assert_eq(server_code, 0, "server job exited %d:\n%s", server_code, server_out.c_str());
    // The client ranks contribute 0 + 1, the server ranks 1000 + 1001.
    cr_expect(has_line(client.out, "client 0: other side's sum 2001"), "%s", client.out.c_str());
    cr_expect(has_line(client.out, "client 1: other side's sum 2001"), "%s", client.out.c_str());
    cr_expect(has_line(server_out, "server 0: other side's sum 1"), "%s", server_out.c_str());
    cr_expect(has_line(server_out, "server 1: other side's sum 1"), "%s", server_out.c_str());
    expect_our_libpmix(client.out, "client", 2);
    expect_our_libpmix(server_out, "server", 2);
}
