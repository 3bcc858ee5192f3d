// The ptl conformance suite: every transport passes the same tests. Built
// once per transport (PMIXPP_PTL_UNDER_TEST, and PMIX_MCA_ptl in the test's
// environment), next to that transport's own cases.
#include "ptl/ptl_test_support.h"

#include <fcntl.h>
#include <set>
#include <sys/socket.h>

using namespace pmixpp::tests::ptl;

namespace {

void finalize()
{
    pmixpp::framework::finalize();
    remove_server_files();
}

}  // namespace

TestSuite(ptl, .fini = finalize);

Test(ptl, module_is_complete)
{
    const pmixpp_ptl_module_t *module = load_transport();
    cr_assert_geq(module->struct_size, sizeof(pmixpp_ptl_module_t));
    cr_assert_str_eq(module->name, transport_name());
    cr_assert(module->listen && module->close_listener && module->accept && module->handles_uri && module->connect);
}

Test(ptl, listen_connect_accept_identity)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, default_server_info());
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    cr_assert_geq(listening.count(), 1u);
    for (size_t i = 0; i < listening.count(); ++i) {
        const pmixpp_ptl_listener_t &listener = listening[i];
        cr_assert_geq(listener.fd, 0);
        cr_assert(fcntl(listener.fd, F_GETFD) & FD_CLOEXEC, "listener must be close-on-exec");
        cr_assert(fcntl(listener.fd, F_GETFL) & O_NONBLOCK, "listener must be non-blocking");
        cr_assert_eq(module->handles_uri(listener.uri), 1, "%s", listener.uri);
        expect_round_trip(module, listener);
    }
}

Test(ptl, accepted_fd_is_nonblocking_and_cloexec)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, default_server_info());
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    const std::string uri = listening[0].uri;
    const pid_t child = fork_child([&] { return client_ping(module, uri); });
    int fd = -1;
    pmixpp_peer_identity_t peer{};
    cr_assert_eq(accept_within(module, listening[0], &fd, &peer), PMIX_SUCCESS);
    cr_assert(fcntl(fd, F_GETFD) & FD_CLOEXEC);
    cr_assert(fcntl(fd, F_GETFL) & O_NONBLOCK);
    serve_ping(fd);
    close(fd);
    cr_assert_eq(wait_child(child), 0);
}

Test(ptl, client_fd_is_blocking_and_cloexec)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, default_server_info());
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    int fd = -1;
    cr_assert_eq(module->connect(listening[0].uri, 0, &fd), PMIX_SUCCESS);
    cr_assert(fcntl(fd, F_GETFD) & FD_CLOEXEC);
    cr_assert_not(fcntl(fd, F_GETFL) & O_NONBLOCK);
    close(fd);
}

// 6 clients with 4 connections each: every accepted connection carries the
// pid of the process that opened it, and the kernel names the same pid.
Test(ptl, many_connections_each_identified)
{
    constexpr int clients = 6;
    constexpr int connections_per_client = 4;
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, default_server_info());
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    const std::string uri = listening[0].uri;
    std::set<pid_t> children;
    for (int c = 0; c < clients; ++c) {
        children.insert(fork_child([&] {
            int fds[connections_per_client];
            for (int &fd : fds) {
                if (module->connect(uri.c_str(), 10000, &fd) != PMIX_SUCCESS) return 10;
            }
            const pid_t self = getpid();
            for (int fd : fds) {
                if (!write_all(fd, "ping", 4) || !write_all(fd, &self, sizeof(self))) return 11;
            }
            char reply[4];
            for (int fd : fds) {
                if (!read_exactly(fd, reply, 4) || std::memcmp(reply, "pong", 4) != 0) return 12;
            }
            return 0;
        }));
    }
    std::set<int> seen_fds;
    for (int i = 0; i < clients * connections_per_client; ++i) {
        int fd = -1;
        pmixpp_peer_identity_t peer{};
        pmix_status_t rc = PMIX_ERR_WOULD_BLOCK;
        while (rc == PMIX_ERR_WOULD_BLOCK) rc = accept_within(module, listening[0], &fd, &peer);
        cr_assert_eq(rc, PMIX_SUCCESS, "accept %d: %d", i, rc);
        cr_assert(seen_fds.insert(fd).second);
        complete_identity(module, fd, &peer, uri);
        const pid_t claimed = serve_ping(fd);
        cr_assert(children.count(claimed), "pid %d is not one of our clients", claimed);
        cr_assert_eq(peer.known, 1);
        cr_assert_eq(peer.pid_known, 1);
        cr_assert_eq(peer.pid, claimed, "kernel says %d, client says %d", peer.pid, claimed);
    }
    for (pid_t child : children) cr_assert_eq(wait_child(child), 0);
    for (int fd : seen_fds) close(fd);
}

// The identity comes from the kernel: a client running as another user is
// reported as that user, whatever it might claim.
Test(ptl, other_user_identified_by_kernel)
{
    if (geteuid() != 0) cr_skip_test("needs root to run a client as another user");
    const uid_t nobody = 65534;
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, default_server_info().uint32(PMIX_SOCKET_MODE, 0666));
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    const std::string uri = listening[0].uri;
    const pid_t child = fork_child([&] {
        if (setgid(nobody) != 0 || setuid(nobody) != 0) return 20;
        return client_ping(module, uri);
    });
    int fd = -1;
    pmixpp_peer_identity_t peer{};
    cr_assert_eq(accept_within(module, listening[0], &fd, &peer), PMIX_SUCCESS);
    complete_identity(module, fd, &peer, uri);
    cr_assert_eq(serve_ping(fd), child);
    cr_assert_eq(peer.known, 1);
    cr_assert_eq(peer.uid, nobody);
    cr_assert_eq(peer.gid, nobody);
    cr_assert_eq(peer.pid, child);
    close(fd);
    cr_assert_eq(wait_child(child), 0);
}

Test(ptl, accept_without_pending_connection_would_block)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, default_server_info());
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    int fd = -1;
    pmixpp_peer_identity_t peer{};
    cr_assert_eq(module->accept(&listening[0], &fd, &peer), PMIX_ERR_WOULD_BLOCK);
    cr_assert_eq(fd, -1, "fd_p must stay untouched on failure");
}

Test(ptl, foreign_and_garbage_uris_not_handled)
{
    const pmixpp_ptl_module_t *module = load_transport();
    const char *foreign = std::strcmp(transport_name(), "tcp") == 0 ? "usock:/tmp/x.sock" : "tcp4://127.0.0.1:5000";
    for (const char *uri : {foreign, "", "usock:", "usock:relative/path", "tcp4://127.0.0.1", "tcp4://300.1.1.1:5",
                            "tcp4://127.0.0.1:99999", "tcp6://::1:5000", "http://example.com", "pmix"}) {
        cr_assert_eq(module->handles_uri(uri), 0, "%s", uri);
        int fd = -1;
        cr_assert_eq(module->connect(uri, 100, &fd), PMIX_ERR_BAD_PARAM, "%s", uri);
    }
    cr_assert_eq(module->handles_uri(nullptr), 0);
}

Test(ptl, bad_arguments_get_bad_param)
{
    const pmixpp_ptl_module_t *module = load_transport();
    pmixpp_ptl_listener_t listeners[2];
    size_t n = 0;
    cr_assert_eq(module->listen(nullptr, 0, nullptr, 2, &n), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(module->listen(nullptr, 0, listeners, 0, &n), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(module->listen(nullptr, 0, listeners, 2, nullptr), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(module->listen(nullptr, 3, listeners, 2, &n), PMIX_ERR_BAD_PARAM);
    int fd = -1;
    pmixpp_peer_identity_t peer{};
    cr_assert_eq(module->accept(nullptr, &fd, &peer), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(module->connect(nullptr, 0, &fd), PMIX_ERR_BAD_PARAM);
    module->close_listener(nullptr);  // must not crash
}

Test(ptl, connect_after_close_fails)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, default_server_info());
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    const std::string uri = listening[0].uri;
    listening.close();
    int fd = -1;
    const pmix_status_t rc = module->connect(uri.c_str(), 1000, &fd);
    cr_assert_neq(rc, PMIX_SUCCESS, "connected to a closed listener %s", uri.c_str());
    cr_assert_eq(fd, -1);
}

Test(ptl, garbage_info_values_rejected)
{
    const pmixpp_ptl_module_t *module = load_transport();
    const std::vector<GarbageInfo> cases = garbage_info_cases();
    cr_assert_gt(cases.size(), 0u);
    for (const GarbageInfo &c : cases) {
        pmixpp_ptl_listener_t listeners[Listening::max_listeners];
        size_t n = 99;
        const pmix_status_t rc = module->listen(c.info.data(), c.info.size(), listeners, Listening::max_listeners, &n);
        cr_assert_eq(rc, c.expected, "%s: got %d, expected %d", c.what, rc, c.expected);
        cr_assert_eq(n, 99u, "%s: n_p must stay untouched on failure", c.what);
    }
}
