// rendezvous files on disk: read_file's refusals, write_file (atomic, 0600),
// claim_file against live and dead owners, release_file, liveness.
#include "common/rendezvous/rendezvous.h"
#include "rendezvous/rdv_fixture.h"

#include <criterion/criterion.h>

#include <csignal>
#include <string>

#include <sys/wait.h>

using namespace pmixpp::rendezvous;

namespace {

Contact contact_of(pid_t pid, const std::string &start_time)
{
    Contact contact;
    contact.uris = {"usock:/nowhere/pmix-sock"};
    contact.server_nspace = "rdv-ns";
    contact.server_rank = 0;
    contact.library_version = "test";
    contact.pid = pid;
    contact.uid = geteuid();
    contact.gid = getegid();
    contact.start_time = start_time;
    return contact;
}

Contact own_contact()
{
    Contact contact = contact_of(0, "");
    fill_identity(&contact);
    return contact;
}

// A child that sleeps until killed (and dies with the test).
pid_t sleeping_child()
{
    const pid_t child = fork();
    cr_assert_geq(child, 0);
    if (child == 0) {
        for (;;) pause();
    }
    return child;
}

void stop_child(pid_t child)
{
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
}

pid_t exited_child()
{
    const pid_t child = fork();
    cr_assert_geq(child, 0);
    if (child == 0) _exit(0);
    return child;
}

struct Scratch {
    std::string dir = make_scratch();
    ~Scratch() { remove_scratch(dir); }
};

}  // namespace

Test(rendezvous_files, write_then_read)
{
    Scratch scratch;
    const std::string path = scratch.dir + "/pmix.sys.h";
    const mode_t old_mask = umask(0);
    std::string error;
    cr_assert_eq(write_file(path, own_contact(), &error), PMIX_SUCCESS, "%s", error.c_str());
    umask(old_mask);
    cr_expect_eq(mode_of(path), 0600u);
    Contact back;
    cr_assert_eq(read_file(path, &back, &error), PMIX_SUCCESS, "%s", error.c_str());
    cr_expect_eq(back.pid, getpid());
    cr_expect_eq(back.start_time, process_start_time(getpid()));
    // Replaces, and leaves no temp file behind.
    Contact other = own_contact();
    other.server_nspace = "replaced";
    cr_assert_eq(write_file(path, other, &error), PMIX_SUCCESS, "%s", error.c_str());
    cr_assert_eq(read_file(path, &back, &error), PMIX_SUCCESS);
    cr_expect_eq(back.server_nspace, "replaced");
    cr_expect(slurp(path).find("replaced") != std::string::npos);
    cr_expect(list_files(scratch.dir) == std::vector<std::string>{"pmix.sys.h"});
    cr_expect_eq(std::system(("test $(ls -A '" + scratch.dir + "' | wc -l) -eq 1").c_str()), 0);
}

Test(rendezvous_files, write_refuses_unformattable)
{
    Scratch scratch;
    Contact bad = own_contact();
    bad.uris = {"a;b\nc"};
    std::string error;
    cr_expect_eq(write_file(scratch.dir + "/pmix.x", bad, &error), PMIX_ERR_BAD_PARAM);
    cr_expect(!error.empty());
    cr_expect(!exists(scratch.dir + "/pmix.x"));
}

Test(rendezvous_files, read_refusals)
{
    Scratch scratch;
    const std::string good = scratch.dir + "/pmix.good";
    cr_assert_eq(write_file(good, own_contact(), nullptr), PMIX_SUCCESS);
    Contact contact;
    std::string error;
    cr_expect_eq(read_file(scratch.dir + "/missing", &contact, &error), PMIX_ERR_NOT_FOUND);

    const std::string link = scratch.dir + "/pmix.link";
    cr_assert_eq(symlink(good.c_str(), link.c_str()), 0);
    cr_expect_eq(read_file(link, &contact, &error), PMIX_ERR_NO_PERMISSIONS);
    cr_expect(error.find("symbolic link") != std::string::npos, "%s", error.c_str());

    const std::string fifo = scratch.dir + "/pmix.fifo";
    cr_assert_eq(mkfifo(fifo.c_str(), 0600), 0);
    cr_expect_eq(read_file(fifo, &contact, &error), PMIX_ERR_NO_PERMISSIONS);
    cr_expect_eq(read_file(scratch.dir, &contact, &error), PMIX_ERR_NO_PERMISSIONS);

    const std::string writable = scratch.dir + "/pmix.writable";
    put_text(writable, slurp(good), 0620);
    cr_expect_eq(read_file(writable, &contact, &error), PMIX_ERR_NO_PERMISSIONS);
    cr_expect(error.find("writable") != std::string::npos, "%s", error.c_str());

    const std::string big = scratch.dir + "/pmix.big";
    put_text(big, slurp(good) + std::string(65 * 1024, 'x'));
    cr_expect_eq(read_file(big, &contact, &error), PMIX_ERR_NO_PERMISSIONS);
    cr_expect(error.find("64 KiB") != std::string::npos, "%s", error.c_str());

    const std::string garbage = scratch.dir + "/pmix.garbage";
    put_text(garbage, "hello\n");
    cr_expect_eq(read_file(garbage, &contact, &error), PMIX_ERR_BAD_PARAM);
    cr_expect(error.find(garbage) != std::string::npos, "%s", error.c_str());
}

Test(rendezvous_files, claim_new_file)
{
    Scratch scratch;
    const std::string path = scratch.dir + "/pmix.sched.h";
    std::string error;
    cr_assert_eq(claim_file(path, own_contact(), &error), PMIX_SUCCESS, "%s", error.c_str());
    cr_expect_eq(mode_of(path), 0600u);
    cr_expect_eq(std::system(("test $(ls -A '" + scratch.dir + "' | wc -l) -eq 1").c_str()), 0);
}

Test(rendezvous_files, claim_refused_for_live_owner)
{
    Scratch scratch;
    const std::string path = scratch.dir + "/pmix.sys.h";
    const pid_t child = sleeping_child();
    const Contact live = contact_of(child, process_start_time(child));
    cr_assert_eq(write_file(path, live, nullptr), PMIX_SUCCESS);
    const std::string before = slurp(path);
    std::string error;
    cr_expect_eq(claim_file(path, own_contact(), &error), PMIX_ERR_EXISTS);
    cr_expect(error.find(std::to_string(child)) != std::string::npos, "%s", error.c_str());
    cr_expect(error.find(path) != std::string::npos, "%s", error.c_str());
    cr_expect_eq(slurp(path), before);
    stop_child(child);
}

Test(rendezvous_files, claim_reclaims_exited_owner)
{
    Scratch scratch;
    const std::string path = scratch.dir + "/pmix.sys.h";
    const pid_t child = exited_child();
    int status = 0;
    cr_assert_eq(waitpid(child, &status, 0), child);
    cr_assert_eq(write_file(path, contact_of(child, "12345"), nullptr), PMIX_SUCCESS);
    std::string error;
    cr_assert_eq(claim_file(path, own_contact(), &error), PMIX_SUCCESS, "%s", error.c_str());
    Contact now;
    cr_assert_eq(read_file(path, &now, nullptr), PMIX_SUCCESS);
    cr_expect_eq(now.pid, getpid());
}

Test(rendezvous_files, claim_reclaims_zombie_owner)
{
    Scratch scratch;
    const std::string path = scratch.dir + "/pmix.sys.h";
    const pid_t child = exited_child();
    // Not reaped yet: /proc still lists it, but it runs no more.
    const std::string started = process_start_time(child);
    cr_assert_eq(write_file(path, contact_of(child, started.empty() ? "1" : started), nullptr), PMIX_SUCCESS);
    for (int i = 0; i < 1000 && server_alive(contact_of(child, started)); ++i) usleep(10000);
    std::string error;
    cr_expect_eq(claim_file(path, own_contact(), &error), PMIX_SUCCESS, "%s", error.c_str());
    int status = 0;
    waitpid(child, &status, 0);
}

Test(rendezvous_files, claim_reclaims_reused_pid)
{
    Scratch scratch;
    const std::string path = scratch.dir + "/pmix.sysctrlr.h";
    const pid_t child = sleeping_child();
    const std::string wrong = std::to_string(std::stoull(process_start_time(child)) + 1);
    cr_assert_eq(write_file(path, contact_of(child, wrong), nullptr), PMIX_SUCCESS);
    std::string error;
    cr_expect_eq(claim_file(path, own_contact(), &error), PMIX_SUCCESS, "%s", error.c_str());
    stop_child(child);
}

Test(rendezvous_files, claim_leaves_foreign_file)
{
    Scratch scratch;
    const std::string path = scratch.dir + "/pmix.sys.h";
    put_text(path, "not ours\n");
    std::string error;
    cr_expect_eq(claim_file(path, own_contact(), &error), PMIX_ERR_EXISTS);
    cr_expect(error.find("not a pmixpp rendezvous file") != std::string::npos, "%s", error.c_str());
    cr_expect_eq(slurp(path), "not ours\n");
}

Test(rendezvous_files, release_only_own)
{
    Scratch scratch;
    const std::string mine = scratch.dir + "/pmix.mine";
    const std::string theirs = scratch.dir + "/pmix.theirs";
    cr_assert_eq(claim_file(mine, own_contact(), nullptr), PMIX_SUCCESS);
    cr_assert_eq(
        write_file(theirs, contact_of(1, process_start_time(1).empty() ? "1" : process_start_time(1)), nullptr),
        PMIX_SUCCESS);
    Contact wrong_start = own_contact();
    wrong_start.start_time += "0";
    const std::string stale_me = scratch.dir + "/pmix.stale";
    cr_assert_eq(write_file(stale_me, wrong_start, nullptr), PMIX_SUCCESS);
    release_file(mine);
    release_file(theirs);
    release_file(stale_me);
    release_file(scratch.dir + "/pmix.missing");
    cr_expect(!exists(mine));
    cr_expect(exists(theirs));
    cr_expect(exists(stale_me));
}

Test(rendezvous_files, process_identity)
{
    const std::string mine = process_start_time(getpid());
    cr_expect(!mine.empty());
    cr_expect_eq(process_start_time(getpid()), mine);
    cr_expect(process_start_time(0).empty());
    cr_expect(process_start_time(-5).empty());
    const pid_t child = exited_child();
    int status = 0;
    waitpid(child, &status, 0);
    cr_expect(process_start_time(child).empty());
    cr_expect(server_alive(own_contact()));
    cr_expect(!server_alive(contact_of(child, "1")));
    Contact me = own_contact();
    cr_expect_eq(me.uid, geteuid());
    cr_expect_eq(me.gid, getegid());
}

Test(rendezvous_files, list_only_regular_pmix_files)
{
    Scratch scratch;
    put_text(scratch.dir + "/pmix.b", "x");
    put_text(scratch.dir + "/pmix.a", "x");
    put_text(scratch.dir + "/other", "x");
    cr_assert_eq(mkdir((scratch.dir + "/pmix.dir").c_str(), 0700), 0);
    cr_assert_eq(symlink("/etc", (scratch.dir + "/pmix.link").c_str()), 0);
    const std::vector<std::string> names = list_files(scratch.dir);
    cr_expect(names == (std::vector<std::string>{"pmix.a", "pmix.b"}));
    cr_expect(list_files(scratch.dir + "/missing").empty());
}
