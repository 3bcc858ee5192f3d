// pmixrun as a user runs it: the hello example, output tagging, MPMD, -x,
// stdin, and every way a job ends (success, a missing program, a failing or
// crashing rank, an abort, the timeout, SIGTERM, a bad --mca value), each
// with its exit code and its one line, and no file left in the tmpdir.
#include "run_pmixrun.h"

#include <criterion/criterion.h>

#include <fcntl.h>
#include <signal.h>
#include <grp.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <vector>
#include <string>

using namespace pmixrun_test;

namespace {

std::string g_tmp;

void make_tmp()
{
    g_tmp = scratch_dir();
}
void drop_tmp()
{
    remove_tree(g_tmp);
}

// The job's tmpdir is this test's own: --tmpdir <it>.
Result job(std::vector<std::string> args, const std::string &input = "", int seconds = 60)
{
    args.insert(args.begin(), {"--tmpdir", g_tmp});
    return run(args, input, seconds);
}

void expect_clean_tmpdir()
{
    cr_expect(empty_dir(g_tmp), "pmixrun left files in %s", g_tmp.c_str());
}

}  // namespace

TestSuite(pmixrun, .init = make_tmp, .fini = drop_tmp, .timeout = 120);

Test(pmixrun, hello_runs_four_processes_that_see_each_other_after_a_fence)
{
    const Result r = job({"-n", "4", HELLO});
    cr_assert_eq(r.code, 0, "exit %d\nout:\n%s\nerr:\n%s", r.code, r.out.c_str(), r.err.c_str());
    for (int rank = 0; rank < 4; ++rank) {
        const std::string says = "rank " + std::to_string((rank + 1) % 4) + " says \"hello from rank " +
                                 std::to_string((rank + 1) % 4) + "\"";
        cr_assert(r.out.find("rank " + std::to_string(rank) + " of 4 on ") != std::string::npos, "%s", r.out.c_str());
        cr_assert(r.out.find(says) != std::string::npos, "no \"%s\" in:\n%s", says.c_str(), r.out.c_str());
    }
    cr_assert(r.err.empty(), "unexpected errors:\n%s", r.err.c_str());
    expect_clean_tmpdir();
}

// pmixrun has no credential upcalls (docs/credentials.md): its server says
// so, and the rank's own psec makes and checks the credential.
Test(pmixrun, a_rank_gets_and_validates_a_credential_of_its_own_psec)
{
    const std::string dir = scratch_dir();
    const std::string file = dir + "/rank.cred";
    const Result r = job({"-n", "1", "--mca", "psec", "native", CREDENTIALS_CLIENT, "--get", file, "--validate", file});
    remove_tree(dir);
    cr_assert_eq(r.code, 0, "exit %d\nout:\n%s\nerr:\n%s", r.code, r.out.c_str(), r.err.c_str());
    cr_expect(r.out.find("validated type=native uid=" + std::to_string(geteuid())) != std::string::npos, "%s",
              r.out.c_str());
}

Test(pmixrun, publish_and_lookup_go_through_the_name_service)
{
    const Result r = job({"-n", "3", PUBLISH_LOOKUP});
    cr_assert_eq(r.code, 0, "out:\n%s\nerr:\n%s", r.out.c_str(), r.err.c_str());
    cr_assert(has_line(r.out, "rank 1: looked up example.service = port-4711@rank0, published by rank 0"), "%s",
              r.out.c_str());
    cr_assert(has_line(r.out, "rank 2: looked up example.service = port-4711@rank0, published by rank 0"), "%s",
              r.out.c_str());
    cr_assert(has_line(r.out, "rank 0: publishing it again: DUPLICATE KEY"), "%s", r.out.c_str());
    cr_assert(has_line(r.out, "rank 0: one key twice in one publish: DUPLICATE KEY"), "%s", r.out.c_str());
    cr_assert(has_line(r.out, "rank 0: looking it up now: NOT-FOUND"), "%s", r.out.c_str());
    expect_clean_tmpdir();
}

// Rank 1 finishes first while rank 0 waits for PMIX_EVENT_PROC_TERMINATED:
// the event names rank 1 and its exit code, and it never reaches a default
// handler (PMIX_EVENT_NON_DEFAULT), where Open MPI 4.1 would abort the job
// (MPI_Abort with -201 when a fast rank left while another was finalizing).
Test(pmixrun, a_process_exit_is_announced_to_the_others)
{
    const Result r = job({"-n", "2", PROBE, "--watch-exit"});
    cr_assert(has_line(r.out, "rank 0 saw rank 1 terminate with 0"), "out:\n%s\nerr:\n%s", r.out.c_str(),
              r.err.c_str());
    cr_assert(has_line(r.out, "rank 0's default handler saw 0 events"), "out:\n%s", r.out.c_str());
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
}

// Every process is registered with a cpuset (its binding's, or the node's
// when unbound: placement_test.cc), and the server derives its locality.
Test(pmixrun, processes_know_their_cpuset_and_locality)
{
    const Result r = job({"-n", "2", PROBE, "--locality"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_assert_eq(count_lines_with(r.out, "cpuset hwloc:"), 2, "%s", r.out.c_str());
    cr_assert_eq(count_lines_with(r.out, "locality (none)"), 0, "%s", r.out.c_str());
    cr_assert_eq(count_lines_with(r.out, "locality "), 2, "%s", r.out.c_str());
    cr_assert_eq(count_lines_with(r.out, "peers 0,1"), 2, "%s", r.out.c_str());
}

Test(pmixrun, tag_output_prefixes_every_line_with_nspace_and_rank)
{
    const Result r = job({"--tag-output", "-n", "2", "sh", "-c", "echo one; echo two; echo err >&2"});
    cr_assert_eq(r.code, 0);
    cr_assert_eq(count_lines_with(r.out, "@1:0] one"), 1, "%s", r.out.c_str());
    cr_assert_eq(count_lines_with(r.out, "@1:1] two"), 1, "%s", r.out.c_str());
    cr_assert_eq(count_lines_with(r.err, "@1:1] err"), 1, "%s", r.err.c_str());
    cr_assert_eq(count_lines_with(r.out, "[ppx-"), 4, "every line tagged:\n%s", r.out.c_str());
}

Test(pmixrun, mpmd_applications_share_one_job)
{
    const Result r = job({"-n", "1", PROBE, ":", "-n", "2", PROBE});
    cr_assert_eq(r.code, 0, "%s%s", r.out.c_str(), r.err.c_str());
    cr_assert(has_line(r.out, "rank 0 size 3 appnum 0 app_rank 0"), "%s", r.out.c_str());
    cr_assert(has_line(r.out, "rank 1 size 3 appnum 1 app_rank 0"), "%s", r.out.c_str());
    cr_assert(has_line(r.out, "rank 2 size 3 appnum 1 app_rank 1"), "%s", r.out.c_str());
    expect_clean_tmpdir();
}

Test(pmixrun, x_gives_an_application_variables)
{
    setenv("PMIXRUN_TEST_FROM_HERE", "inherited", 1);
    const Result r = job({"-x", "PMIXRUN_TEST_SET=given", "-x", "PMIXRUN_TEST_FROM_HERE", "-n", "1", PROBE, "--env",
                          "PMIXRUN_TEST_SET", "--env", "PMIXRUN_TEST_FROM_HERE", ":", "-n", "1", PROBE, "--env",
                          "PMIXRUN_TEST_SET"});
    cr_assert_eq(r.code, 0, "%s%s", r.out.c_str(), r.err.c_str());
    cr_assert(has_line(r.out, "env PMIXRUN_TEST_SET given"), "%s", r.out.c_str());
    cr_assert(has_line(r.out, "env PMIXRUN_TEST_FROM_HERE inherited"), "%s", r.out.c_str());
    cr_assert(has_line(r.out, "env PMIXRUN_TEST_SET (unset)"), "-x belongs to its own application:\n%s", r.out.c_str());
}

// pmixrun leaves hwloc's display and libxml2 plugins out of its own process
// (they cost milliseconds of every start, hwloc_plugins.h); the job gets the
// user's environment: no such variable, or the user's own list.
Test(pmixrun, hwloc_plugins_left_out_for_pmixrun_only)
{
    unsetenv("HWLOC_PLUGINS_BLACKLIST");
    Result r = job({"-n", "1", PROBE, "--env", "HWLOC_PLUGINS_BLACKLIST", "--launcher-maps", "hwloc_xml_libxml.so",
                    "--launcher-maps", "libhwloc.so"});
    cr_assert_eq(r.code, 0, "%s%s", r.out.c_str(), r.err.c_str());
    cr_assert(has_line(r.out, "env HWLOC_PLUGINS_BLACKLIST (unset)"), "pmixrun's own setting reached the job:\n%s",
              r.out.c_str());
    cr_assert(has_line(r.out, "launcher maps libhwloc.so yes"), "%s", r.out.c_str());
    cr_assert(has_line(r.out, "launcher maps hwloc_xml_libxml.so no"), "%s", r.out.c_str());
    setenv("HWLOC_PLUGINS_BLACKLIST", "hwloc_opencl", 1);
    r = job({"-n", "1", PROBE, "--env", "HWLOC_PLUGINS_BLACKLIST"});
    cr_assert_eq(r.code, 0, "%s%s", r.out.c_str(), r.err.c_str());
    cr_assert(has_line(r.out, "env HWLOC_PLUGINS_BLACKLIST hwloc_opencl"), "%s", r.out.c_str());
}

// What every rank does loads neither hwloc (nor libudev behind it) nor
// zlib: libpmix loads them at the first call that needs them, and such a
// call then works. Of the gds components only the server's stays loaded
// (the client loads it while the server answers its hello).
Test(pmixrun, a_rank_loads_hwloc_and_zlib_only_when_it_needs_them)
{
    const Result r = job({"-n", "2", LEAN_CLIENT, "--cpuset", "--compress"});
    cr_assert_eq(r.code, 0, "%s%s", r.out.c_str(), r.err.c_str());
    for (const char *line :
         {"maps libhwloc.so no after the exchange", "maps libudev.so no after the exchange",
          "maps libz.so no after the exchange", "cpuset SUCCESS", "maps libhwloc.so yes after the cpuset",
          "compress ok", "maps libz.so yes after the compression"}) {
        cr_assert(has_line(r.out, line), "no line \"%s\":\n%s%s", line, r.out.c_str(), r.err.c_str());
    }
}

// A rank's PMIX_PROCDIR is made when it asks for it (our client library
// does), mode 0700, and gone with the job.
Test(pmixrun, procdir_is_made_when_asked_for)
{
    const Result r = job({"-n", "2", PROBE, "--procdir"});
    cr_assert_eq(r.code, 0, "%s%s", r.out.c_str(), r.err.c_str());
    for (const char *rank : {"/0 exists", "/1 exists"}) {
        bool seen = false;
        for (std::size_t at = r.out.find("procdir "); at != std::string::npos; at = r.out.find("procdir ", at + 1)) {
            const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
            seen = seen || line.find(rank) != std::string::npos;
        }
        cr_assert(seen, "no line ending in %s:\n%s", rank, r.out.c_str());
    }
}

Test(pmixrun, stdin_reaches_rank_zero_only)
{
    const std::string input(100000, 'x');
    const Result r = job({"-n", "2", PROBE, "--read-stdin"}, input);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_assert(has_line(r.out, "stdin 100000"), "%s", r.out.c_str());
    cr_assert(has_line(r.out, "stdin 0"), "the other rank reads /dev/null:\n%s", r.out.c_str());
}

Test(pmixrun, stdin_reaches_every_rank_with_stdin_all)
{
    const std::string input(300000, 'x');
    const Result r = job({"--stdin", "all", "-n", "3", PROBE, "--read-stdin"}, input);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect_eq(count_lines_with(r.out, "stdin 300000"), 3, "%s", r.out.c_str());
}

Test(pmixrun, stdin_reaches_the_named_rank_or_none)
{
    const std::string input(1000, 'x');
    Result r = job({"--stdin", "2", "-n", "3", PROBE, "--read-stdin"}, input);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect_eq(count_lines_with(r.out, "stdin 1000"), 1, "%s", r.out.c_str());
    cr_expect_eq(count_lines_with(r.out, "stdin 0"), 2, "%s", r.out.c_str());
    r = job({"--stdin", "none", "-n", "2", PROBE, "--read-stdin"}, input);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect_eq(count_lines_with(r.out, "stdin 0"), 2, "%s", r.out.c_str());
    r = job({"--stdin", "2", "-n", "2", PROBE, "--read-stdin"}, input);
    cr_expect_eq(r.code, 2);
    cr_expect(r.err.find("--stdin 2: the job has ranks 0 to 1") != std::string::npos, "%s", r.err.c_str());
}

// One reader that stops reading early does not hold back the others.
Test(pmixrun, stdin_all_goes_on_past_a_reader_that_stops)
{
    const std::string input(1000000, 'x');
    const Result r = job({"--stdin", "all", "-n", "3", "/bin/sh", "-c",
                          "if [ \"$PMIX_RANK\" = 0 ]; then head -c 10 >/dev/null; else echo \"read $(wc -c)\"; fi"},
                         input);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect_eq(count_lines_with(r.out, "read 1000000"), 2, "%s", r.out.c_str());
}

Test(pmixrun, a_missing_program_is_named_and_exits_127)
{
    const Result r = job({"-n", "2", "no_such_program_pmixrun"});
    cr_assert_eq(r.code, 127);
    cr_assert(r.err.find("cannot find program 'no_such_program_pmixrun' on PATH") != std::string::npos, "%s",
              r.err.c_str());
    expect_clean_tmpdir();
}

Test(pmixrun, the_first_failure_is_named_and_gives_the_exit_code)
{
    const Result r = job({"-n", "3", "sh", "-c", "if [ \"$PMIX_RANK\" = 1 ]; then exit 7; fi; sleep 30"});
    cr_assert_eq(r.code, 7, "%s", r.err.c_str());
    cr_assert(r.err.find("rank 1 (pid ") != std::string::npos, "%s", r.err.c_str());
    cr_assert(r.err.find("exited with status 7; terminating the job") != std::string::npos, "%s", r.err.c_str());
    expect_clean_tmpdir();
}

Test(pmixrun, a_crash_gives_128_plus_the_signal)
{
    const Result r = job({"-n", "2", "sh", "-c", "if [ \"$PMIX_RANK\" = 0 ]; then kill -SEGV $$; fi; sleep 30"});
    cr_assert_eq(r.code, 128 + SIGSEGV, "%s", r.err.c_str());
    cr_assert(r.err.find("was killed by signal 11 (Segmentation fault)") != std::string::npos, "%s", r.err.c_str());
    expect_clean_tmpdir();
}

Test(pmixrun, an_abort_ends_the_job_with_its_status)
{
    const Result r = job({"-n", "3", PROBE, "--abort", "42"});
    cr_assert_eq(r.code, 42, "%s", r.err.c_str());
    cr_assert(r.err.find("rank 1 called PMIx_Abort with status 42: the probe gives up") != std::string::npos, "%s",
              r.err.c_str());
    expect_clean_tmpdir();
}

Test(pmixrun, the_timeout_ends_the_job_with_124)
{
    const Result r = job({"--timeout", "0.5", "-n", "2", "sleep", "30"});
    cr_assert_eq(r.code, 124);
    cr_assert(r.err.find("did not finish within --timeout 0.5 s") != std::string::npos, "%s", r.err.c_str());
    expect_clean_tmpdir();
}

Test(pmixrun, sigterm_is_passed_to_the_job)
{
    const pid_t pid = start({"--tmpdir", g_tmp, "-n", "2", "sleep", "30"});
    ::usleep(500000);
    ::kill(pid, SIGTERM);
    cr_assert_eq(finish(pid), 128 + SIGTERM);
    expect_clean_tmpdir();
}

Test(pmixrun, a_bad_mca_value_is_refused_with_the_choices)
{
    const Result r = job({"--mca", "gds", "nonesuch", "-n", "1", "true"});
    cr_assert_eq(r.code, 1);
    cr_assert(r.err.find("gds component nonesuch was not found; available:") != std::string::npos, "%s", r.err.c_str());
    cr_assert(r.err.find("cannot start the PMIx server") != std::string::npos, "%s", r.err.c_str());
    expect_clean_tmpdir();
}

Test(pmixrun, mca_settings_reach_the_job)
{
    const Result r = job({"--mca", "gds", "hash", "-n", "2", HELLO});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    const Result shmem = job({"--mca", "gds", "shmem", "-n", "2", PROBE, "--env", "PMIX_MCA_gds"});
    cr_assert(has_line(shmem.out, "env PMIX_MCA_gds shmem"), "%s", shmem.out.c_str());
}

Test(pmixrun, usage_errors_help_and_version)
{
    Result r = run({"--no-such-option", "true"});
    cr_assert_eq(r.code, 2);
    cr_assert(r.err.find("unknown option --no-such-option") != std::string::npos, "%s", r.err.c_str());
    r = run({"-n", "0", "true"});
    cr_assert_eq(r.code, 2);
    r = run({});
    cr_assert_eq(r.code, 2);
    cr_assert(r.err.find("no program to run") != std::string::npos);
    r = run({"--help"});
    cr_assert_eq(r.code, 0);
    cr_assert(r.out.find("usage: pmixrun") != std::string::npos);
    r = run({"--version"});
    cr_assert_eq(r.code, 0);
    cr_assert(r.out.find("pmixrun (pmixpp") != std::string::npos, "%s", r.out.c_str());
}

Test(pmixrun, report_uri_names_the_server)
{
    const std::string file = g_tmp + "/uri";
    const Result r = run({"--report-uri", file, "-n", "1", "true"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    std::ifstream in(file);
    std::string uri;
    std::getline(in, uri);
    cr_assert(uri.rfind("ppx-", 0) == 0 && uri.find(".0;") != std::string::npos, "uri '%s'", uri.c_str());
    ::unlink(file.c_str());
}

// A link planted at the report path: it is replaced by the
// report, and the file it pointed at is untouched.
Test(pmixrun, report_uri_replaces_a_planted_link_and_follows_nothing)
{
    const std::string victim = g_tmp + "/victim";
    const std::string file = g_tmp + "/uri-link";
    {
        std::ofstream out(victim);
        out << "precious\n";
    }
    cr_assert_eq(::symlink(victim.c_str(), file.c_str()), 0);
    const Result r = run({"--report-uri", file, "-n", "1", "true"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    std::ifstream in(victim);
    std::string text;
    std::getline(in, text);
    cr_expect_eq(text, "precious", "the link's target was written");
    struct stat st {};
    cr_assert_eq(::lstat(file.c_str(), &st), 0);
    cr_expect(S_ISREG(st.st_mode), "the report path is now a file of its own");
    std::ifstream report(file);
    std::getline(report, text);
    cr_expect(text.rfind("ppx-", 0) == 0, "report '%s'", text.c_str());
    ::unlink(file.c_str());
    ::unlink(victim.c_str());
}

// A second terminal: pmixpp_ps finds the running pmixrun by its pid in the
// same tmpdir and lists its processes.
Test(pmixrun, pmixpp_ps_lists_the_running_job)
{
    const pid_t pid = start({"--tmpdir", g_tmp, "-n", "2", "sleep", "30"});
    Result ps;
    for (int attempt = 0; attempt < 50; ++attempt) {
        ps = run_program(PMIXPP_PS, {"--pid", std::to_string(pid), "--tmpdir", g_tmp}, 20);
        if (ps.code == 0 && count_lines_with(ps.out, "running     0  sleep") == 2) break;
        ::usleep(200000);
    }
    ::kill(pid, SIGTERM);
    cr_assert_eq(finish(pid), 128 + SIGTERM);
    cr_assert_eq(ps.code, 0, "%s", ps.err.c_str());
    cr_assert_eq(count_lines_with(ps.out, "running     0  sleep"), 2, "%s", ps.out.c_str());
    cr_assert_eq(count_lines_with(ps.out, "sleep"), 2, "%s", ps.out.c_str());
    const Result gone = run_program(PMIXPP_PS, {"--pid", std::to_string(pid), "--tmpdir", g_tmp}, 20);
    cr_assert_neq(gone.code, 0, "a finished pmixrun cannot be reached");
    expect_clean_tmpdir();
}

namespace {

std::string short_hostname()
{
    char host[256] = {};
    cr_assert_eq(gethostname(host, sizeof host - 1), 0);
    return host;
}

}  // namespace

// Eight pmixruns of one user at once, in one tmpdir: each
// runs its job; none claims the node's system server file.
Test(pmixrun, eight_pmixruns_run_side_by_side)
{
    std::vector<pid_t> running;
    for (int i = 0; i < 8; ++i) running.push_back(start({"--tmpdir", g_tmp, "-n", "2", HELLO}));
    for (pid_t pid : running) cr_expect_eq(finish(pid, 90), 0, "pmixrun %d failed beside the others", pid);
    expect_clean_tmpdir();
}

// A file another user made at the system server's name stops nobody.
Test(pmixrun, a_squatted_system_server_file_does_not_stop_a_pmixrun)
{
    if (geteuid() != 0) cr_skip_test("needs root to make a file of another user");
    const std::string squatted = g_tmp + "/pmix.sys." + short_hostname();
    {
        std::ofstream out(squatted);
        out << "not yours\n";
    }
    cr_assert_eq(chown(squatted.c_str(), 65534, 65534), 0);
    const Result r = job({"-n", "1", "true"});
    cr_expect_eq(r.code, 0, "%s", r.err.c_str());
    struct stat st {};
    cr_expect_eq(lstat(squatted.c_str(), &st), 0, "the other user's file is left alone");
    ::unlink(squatted.c_str());
}

// Asked for, the claim is made, and a second claimant is refused with a line
// naming the file and its holder.
Test(pmixrun, only_one_system_server_per_node)
{
    const pid_t first = start({"--tmpdir", g_tmp, "--system-server", "-n", "1", "sleep", "20"});
    const std::string file = g_tmp + "/pmix.sys." + short_hostname();
    struct stat st {};
    for (int i = 0; i < 100 && lstat(file.c_str(), &st) != 0; ++i) ::usleep(100000);
    cr_assert_eq(lstat(file.c_str(), &st), 0, "the first --system-server pmixrun wrote no %s", file.c_str());
    const Result second = job({"--system-server", "-n", "1", "true"});
    cr_expect_neq(second.code, 0);
    cr_expect(second.err.find("pmix.sys.") != std::string::npos, "%s", second.err.c_str());
    const Result plain = job({"-n", "1", "true"});
    cr_expect_eq(plain.code, 0, "a pmixrun without --system-server runs beside it: %s", plain.err.c_str());
    ::kill(first, SIGTERM);
    (void)finish(first, 30);
}

namespace {

// pmixrun <args> forked with its output to /dev/null: as user `uid` (root's
// tests only), and `stopped` (SIGSTOP before exec) so that names built from
// its pid can be taken before it runs, as any local user can guess a pid
// that is about to come.
pid_t fork_pmixrun(const std::vector<std::string> &args, uid_t uid, bool stopped)
{
    std::vector<std::string> all = {PMIXRUN};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char *> argv;
    for (auto &arg : all) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const pid_t pid = ::fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        const int null = ::open("/dev/null", O_RDWR);
        ::dup2(null, 0);
        ::dup2(null, 1);
        ::dup2(null, 2);
        if (uid != 0 && (::setgroups(0, nullptr) != 0 || ::setgid(uid) != 0 || ::setuid(uid) != 0)) _exit(125);
        if (stopped) ::raise(SIGSTOP);
        ::execv(PMIXRUN, argv.data());
        _exit(126);
    }
    if (stopped) {
        int status = 0;
        cr_assert_eq(::waitpid(pid, &status, WUNTRACED), pid);
        cr_assert(WIFSTOPPED(status));
    }
    return pid;
}

}  // namespace

// A blocking lock any user can take on a shared directory
// must not hang pmixrun at start or at exit.
Test(pmixrun, a_lock_held_on_the_tmpdir_does_not_hang_pmixrun)
{
    const int dir = ::open(g_tmp.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    cr_assert_geq(dir, 0);
    cr_assert_eq(::flock(dir, LOCK_EX), 0);
    const Result r = job({"-n", "2", HELLO}, "", 60);
    ::close(dir);
    cr_expect_eq(r.code, 0, "%s", r.err.c_str());
    expect_clean_tmpdir();
}

// Another user's file at pmixrun's per-pid session directory name: pmixrun
// takes another name, leaves the file alone and says so in one line.
Test(pmixrun, a_squatted_session_directory_name_is_skipped)
{
    if (geteuid() != 0) cr_skip_test("needs root to make a file of another user");
    const pid_t pid = fork_pmixrun({"--tmpdir", g_tmp, "-n", "1", "true"}, 0, true);
    const std::string squatted = g_tmp + "/pmix-session." + std::to_string(geteuid()) + "." + std::to_string(pid);
    {
        std::ofstream out(squatted);
        out << "not yours\n";
    }
    cr_assert_eq(chown(squatted.c_str(), 65534, 65534), 0);
    ::kill(pid, SIGCONT);
    cr_expect_eq(finish(pid, 60), 0, "pmixrun gave up on a squatted session directory name");
    struct stat st {};
    cr_expect_eq(lstat(squatted.c_str(), &st), 0, "the other user's file is left alone");
    cr_expect_eq(st.st_uid, 65534u);
    ::unlink(squatted.c_str());
    expect_clean_tmpdir();
}

// Eight pmixruns of two users at once in one shared, sticky tmpdir, as in
// /tmp: every job runs, and nothing is left behind.
Test(pmixrun, eight_pmixruns_of_two_users_run_side_by_side)
{
    if (geteuid() != 0) cr_skip_test("needs root to run a pmixrun as another user");
    const std::string shared = g_tmp + "/shared";
    cr_assert_eq(::mkdir(shared.c_str(), 0777), 0);
    cr_assert_eq(::chmod(shared.c_str(), 01777), 0);
    cr_assert_eq(::chmod(g_tmp.c_str(), 0711), 0);
    std::vector<pid_t> running;
    for (int i = 0; i < 8; ++i) {
        running.push_back(fork_pmixrun({"--tmpdir", shared, "-n", "2", HELLO}, i % 2 == 0 ? 0 : 65534, false));
    }
    for (size_t i = 0; i < running.size(); ++i) {
        cr_expect_eq(finish(running[i], 90), 0, "the pmixrun of %s failed beside the others",
                     i % 2 == 0 ? "root" : "nobody");
    }
    cr_expect(empty_dir(shared), "the pmixruns left files in %s", shared.c_str());
}
