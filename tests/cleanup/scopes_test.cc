// Targets and triggers of registered cleanup (server/cleanup/server_cleanup.h)
// on a Server object that runs no progress thread: which scope a request
// lands in, and that each scope runs once, when its process or every local
// client of its namespace has terminated.
#include "cleanup/temp_tree.h"
#include "server/cleanup/server_cleanup.h"
#include "server/state/server.h"

#include <criterion/criterion.h>

#include <unistd.h>

using namespace pmixpp;
using namespace pmixpp::cleanup_test;

namespace {

constexpr const char *kJob = "cleanup-job";

pmix_proc_t proc(const char *nspace, pmix_rank_t rank)
{
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, nspace, rank);
    return p;
}

// A server whose namespace kJob has local clients 0 and 1.
struct Fixture {
    server::Server server{runtime::ProgressEngine::process()};
    TempTree tree;

    Fixture()
    {
        server::Namespace &ns = server.namespace_entry(kJob);
        ns.registered = true;
        ns.clients[0].uid = getuid();
        ns.clients[1].uid = getuid();
    }
    ~Fixture() { cleanup::on_finalize(server); }

    pmix_status_t register_file(const pmix_proc_t &requester, std::vector<pmix_proc_t> targets, const std::string &path,
                                std::string *why_p = nullptr)
    {
        pmix_info_t info;
        PMIX_INFO_LOAD(&info, PMIX_REGISTER_CLEANUP, path.c_str(), PMIX_STRING);
        std::string why;
        const pmix_status_t rc =
            cleanup::register_request(server, requester, cleanup::Owner{getuid(), getgid()}, targets, &info, 1, &why);
        PMIX_INFO_DESTRUCT(&info);
        if (why_p != nullptr) *why_p = why;
        return rc;
    }

    void ended(pmix_rank_t rank)
    {
        server.find_namespace(kJob)->gone.insert(rank);
        cleanup::on_client_gone(server, proc(kJob, rank));
    }
};

}  // namespace

Test(cleanup_scopes, a_self_registration_runs_when_that_process_ends)
{
    Fixture f;
    f.tree.file("r0");
    cr_assert_eq(f.register_file(proc(kJob, 0), {proc(kJob, 0)}, f.tree.path("r0")), PMIX_SUCCESS);
    f.ended(1);
    cr_expect(exists(f.tree.path("r0")), "another process ending does not run it");
    f.ended(0);
    cr_expect_not(exists(f.tree.path("r0")));
    cr_expect_eq(cleanup::pending_scopes(f.server), 0u);
}

Test(cleanup_scopes, no_target_means_the_requesters_namespace_after_its_last_client)
{
    Fixture f;
    f.tree.file("job-file");
    cr_assert_eq(f.register_file(proc(kJob, 0), {}, f.tree.path("job-file")), PMIX_SUCCESS);
    f.ended(0);
    cr_expect(exists(f.tree.path("job-file")), "rank 1 still runs");
    f.ended(1);
    cr_expect_not(exists(f.tree.path("job-file")));
}

Test(cleanup_scopes, a_wildcard_target_is_the_namespace)
{
    Fixture f;
    f.tree.file("job-file");
    cr_assert_eq(f.register_file(proc(kJob, 1), {proc(kJob, PMIX_RANK_WILDCARD)}, f.tree.path("job-file")),
                 PMIX_SUCCESS);
    f.ended(1);
    cr_expect(exists(f.tree.path("job-file")));
    // The host deregistering the other client counts as its termination.
    f.server.find_namespace(kJob)->clients.erase(0);
    cleanup::on_client_deregistered(f.server, proc(kJob, 0));
    cr_expect_not(exists(f.tree.path("job-file")));
}

Test(cleanup_scopes, other_targets_are_refused_with_a_reason)
{
    Fixture f;
    std::string why;
    cr_expect_eq(f.register_file(proc(kJob, 0), {proc(kJob, 1)}, f.tree.path("x"), &why), PMIX_ERR_BAD_PARAM);
    cr_expect(why.find("cleanup-job.1") != std::string::npos, "why: %s", why.c_str());
    cr_expect_eq(f.register_file(proc(kJob, 0), {proc("unknown-job", PMIX_RANK_WILDCARD)}, f.tree.path("x"), &why),
                 PMIX_ERR_BAD_PARAM);
    cr_expect_eq(f.register_file(proc(kJob, 0), {proc(kJob, 0), proc(kJob, 1)}, f.tree.path("x"), &why),
                 PMIX_ERR_BAD_PARAM, "one bad target refuses the request");
    cr_expect_eq(cleanup::pending_scopes(f.server), 0u, "nothing of a refused request is kept");
}

// Another job's namespace is not the requester's to change, even one this
// server knows: its removals and its ignore rules would reach that job's
// cleanup.
Test(cleanup_scopes, another_known_namespace_is_refused)
{
    Fixture f;
    server::Namespace &other = f.server.namespace_entry("other-job");
    other.registered = true;
    other.clients[0].uid = getuid();
    f.tree.file("theirs");
    std::string why;
    cr_expect_eq(f.register_file(proc(kJob, 0), {proc("other-job", PMIX_RANK_WILDCARD)}, f.tree.path("theirs"), &why),
                 PMIX_ERR_BAD_PARAM);
    cr_expect(why.find("other-job") != std::string::npos && why.find("its own namespace") != std::string::npos,
              "why: %s", why.c_str());
    cr_expect_eq(cleanup::pending_scopes(f.server), 0u);
}

// What no job can mean is refused at registration, in one line naming the
// path and the rule (only the check runs here: nothing is ever cleaned).
Test(cleanup_scopes, shared_directories_are_refused_at_registration)
{
    Fixture f;
    for (const char *path : {"/tmp/./", "/tmp", "/var//tmp/", "/dev/shm"}) {
        pmix_info_t info;
        PMIX_INFO_LOAD(&info, PMIX_REGISTER_CLEANUP_DIR, path, PMIX_STRING);
        std::string why;
        const pmix_status_t rc =
            cleanup::register_request(f.server, proc(kJob, 0), cleanup::Owner{getuid(), getgid()}, {}, &info, 1, &why);
        PMIX_INFO_DESTRUCT(&info);
        cr_expect_eq(rc, PMIX_ERR_NO_PERMISSIONS, "%s: %d", path, rc);
        cr_expect(why.find("every user shares") != std::string::npos, "%s: %s", path, why.c_str());
    }
    cr_expect_eq(cleanup::pending_scopes(f.server), 0u);
}

Test(cleanup_scopes, a_scope_runs_once)
{
    Fixture f;
    f.tree.file("r0");
    cr_assert_eq(f.register_file(proc(kJob, 0), {proc(kJob, 0)}, f.tree.path("r0")), PMIX_SUCCESS);
    f.ended(0);
    f.tree.file("r0");  // made again after the process ended: not ours to remove any more
    f.server.find_namespace(kJob)->clients.erase(0);
    cleanup::on_client_deregistered(f.server, proc(kJob, 0));
    cr_expect(exists(f.tree.path("r0")));
}

Test(cleanup_scopes, deregistering_the_namespace_or_finalizing_runs_what_is_pending)
{
    Fixture f;
    f.tree.file("self0");
    f.tree.file("job-file");
    cr_assert_eq(f.register_file(proc(kJob, 0), {proc(kJob, 0)}, f.tree.path("self0")), PMIX_SUCCESS);
    cr_assert_eq(f.register_file(proc(kJob, 0), {}, f.tree.path("job-file")), PMIX_SUCCESS);
    cleanup::on_nspace_deregistered(f.server, kJob);
    cr_expect_not(exists(f.tree.path("self0")));
    cr_expect_not(exists(f.tree.path("job-file")));

    f.tree.file("late");
    cr_assert_eq(f.register_file(proc(kJob, 1), {proc(kJob, 1)}, f.tree.path("late")), PMIX_SUCCESS);
    cleanup::on_finalize(f.server);
    cr_expect_not(exists(f.tree.path("late")));
}

Test(cleanup_scopes, conflicts_are_judged_within_the_target_scope)
{
    Fixture f;
    pmix_info_t info[2];
    PMIX_INFO_LOAD(&info[0], PMIX_REGISTER_CLEANUP_DIR, "/tmp/x", PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_CLEANUP_IGNORE, "/tmp/y", PMIX_STRING);
    std::string why;
    const cleanup::Owner owner{getuid(), getgid()};
    cr_assert_eq(cleanup::register_request(f.server, proc(kJob, 0), owner, {}, info, 2, &why), PMIX_SUCCESS);
    cr_expect_eq(f.register_file(proc(kJob, 1), {}, "/tmp/y", &why), PMIX_ERR_CONFLICTING_CLEANUP_DIRECTIVES,
                 "the namespace scope ignores /tmp/y");
    cr_expect_eq(f.register_file(proc(kJob, 1), {proc(kJob, 1)}, "/tmp/y", &why), PMIX_SUCCESS,
                 "the process scope of rank 1 does not");
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
}
