// Several servers on one node: exclusive files (system server, scheduler,
// system controller) refused while held by a live server and reclaimed from
// a dead one; the leftovers of a kill -9'd server reaped at the next start;
// nothing of a live server, another uid or another program touched.
#include "rendezvous/rdv_support.h"

#include <criterion/criterion.h>

#include <csignal>
#include <string>

#include <fcntl.h>
#include <sys/wait.h>

namespace {

const std::string kHostFlag = std::string("host=") + kHost;

std::string session_dir_of(const std::string &dir, pid_t pid, uid_t uid = geteuid())
{
    return dir + "/pmix-session." + std::to_string(uid) + "." + std::to_string(pid);
}

pid_t dead_pid()
{
    const pid_t child = fork();
    cr_assert_geq(child, 0);
    if (child == 0) _exit(0);
    int status = 0;
    waitpid(child, &status, 0);
    return child;
}

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

// stderr of fn, captured through a file.
template <typename Fn> std::string stderr_of(const std::string &scratch, Fn &&fn)
{
    const std::string path = scratch + "/stderr.txt";
    const int file = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int saved = dup(STDERR_FILENO);
    dup2(file, STDERR_FILENO);
    fn();
    dup2(saved, STDERR_FILENO);
    close(saved);
    close(file);
    const std::string text = slurp(path);
    unlink(path.c_str());
    return text;
}

void expect_second_refused(const char *child_flag, const char *attribute, const std::string &name)
{
    TmpDirs dirs;
    ServerChild first(dirs, {child_flag, "tool", kHostFlag});
    cr_assert_eq(first.first_line(), "ready");
    const std::string path = dirs.system + "/" + name;
    const std::string before = slurp(path);
    cr_assert_eq(field(before, "pid"), std::to_string(first.pid()));

    const std::string launcher = dirs.root + "/launch/contact";
    pmix_info_t extra;
    PMIX_INFO_LOAD(&extra, PMIX_LAUNCHER_RENDEZVOUS_FILE, launcher.c_str(), PMIX_STRING);
    pmix_status_t rc = PMIX_SUCCESS;
    const std::string log = stderr_of(dirs.root, [&] {
        rc = init_server(dirs, {PMIX_SERVER_TOOL_SUPPORT, attribute}, {extra});
    });
    cr_expect_eq(rc, PMIX_ERR_EXISTS, "%s", PMIx_Error_string(rc));
    cr_expect(log.find(path) != std::string::npos, "log: %s", log.c_str());
    cr_expect(log.find(std::to_string(first.pid())) != std::string::npos, "log: %s", log.c_str());
    cr_expect(log.find("stop that server") != std::string::npos, "log: %s", log.c_str());
    // Nothing of the refused server is left; the first is unaffected.
    const std::string own_pid = "." + std::to_string(getpid());
    for (const std::string &entry : names_in(dirs.server)) {
        cr_expect(entry.find(own_pid) == std::string::npos, "left behind: %s", entry.c_str());
    }
    cr_expect(!exists(dirs.root + "/launch"), "the launcher directory was left");
    cr_expect_eq(slurp(path), before);
    cr_expect_eq(kill(first.pid(), 0), 0);
    cr_expect_eq(first.stop(), 0);
    cr_expect(!exists(path), "the first server did not remove its file");
}

}  // namespace

Test(rendezvous_multi, second_system_server_refused)
{
    expect_second_refused("system", PMIX_SERVER_SYSTEM_SUPPORT, std::string("pmix.sys.") + kHost);
}

Test(rendezvous_multi, second_scheduler_refused)
{
    expect_second_refused("sched", PMIX_SERVER_SCHEDULER, std::string("pmix.sched.") + kHost);
}

Test(rendezvous_multi, second_controller_refused)
{
    expect_second_refused("ctrlr", PMIX_SERVER_SYS_CONTROLLER, std::string("pmix.sysctrlr.") + kHost);
}

Test(rendezvous_multi, second_session_server_refused)
{
    TmpDirs dirs;
    ServerChild first(dirs, {"session", kHostFlag});
    cr_assert_eq(first.first_line(), "ready");
    cr_expect_eq(init_server(dirs, {PMIX_SERVER_SESSION_SUPPORT}), PMIX_ERR_EXISTS);
    cr_expect_eq(field(slurp(dirs.server + "/pmix.sys." + kHost), "pid"), std::to_string(first.pid()));
}

Test(rendezvous_multi, killed_server_leftovers_reaped)
{
    TmpDirs dirs;
    ServerChild victim(dirs, {"system", "tool", "sched", "job", kHostFlag, "nspace=victim"});
    cr_assert_eq(victim.first_line(), "ready");
    const pid_t pid = victim.pid();
    const std::string session = session_dir_of(dirs.server, pid);
    cr_assert(exists(session + "/.pmixpp-owner"), "no owner marker in %s", session.c_str());
    const std::string tool_file = dirs.server + "/pmix." + kHost + "." + std::to_string(pid);
    cr_assert(exists(tool_file));
    victim.kill_hard();
    cr_assert(exists(tool_file) && exists(session), "kill -9 removed them already?");

    cr_assert_eq(init_server(dirs, {}), PMIX_SUCCESS);
    cr_expect(!exists(tool_file));
    cr_expect(!exists(dirs.server + "/pmix." + kHost + ".victim"));
    cr_expect(!exists(dirs.system + "/pmix.sys." + kHost));
    cr_expect(!exists(dirs.system + "/pmix.sched." + kHost));
    cr_expect(!exists(session), "%s survived", session.c_str());
    PMIx_server_finalize();
    for (const std::string &entry : names_in(dirs.server))
        cr_expect(false, "left in the server tmpdir: %s", entry.c_str());
    for (const std::string &entry : names_in(dirs.system))
        cr_expect(false, "left in the system tmpdir: %s", entry.c_str());
}

Test(rendezvous_multi, killed_system_server_reclaimed)
{
    TmpDirs dirs;
    ServerChild victim(dirs, {"system", kHostFlag});
    cr_assert_eq(victim.first_line(), "ready");
    victim.kill_hard();
    cr_assert_eq(init_server(dirs, {PMIX_SERVER_SYSTEM_SUPPORT}), PMIX_SUCCESS);
    cr_expect_eq(field(slurp(dirs.system + "/pmix.sys." + kHost), "pid"), std::to_string(getpid()));
    PMIx_server_finalize();
}

Test(rendezvous_multi, live_server_untouched)
{
    TmpDirs dirs;
    ServerChild live(dirs, {"system", "tool", "job", kHostFlag, "nspace=live"});
    cr_assert_eq(live.first_line(), "ready");
    const std::vector<std::string> system_before = names_in(dirs.system);
    const std::string session = session_dir_of(dirs.server, live.pid());
    const std::string tool_file = dirs.server + "/pmix." + kHost + "." + std::to_string(live.pid());
    const std::string text = slurp(tool_file);
    cr_assert(exists(session));

    cr_assert_eq(init_server(dirs, {PMIX_SERVER_TOOL_SUPPORT}), PMIX_SUCCESS);
    PMIx_server_finalize();
    cr_expect(names_in(dirs.system) == system_before);
    cr_expect(exists(session + "/.pmixpp-owner"));
    cr_expect_eq(slurp(tool_file), text);
    cr_expect_eq(live.stop(), 0);
}

Test(rendezvous_multi, reused_pid_is_stale)
{
    TmpDirs dirs;
    const pid_t reused = sleeping_child();    // "reused": alive, but not the recorded process
    const pid_t unmarked = sleeping_child();  // alive, no marker: cannot prove: kept
    const pid_t gone = dead_pid();
    const std::string wrong = std::to_string(std::stoull(start_time_of(reused)) + 7);
    put_text(dirs.system + "/pmix.sys." + kHost, rendezvous_text(reused, wrong));
    put_text(dirs.server + "/pmix." + kHost + ".old", rendezvous_text(reused, wrong));
    const std::string marked = session_dir_of(dirs.server, reused);
    cr_assert_eq(mkdir(marked.c_str(), 0700), 0);
    put_text(marked + "/.pmixpp-owner", "pmixpp-owner pid=" + std::to_string(reused) + " start_time=" + wrong + "\n");
    put_text(marked + "/scratch-file", "x");
    const std::string kept = session_dir_of(dirs.server, unmarked);
    cr_assert_eq(mkdir(kept.c_str(), 0700), 0);
    const std::string dead = session_dir_of(dirs.system, gone);
    cr_assert_eq(mkdir(dead.c_str(), 0700), 0);

    const pmix_status_t rc = init_server(dirs, {PMIX_SERVER_SYSTEM_SUPPORT});
    cr_assert_eq(rc, PMIX_SUCCESS, "%s", PMIx_Error_string(rc));
    cr_expect_eq(field(slurp(dirs.system + "/pmix.sys." + kHost), "pid"), std::to_string(getpid()));
    cr_expect(!exists(dirs.server + "/pmix." + kHost + ".old"));
    cr_expect(!exists(marked));
    cr_expect(exists(kept));
    cr_expect(!exists(dead));
    PMIx_server_finalize();
    stop_child(reused);
    stop_child(unmarked);
}

Test(rendezvous_multi, foreign_things_untouched)
{
    TmpDirs dirs;
    const pid_t gone = dead_pid();
    const std::string garbage = dirs.system + "/pmix.sys.garbage";
    put_text(garbage, "pid=" + std::to_string(gone) + "\n");
    const std::string outside = dirs.root + "/outside";
    put_text(outside, rendezvous_text(gone, "1"));
    const std::string link = dirs.server + "/pmix.link";
    cr_assert_eq(symlink(outside.c_str(), link.c_str()), 0);
    const std::string odd = dirs.server + "/pmix-session." + std::to_string(geteuid()) + ".12x";
    cr_assert_eq(mkdir(odd.c_str(), 0700), 0);
    const std::string linked_session = session_dir_of(dirs.server, gone);
    cr_assert_eq(symlink(dirs.root.c_str(), linked_session.c_str()), 0);

    cr_assert_eq(init_server(dirs, {}), PMIX_SUCCESS);
    PMIx_server_finalize();
    cr_expect(exists(garbage));
    cr_expect(exists(link));
    cr_expect(exists(outside));
    cr_expect(exists(odd));
    cr_expect(exists(linked_session));
}

Test(rendezvous_multi, other_owner_untouched)
{
    if (geteuid() != 0) cr_skip_test("needs root to chown to another uid");
    TmpDirs dirs;
    const pid_t gone = dead_pid();
    const uid_t other = 65534;
    const std::string file = dirs.system + "/pmix.sched." + kHost;
    put_text(file, rendezvous_text(gone, "1"));
    const std::string tool_file = dirs.server + "/pmix.other.42";
    put_text(tool_file, rendezvous_text(gone, "1"));
    const std::string ours_by_name = session_dir_of(dirs.server, gone);
    const std::string theirs = session_dir_of(dirs.server, gone, other);
    cr_assert_eq(mkdir(ours_by_name.c_str(), 0700), 0);
    cr_assert_eq(mkdir(theirs.c_str(), 0700), 0);
    for (const std::string &path : {file, tool_file, ours_by_name, theirs}) {
        cr_assert_eq(chown(path.c_str(), other, other), 0);
    }

    const pmix_status_t rc = init_server(dirs, {PMIX_SERVER_SCHEDULER});
    cr_expect_eq(rc, PMIX_ERR_EXISTS, "another uid's file was taken: %s", PMIx_Error_string(rc));
    for (const std::string &path : {file, tool_file, ours_by_name, theirs}) {
        cr_expect(exists(path), "%s removed", path.c_str());
    }
    cr_expect_eq(field(slurp(file), "pid"), std::to_string(gone));
}

Test(rendezvous_multi, one_trace_line_per_reaped_item)
{
    TmpDirs dirs;
    cr_assert_eq(setenv("PMIX_MCA_pmix_server_verbose", "1", 1), 0);
    ServerChild victim(dirs, {"tool", "job", kHostFlag, "nspace=victim"});
    cr_assert_eq(victim.first_line(), "ready");
    victim.kill_hard();
    const std::string log = stderr_of(dirs.root, [&] { cr_assert_eq(init_server(dirs, {}), PMIX_SUCCESS); });
    PMIx_server_finalize();
    std::size_t lines = 0;
    for (std::size_t at = log.find("stale"); at != std::string::npos; at = log.find("stale", at + 1)) ++lines;
    // The pid file, the nspace file, the session directory, the socket.
    cr_expect_eq(lines, 4u, "%s", log.c_str());
    const std::string again = stderr_of(dirs.root, [&] { cr_assert_eq(init_server(dirs, {}), PMIX_SUCCESS); });
    PMIx_server_finalize();
    cr_expect(again.find("stale") == std::string::npos, "%s", again.c_str());
}
