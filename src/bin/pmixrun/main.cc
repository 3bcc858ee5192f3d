// pmixrun: runs a job of one or more applications on this node under a PMIx
// server, the way mpirun / prterun do, using only the public server API.
// The steps: options; the programs must exist; signals are blocked and read
// from a signalfd (children get them unblocked); the server starts; the job
// is prepared (network setup, registration, local support) and launched;
// the supervisor runs it, and whatever it spawns, to the end; each job is
// deregistered as it ends and the server finalized (its session
// directories go with it).
#include "hwloc_plugins.h"
#include "launcher.h"
#include "options.h"
#include "runtime.h"
#include "server_setup.h"
#include "supervisor.h"

#include <pmix.h>
#include <pmixpp/util.hpp>

#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

using namespace pmixrun;

namespace {

int fail(const std::string &why, int code)
{
    std::fprintf(stderr, "pmixrun: %s\n", why.c_str());
    return code;
}

// SIGINT, SIGTERM, SIGHUP, SIGCHLD read from the returned signalfd; SIGPIPE
// blocked too, so a write to a closed pipe fails with EPIPE instead.
int block_signals()
{
    sigset_t read_these;
    sigemptyset(&read_these);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGCHLD}) sigaddset(&read_these, sig);
    sigset_t blocked = read_these;
    sigaddset(&blocked, SIGPIPE);
    if (::sigprocmask(SIG_BLOCK, &blocked, nullptr) != 0) return -1;
    return ::signalfd(-1, &read_these, SFD_CLOEXEC | SFD_NONBLOCK);
}

std::string local_hostname()
{
    char host[256] = "localhost";
    (void)::gethostname(host, sizeof host - 1);
    return host;
}

}  // namespace

int main(int argc, char **argv)
{
    Options options;
    std::string why;
    if (!parse_options(argc, argv, &options, &why)) return fail(why, 2);
    if (options.help) {
        std::fputs(usage_text().c_str(), stdout);
        return 0;
    }
    if (options.version) {
        std::printf("pmixrun (%s)\n", PMIx_Get_version());
        return 0;
    }
    for (const auto &[name, value] : options.mca) ::setenv(("PMIX_MCA_" + name).c_str(), value.c_str(), 1);
    leave_out_unneeded_hwloc_plugins();
    for (const AppSpec &app : options.apps) {
        std::string path;
        if (!resolve_program(app.argv[0], app.cwd, &path, &why)) return fail(why, 127);
    }
    const pmixpp::util::UniqueFd signal_fd(block_signals());
    if (!signal_fd) return fail("cannot set up signal handling", 1);

    HostEvents events;
    if (!events.ok()) return fail("cannot create the host's event pipe", 1);
    if (!start_server(options, &events, &why)) return fail(why, 1);
    Runtime runtime(options, local_hostname());
    int code = 0;
    std::vector<StdinFeed> stdin_feeds;
    if (!report_uri(options, &why) || !runtime.start_main_job(&stdin_feeds, &why)) {
        for (const StdinFeed &feed : stdin_feeds) ::close(feed.fd);
        code = fail(why, 1);
    } else {
        SupervisorSetup setup;
        setup.runtime = &runtime;
        setup.events = &events;
        setup.signal_fd = signal_fd.get();
        setup.stdin_feeds = std::move(stdin_feeds);
        setup.stdin_from_tool = options.stdin_from_tool;
        setup.timeout_seconds = options.timeout_seconds;
        code = supervise(setup);
    }
    stop_server();
    return code;
}
