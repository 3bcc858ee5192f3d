// More of the client against the scripted fake server: PMIx_Get(peer, NULL)
// after a collecting fence stays local (PMIX_GET_REFRESH_CACHE asks the
// server), Resolve_peers/nodes of an unknown namespace ask the server, a
// forked child cannot use its parent's session, and PMIx_Finalize's wait
// for the server is bounded by PMIX_MCA_pmix_client_finalize_timeout.
#include <criterion/criterion.h>

#include <pmix.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "client/fake_server.h"

using namespace client_test;
using namespace pmixpp;

namespace {

constexpr const char *kForeign = "foreign.job";

struct Behaviour {
    bool answer_finalize = true;
};

std::string hostname_directive(const wire::GetRequest &get)
{
    for (const auto &info : get.directives) {
        if (std::strncmp(info.key, PMIX_HOSTNAME, PMIX_MAX_KEYLEN) == 0 && info.value.type == PMIX_STRING) {
            return info.value.data.string;
        }
    }
    return "";
}

void answer_get(FakeServer &server, int fd, uint32_t tag, const wire::GetRequest &get)
{
    {
        std::lock_guard lock(server.mutex);
        server.get_keys.push_back(get.key + "@" + get.proc.nspace + "/" + hostname_directive(get));
    }
    wire::GetReply reply;
    (void)reply.data.allocate(1);
    if (get.key == PMIX_LOCAL_PEERS) {
        PMIX_INFO_LOAD(&reply.data[0], PMIX_LOCAL_PEERS, "4,6", PMIX_STRING);
    } else if (get.key == PMIX_NODE_LIST) {
        PMIX_INFO_LOAD(&reply.data[0], PMIX_NODE_LIST, "nodeA,nodeB", PMIX_STRING);
    } else {
        std::string key = get.key.empty() ? "fence.key" : get.key;
        PMIX_INFO_LOAD(&reply.data[0], key.c_str(), "fresh-from-server", PMIX_STRING);
    }
    server.reply(fd, tag, reply);
}

FakeServer::Script serve(Behaviour behaviour)
{
    return [behaviour](FakeServer &server, int fd) {
        if (!server.read_hello(fd) || !server.send_welcome(fd, 0)) {
            return;
        }
        wire::Frame frame;
        wire::Command cmd{};
        while (server.read_request(fd, &frame, &cmd)) {
            uint32_t tag = frame.header.tag;
            if (cmd == wire::Command::Get) {
                wire::GetRequest get;
                (void)wire::decode_payload(frame.payload, &get);
                answer_get(server, fd, tag, get);
            } else if (cmd == wire::Command::Fence) {
                std::vector<wire::ProcData> procs(1);
                PMIX_LOAD_PROCID(&procs[0].proc, kJobNspace, 1);
                (void)procs[0].info.allocate(1);
                PMIX_INFO_LOAD(&procs[0].info[0], "fence.key", "collected", PMIX_STRING);
                wire::FenceReply reply;
                (void)wire::encode_modex(procs, &reply.data);
                server.reply(fd, tag, reply);
            } else if (cmd == wire::Command::Finalize) {
                if (behaviour.answer_finalize) {
                    server.reply(fd, tag, wire::StatusReply{});
                    return;
                }
                // Silent: keep the connection until the client closes it.
            } else {
                wire::StatusReply unsupported;
                unsupported.status = PMIX_ERR_NOT_SUPPORTED;
                server.reply(fd, tag, unsupported);
            }
        }
    };
}

size_t gets(FakeServer &server)
{
    std::lock_guard lock(server.mutex);
    return static_cast<size_t>(std::count(server.commands.begin(), server.commands.end(), wire::Command::Get));
}

// The string under key in a PMIX_DATA_ARRAY of PMIX_INFO, "" when absent.
std::string find_in(const pmix_value_t *all, const char *key)
{
    if (all == nullptr || all->type != PMIX_DATA_ARRAY || all->data.darray->type != PMIX_INFO) {
        return "";
    }
    const auto *items = static_cast<const pmix_info_t *>(all->data.darray->array);
    for (size_t i = 0; i < all->data.darray->size; ++i) {
        if (std::strncmp(items[i].key, key, PMIX_MAX_KEYLEN) == 0) {
            return string_of(&items[i].value);
        }
    }
    return "";
}

}  // namespace

Test(client_connected_more, null_key_get_after_collecting_fence_is_local)
{
    FakeServer server;
    server.run(serve({}));
    pmix_proc_t me;
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    bool yes = true;
    pmix_info_t collect;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    cr_assert_eq(PMIx_Fence(nullptr, 0, &collect, 1), PMIX_SUCCESS);
    PMIX_INFO_DESTRUCT(&collect);

    pmix_proc_t peer;
    PMIX_LOAD_PROCID(&peer, kJobNspace, 1);
    pmix_value_t *all = nullptr;
    cr_assert_eq(PMIx_Get(&peer, nullptr, nullptr, 0, &all), PMIX_SUCCESS);
    std::string found = find_in(all, "fence.key");
    cr_assert_str_eq(found.c_str(), "collected");
    PMIX_VALUE_RELEASE(all);
    cr_assert_eq(gets(server), 0u, "the fence brought everything: no server round trip");

    pmix_info_t refresh;
    PMIX_INFO_LOAD(&refresh, PMIX_GET_REFRESH_CACHE, &yes, PMIX_BOOL);
    cr_assert_eq(PMIx_Get(&peer, nullptr, &refresh, 1, &all), PMIX_SUCCESS);
    PMIX_INFO_DESTRUCT(&refresh);
    found = find_in(all, "fence.key");
    cr_assert_str_eq(found.c_str(), "fresh-from-server");
    PMIX_VALUE_RELEASE(all);
    cr_assert_eq(gets(server), 1u);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    server.join();
}

Test(client_connected_more, null_key_get_without_fence_asks_server)
{
    FakeServer server;
    server.run(serve({}));
    pmix_proc_t me;
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    pmix_proc_t peer;
    PMIX_LOAD_PROCID(&peer, kJobNspace, 1);
    pmix_value_t *all = nullptr;
    cr_assert_eq(PMIx_Get(&peer, nullptr, nullptr, 0, &all), PMIX_SUCCESS);
    PMIX_VALUE_RELEASE(all);
    cr_assert_eq(gets(server), 1u);
    // The everything-answer is cached: the second one is local.
    cr_assert_eq(PMIx_Get(&peer, nullptr, nullptr, 0, &all), PMIX_SUCCESS);
    std::string found = find_in(all, "fence.key");
    cr_assert_str_eq(found.c_str(), "fresh-from-server");
    PMIX_VALUE_RELEASE(all);
    cr_assert_eq(gets(server), 1u);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    server.join();
}

Test(client_connected_more, resolve_unknown_namespace_asks_server)
{
    FakeServer server;
    server.run(serve({}));
    pmix_proc_t me;
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);

    pmix_proc_t *procs = nullptr;
    size_t nprocs = 0;
    cr_assert_eq(PMIx_Resolve_peers("nodeB", kForeign, &procs, &nprocs), PMIX_SUCCESS);
    cr_assert_eq(nprocs, 2u);
    cr_assert_str_eq(procs[0].nspace, kForeign);
    cr_assert_eq(procs[0].rank, 4u);
    cr_assert_eq(procs[1].rank, 6u);
    PMIX_PROC_FREE(procs, nprocs);

    char *nodes = nullptr;
    cr_assert_eq(PMIx_Resolve_nodes(kForeign, &nodes), PMIX_SUCCESS);
    cr_assert_str_eq(nodes, "nodeA,nodeB");
    free(nodes);

    // Our own job is known locally: no request.
    cr_assert_eq(PMIx_Resolve_nodes(kJobNspace, &nodes), PMIX_SUCCESS);
    free(nodes);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    server.join();
    cr_assert_eq(server.get_keys.size(), 2u);
    std::string peers_request = std::string(PMIX_LOCAL_PEERS) + "@" + kForeign + "/nodeB";
    std::string nodes_request = std::string(PMIX_NODE_LIST) + "@" + kForeign + "/";
    cr_assert_str_eq(server.get_keys[0].c_str(), peers_request.c_str());
    cr_assert_str_eq(server.get_keys[1].c_str(), nodes_request.c_str());
}

namespace {

// The child's checks, as an exit code (Criterion asserts do not work there).
int child_checks()
{
    if (PMIx_Initialized() != 0) return 10;
    pmix_value_t *val = nullptr;
    pmix_proc_t peer;
    PMIX_LOAD_PROCID(&peer, kJobNspace, 1);
    if (PMIx_Get(&peer, "peer.key", nullptr, 0, &val) != PMIX_ERR_INIT) return 11;
    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, "x", PMIX_STRING);
    pmix_status_t put = PMIx_Put(PMIX_GLOBAL, "child.key", &v);
    PMIX_VALUE_DESTRUCT(&v);
    if (put != PMIX_ERR_INIT) return 12;
    if (PMIx_Fence(nullptr, 0, nullptr, 0) != PMIX_ERR_INIT) return 13;
    if (PMIx_Finalize(nullptr, 0) != PMIX_ERR_INIT) return 14;
    // A fresh start works (as a singleton: the parent's server is its own).
    for (const char *name : {"PMIXPP_SERVER_URIS", "PMIX_SERVER_URI41", "PMIX_NAMESPACE", "PMIX_RANK"}) {
        unsetenv(name);
    }
    pmix_proc_t me;
    if (PMIx_Init(&me, nullptr, 0) != PMIX_SUCCESS) return 15;
    if (std::strncmp(me.nspace, "singleton.", 10) != 0) return 16;
    if (PMIx_Finalize(nullptr, 0) != PMIX_SUCCESS) return 17;
    return 0;
}

}  // namespace

Test(client_connected_more, forked_child_cannot_use_the_parent_session)
{
#if defined(PMIXPP_UNDER_TSAN) || defined(PMIXPP_UNDER_ASAN)
    // The case is a fork without exec of a process whose progress thread
    // runs, and a child that then starts threads of its own. TSan does not
    // support that ("starting new threads after multi-threaded fork is not
    // supported") and stops the child; GCC 12's ASan may hang the child on an
    // allocator lock a parent thread held at the fork (it has no fork
    // handler; see engine/forked_child_starts_its_own_engine). glibc's malloc
    // is fork-safe, so the normal build runs it.
    cr_skip_test("a sanitizer's runtime cannot run a child that starts threads after a multithreaded fork");
#endif
    FakeServer server;
    server.run(serve({}));
    pmix_proc_t me;
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    pid_t child = fork();
    cr_assert_geq(child, 0);
    if (child == 0) {
        _exit(child_checks());
    }
    int status = 0;
    cr_assert_eq(waitpid(child, &status, 0), child);
    cr_assert(WIFEXITED(status));
    cr_assert_eq(WEXITSTATUS(status), 0, "child check %d failed", WEXITSTATUS(status));

    // The parent's session is untouched.
    pmix_proc_t peer;
    PMIX_LOAD_PROCID(&peer, kJobNspace, 1);
    pmix_value_t *val = nullptr;
    cr_assert_eq(PMIx_Get(&peer, "some.key", nullptr, 0, &val), PMIX_SUCCESS);
    PMIX_VALUE_RELEASE(val);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    server.join();
    cr_assert_eq(gets(server), 1u);
}

Test(client_connected_more, finalize_wait_is_bounded_by_its_param)
{
    setenv("PMIX_MCA_pmix_client_finalize_timeout", "0.1", 1);
    FakeServer server;
    server.run(serve(Behaviour{false}));
    pmix_proc_t me;
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Initialized(), 0);
    server.join();  // the client closed its end: the script saw EOF
    std::lock_guard lock(server.mutex);
    cr_assert_eq(std::count(server.commands.begin(), server.commands.end(), wire::Command::Finalize), 1);
}
