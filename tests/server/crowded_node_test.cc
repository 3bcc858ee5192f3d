// A crowded node: another local user floods the
// server's tcp listener, and a flood of silent connections takes every
// descriptor the server has. Beside each attack a rank of a real job must
// be served, and at finalize nothing may be left in the server's tmpdir.
// The flooders are forked processes; the tcp one runs as user nobody.
#include "server/server_fixture.h"

#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace server_test;
using namespace pmixpp;

namespace {

constexpr uid_t kNobody = 65534;
constexpr int kTcpFlood = 3000;
constexpr size_t kUidLimit = 256;  // PMIX_MCA_ptl_base_max_connections_per_uid in CMake

std::string g_tmpdir;

void setup()
{
    g_tmpdir = make_tmpdir();
    start_server(g_tmpdir);
    register_job(kJob, 2);
}

void teardown()
{
    PMIx_server_finalize();
}

// For the tests that read the server's warnings. (Their suite has no .init
// of its own: a test's .init runs after its suite's.)
void logged_setup()
{
    cr_redirect_stderr();
    setup();
}

std::string uri_of(const char *scheme)
{
    std::string uris = fork_env(kJob, 0)["PMIXPP_SERVER_URIS"] + ";";
    for (size_t start = 0, end; (end = uris.find(';', start)) != std::string::npos; start = end + 1) {
        const std::string uri = uris.substr(start, end - start);
        if (uri.rfind(scheme, 0) == 0) return uri;
    }
    cr_assert_fail("the server offers no %s URI (it offers %s)", scheme, uris.c_str());
    return {};
}

int connect_tcp(const std::string &uri)  // "tcp4://127.0.0.1:port"
{
    const std::string rest = uri.substr(std::strlen("tcp4://"));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(std::stoi(rest.substr(rest.rfind(':') + 1))));
    inet_pton(AF_INET, rest.substr(0, rest.rfind(':')).c_str(), &address.sin_addr);
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) == 0) return fd;
    if (fd >= 0) close(fd);
    return -1;
}

int connect_usock(const std::string &uri)  // "usock:/path"
{
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, uri.c_str() + 6, sizeof(address.sun_path) - 1);
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) == 0) return fd;
    if (fd >= 0) close(fd);
    return -1;
}

// Connections the server closed on us: readable with nothing to read.
int count_closed_by_server(const std::vector<int> &fds)
{
    int closed = 0;
    for (int fd : fds) {
        pollfd entry{fd, POLLIN, 0};
        char byte = 0;
        if (poll(&entry, 1, 0) == 1 && recv(fd, &byte, 1, MSG_DONTWAIT) == 0) ++closed;
    }
    return closed;
}

struct Flooder {
    pid_t pid = -1;
    int report = -1;  // the child writes its counts here
    int hold = -1;    // closing it ends the child
};

// A child that opens `count` connections with `open` (as user `uid` when
// not root), says how many it opened, waits `settle`, says how many the
// server closed, and holds the rest until `hold` is closed.
template <typename Open> Flooder start_flooder(int count, uid_t uid, std::chrono::milliseconds settle, Open open)
{
    int report[2];
    int hold[2];
    cr_assert_eq(pipe(report), 0);
    cr_assert_eq(pipe(hold), 0);
    const pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        close(report[0]);
        close(hold[1]);
        const rlim_t wanted = static_cast<rlim_t>(count) + 64;
        rlimit limit{wanted, wanted};
        setrlimit(RLIMIT_NOFILE, &limit);
        if (uid != 0 && (setgid(uid) != 0 || setuid(uid) != 0)) _exit(3);
        std::vector<int> fds;
        for (int i = 0; i < count; ++i) {
            const int fd = open();
            if (fd >= 0) fds.push_back(fd);
        }
        int counts[2] = {static_cast<int>(fds.size()), 0};
        std::this_thread::sleep_for(settle);
        counts[1] = count_closed_by_server(fds);
        if (write(report[1], counts, sizeof(counts)) != static_cast<ssize_t>(sizeof(counts))) _exit(4);
        char byte = 0;
        (void)read(hold[0], &byte, 1);
        _exit(0);
    }
    close(report[1]);
    close(hold[0]);
    return Flooder{pid, report[0], hold[1]};
}

void read_counts(const Flooder &flooder, int *opened_p, int *closed_p)
{
    int counts[2] = {0, 0};
    cr_assert_eq(read(flooder.report, counts, sizeof(counts)), static_cast<ssize_t>(sizeof(counts)),
                 "the flooder died");
    *opened_p = counts[0];
    *closed_p = counts[1];
}

void end_flooder(const Flooder &flooder)
{
    close(flooder.hold);
    close(flooder.report);
    int status = 0;
    waitpid(flooder.pid, &status, 0);
}

// True once this process (the server's) has descriptors to spare again
// (8: the client's socket, the server's end, and room) and keeps them for
// 300 ms, within 30 s. The server closes the connections of an ended flood
// as it reads their ends, on its own thread, and the flood's connections
// still in the listener's backlog are accepted (each taking a descriptor
// until its end is read) in bursts after each 100 ms pause: a single look
// can fall between two bursts.
bool wait_for_a_free_descriptor()
{
    constexpr int kStableLooks = 15;  // x 20 ms
    int stable = 0;
    for (int i = 0; i < 1500; ++i) {
        std::vector<int> fds;
        for (int k = 0; k < 8; ++k) {
            const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
            if (fd < 0) break;
            fds.push_back(fd);
        }
        const bool spare = fds.size() == 8;
        for (int fd : fds) ::close(fd);
        stable = spare ? stable + 1 : 0;
        if (stable == kStableLooks) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

void serve_rank(pmix_rank_t rank, int requests)
{
    RawClient client;
    cr_assert_eq(client.hello(kJob, rank, nullptr), PMIX_SUCCESS);
    for (int tag = 1; tag <= requests; ++tag) {
        wire::GetRequest get;
        std::strcpy(get.proc.nspace, kJob);
        get.proc.rank = PMIX_RANK_WILDCARD;
        get.key = PMIX_JOB_SIZE;
        client.request(static_cast<uint32_t>(tag), get);
        cr_assert_eq(client.reply<wire::GetReply>().status, PMIX_SUCCESS);
    }
}

int count_lines_with(FILE *stream, const char *text)
{
    int lines = 0;
    char line[4096];
    while (std::fgets(line, sizeof(line), stream) != nullptr) {
        if (std::strstr(line, text) != nullptr) ++lines;
    }
    return lines;
}

std::vector<std::string> entries_of(const std::string &dir)
{
    std::vector<std::string> names;
    DIR *listing = opendir(dir.c_str());
    if (listing == nullptr) return names;
    while (const dirent *entry = readdir(listing)) {
        if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) {
            names.emplace_back(entry->d_name);
        }
    }
    closedir(listing);
    return names;
}

// The soft limit only: the flooder (forked later) raises its own again.
// Not under ASan+UBSan: with no descriptor left, UBSan's check of a
// pointer's dynamic type cannot probe memory (it writes it into a pipe) and
// reports any shared_ptr as "invalid vptr". The server runs in this
// process, so those tests run in the plain build only.
void lower_descriptor_limit(rlim_t soft)
{
#if defined(PMIXPP_UNDER_ASAN)
    cr_skip_test("out of descriptors, UBSan's vptr check cannot read memory (false reports)");
#endif
    rlimit limit{};
    cr_assert_eq(getrlimit(RLIMIT_NOFILE, &limit), 0);
    limit.rlim_cur = soft;
    cr_assert_eq(setrlimit(RLIMIT_NOFILE, &limit), 0);
}

double cpu_seconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// 400 silent connections of a flooder to a server left 96 descriptors: it
// runs out of them. The flooder holds its connections until end_flooder.
Flooder exhaust_descriptors()
{
    const std::string usock = uri_of("usock:");
    lower_descriptor_limit(96);
    const Flooder flooder = start_flooder(400, 0, std::chrono::milliseconds(300), [&] { return connect_usock(usock); });
    int opened = 0;
    int closed = 0;
    read_counts(flooder, &opened, &closed);
    cr_assert_eq(opened, 400);
    return flooder;
}

void expect_empty_tmpdir()
{
    const std::vector<std::string> left = entries_of(g_tmpdir);
    cr_assert(left.empty(), "finalize left %zu entries in the tmpdir, first %s", left.size(),
              left.empty() ? "" : left[0].c_str());
}

}  // namespace

TestSuite(server_crowded_node, .init = setup, .fini = teardown, .timeout = 120);

// Another user's 3,000 connections: 256 are held (the per-uid limit), the
// rest are closed at accept, the warning is one line a second with a count,
// and the job's rank is served meanwhile.
Test(server_crowded_node_logged, a_tcp_flood_of_another_user_is_capped_and_the_job_is_served, .init = logged_setup,
     .fini = teardown, .timeout = 120)
{
    const std::string tcp = uri_of("tcp4://");
    const Flooder flooder =
        start_flooder(kTcpFlood, kNobody, std::chrono::milliseconds(2000), [&] { return connect_tcp(tcp); });
    serve_rank(0, 200);
    int opened = 0;
    int closed = 0;
    read_counts(flooder, &opened, &closed);
    cr_assert_eq(opened, kTcpFlood, "the flooder could open only %d connections", opened);
    cr_assert_geq(closed, kTcpFlood - static_cast<int>(kUidLimit),
                  "the server closed %d of %d connections of one uid over a limit of %zu", closed, opened, kUidLimit);
    cr_assert_leq(closed, kTcpFlood - static_cast<int>(kUidLimit) + 1, "the server closed %d, more than over the limit",
                  closed);
    serve_rank(1, 50);
    end_flooder(flooder);
    PMIx_server_finalize();
    std::fflush(stderr);
    const int warnings = count_lines_with(cr_get_redirected_stderr(), "refused a tcp connection of uid 65534");
    cr_assert_geq(warnings, 1, "the refusals were not reported");
    cr_assert_leq(warnings, 8, "%d warning lines for one flood: not rate-limited", warnings);
}

// Out of descriptors, the listener waits instead of spinning on the
// connection it cannot take, takes connections again once descriptors are
// free, and finalize still removes everything.
Test(server_crowded_node_logged, out_of_descriptors_the_listener_pauses_and_nothing_is_left_behind,
     .init = logged_setup, .fini = teardown, .timeout = 120)
{
    const Flooder flooder = exhaust_descriptors();
    // Out of descriptors now: one second of it must not cost a second of CPU.
    const double before = cpu_seconds();
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const double spent = cpu_seconds() - before;
    cr_assert_lt(spent, 0.5, "the server spent %.2f s of CPU in 1 s with no descriptor left", spent);
    end_flooder(flooder);
    // Its connections are gone once the server has seen them close (a
    // moment, longer under TSan): then the listener takes the job's rank.
    cr_assert(wait_for_a_free_descriptor(), "the server kept the flood's descriptors after it ended");
    serve_rank(0, 10);
    PMIx_server_finalize();
    expect_empty_tmpdir();
    std::fflush(stderr);
    const int warnings = count_lines_with(cr_get_redirected_stderr(), "out of file descriptors");
    cr_assert_geq(warnings, 1);
    cr_assert_leq(warnings, 8, "%d warning lines: not rate-limited", warnings);
}

// Finalize while every descriptor is taken: peers close first, so the
// session tree and the socket still go.
Test(server_crowded_node, finalize_out_of_descriptors_leaves_nothing_behind)
{
    const Flooder flooder = exhaust_descriptors();
    PMIx_server_finalize();
    end_flooder(flooder);
    expect_empty_tmpdir();
}
