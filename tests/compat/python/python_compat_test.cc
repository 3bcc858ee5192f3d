// Debian's python3-pmix (Cython bindings built against OpenPMIx 4.2.2) runs on
// our libpmix.so.2 (issue 8): client.py under pmixrun -n 4 exchanges a value
// with every peer through put/commit/fence/get, and host.py hosts a PMIx
// server of its own that forks client.py. Each script prints the
// libpmix.so.2 it has mapped; every run must show ours, from this build.
// calls.py goes through more of the client calls the bindings offer.
#include <criterion/criterion.h>

#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int kClientRanks = 4;
constexpr int kDeadlineSeconds = 90;

struct Run {
    int code = -1;  // exit code, or 128+signal
    std::string out;
    std::string err;
};

int code_of(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

// The program in a process group of its own, with stdout and stderr read
// until both close or `seconds` pass; then the whole group is killed.
Run run(const std::vector<std::string> &args, int seconds = kDeadlineSeconds)
{
    std::vector<char *> argv;
    for (const std::string &arg : args) argv.push_back(const_cast<char *>(arg.c_str()));
    argv.push_back(nullptr);
    int out[2], err[2];
    cr_assert_eq(::pipe(out), 0);
    cr_assert_eq(::pipe(err), 0);
    const pid_t pid = ::fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        ::setpgid(0, 0);
        const int null = ::open("/dev/null", O_RDONLY);
        ::dup2(null, 0);
        ::dup2(out[1], 1);
        ::dup2(err[1], 2);
        for (int fd : {null, out[0], out[1], err[0], err[1]}) ::close(fd);
        ::execv(argv[0], argv.data());
        _exit(126);
    }
    ::setpgid(pid, pid);
    ::close(out[1]);
    ::close(err[1]);
    Run result;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    int fds_open = 2;
    while (fds_open > 0 && std::chrono::steady_clock::now() < deadline) {
        pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
        if (::poll(fds, 2, 200) <= 0) continue;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) continue;
            char buffer[4096];
            const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
            if (n > 0) {
                (i == 0 ? result.out : result.err).append(buffer, static_cast<std::size_t>(n));
            } else {
                ::close(fds[i].fd);
                (i == 0 ? out[0] : err[0]) = -1;
                --fds_open;
            }
        }
    }
    const bool timed_out = fds_open > 0;
    int status = 0;
    for (int i = 0; i < 100 && ::waitpid(pid, &status, WNOHANG) != pid; ++i) {
        if (i == 0 && timed_out) ::kill(-pid, SIGKILL);
        ::usleep(50000);
        if (i == 99) {
            ::kill(-pid, SIGKILL);
            ::waitpid(pid, &status, 0);
        }
    }
    for (int fd : {out[0], err[0]}) {
        if (fd >= 0) ::close(fd);
    }
    cr_assert(!timed_out, "%s did not end within %d s; output:\n%s\nerrors:\n%s", args[1].c_str(), seconds,
              result.out.c_str(), result.err.c_str());
    result.code = code_of(status);
    return result;
}

std::vector<std::string> lines_of(const std::string &text)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
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
    cr_expect(real_path(path).rfind(lib_dir, 0) == 0,
              "'%s' mapped libpmix.so.2 from '%s', not from this build (%s)", prefix.c_str(), path.c_str(),
              lib_dir.c_str());
}

void require_bindings()
{
    const Run probe = run({PYTHON, "-c", "import pmix"}, 30);
    cr_assert_eq(probe.code, 0,
                 "%s cannot import the python3-pmix bindings (%s): apt-get install python3-pmix; "
                 "scripts/test.sh installs it",
                 PYTHON, probe.err.c_str());
}

std::string dump(const Run &r) { return "output:\n" + r.out + "\nerrors:\n" + r.err; }

// Each server its own directories: Criterion runs these tests side by side,
// and other servers may run on this machine.
std::string g_tmp;

void make_tmp()
{
    char pattern[] = "/tmp/python-compat.XXXXXX";
    const char *dir = ::mkdtemp(pattern);
    cr_assert_not_null(dir);
    g_tmp = dir;
}

int remove_entry(const char *path, const struct stat *, int, struct FTW *) { return ::remove(path); }

void drop_tmp()
{
    if (!g_tmp.empty()) (void)::nftw(g_tmp.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

}  // namespace

TestSuite(python_compat, .init = make_tmp, .fini = drop_tmp, .timeout = 110);

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
    for (const char *line : {"host: server init rc 0", "host: setup_fork rc 0", "host: client connected pycompat:0",
                             "rank 0 nspace pycompat", "rank 0 job size 1 rc 0", "rank 0 fence rc 0",
                             "rank 0 got value-from-0 from 0", "rank 0 all checks passed",
                             "host: client finalized pycompat:0", "host: client exited with status 0",
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
    for (const char *call : {"initialized", "get_version", "error_string", "get_attribute_name", "get hostname",
                             "resolve_peers", "resolve_nodes", "query namespaces", "publish", "lookup", "unpublish",
                             "log", "connect", "disconnect", "allocation_request", "group_construct", "finalize"}) {
        cr_expect(r.out.find(std::string("\n") + call + ": ") != std::string::npos, "no answer from %s; %s", call,
                  dump(r).c_str());
    }
    cr_expect(has_line_ending(r.out, "all calls passed"), "%s", dump(r).c_str());
    cr_expect(r.out.find("FAILED") == std::string::npos, "%s", dump(r).c_str());
}
