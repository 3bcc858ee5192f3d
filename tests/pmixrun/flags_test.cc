// mpirun's everyday flags on pmixrun, each checked by its
// effect: -np, --wdir (job-wide and per application), --timestamp-output,
// --merge-stderr-to-stdout (order kept), --output-filename (Open MPI's
// layout, a bad directory named), whole lines from pieces and prompts
// that still show (--output-line-wait), -H for this node and its refusal of
// others, --hostfile refused with the way to several nodes, job-wide
// options after ':' refused, --help listing them all, and pmixpp_ps's
// command line errors.
#include "run_pmixrun.h"

#include <criterion/criterion.h>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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

Result job(std::vector<std::string> args)
{
    args.insert(args.begin(), {"--tmpdir", g_tmp});
    return run(args);
}

std::string whole_file(const std::string &path)
{
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string this_host()
{
    char name[256] = {};
    (void)::gethostname(name, sizeof name - 1);
    return name;
}

}  // namespace

TestSuite(pmixrun_flags, .init = make_tmp, .fini = drop_tmp, .timeout = 120);

Test(pmixrun_flags, np_is_read_as_mpirun_reads_it)
{
    const Result r = job({"-np", "3", "sh", "-c", "echo rank=$PMIX_RANK"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect_eq(count_lines_with(r.out, "rank="), 3);
}

Test(pmixrun_flags, wdir_sets_each_applications_directory)
{
    const std::string other = g_tmp + "/other";
    cr_assert_eq(::mkdir(other.c_str(), 0700), 0);
    const Result r = job({"--wdir", g_tmp, "pwd", ":", "--wdir", other, "pwd"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect(has_line(r.out, g_tmp), "%s", r.out.c_str());
    cr_expect(has_line(r.out, other), "%s", r.out.c_str());
    const Result missing = job({"--wdir", g_tmp + "/none", "pwd"});
    cr_expect_neq(missing.code, 0);
    cr_expect(missing.err.find(g_tmp + "/none") != std::string::npos, "%s", missing.err.c_str());
}

Test(pmixrun_flags, timestamp_output_prefixes_every_line_with_the_time)
{
    const Result r = job({"--timestamp-output", "--tag-output", "sh", "-c", "echo one; echo two"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    std::istringstream lines(r.out);
    int stamped = 0;
    for (std::string line; std::getline(lines, line);) {
        // "Fri Nov 27 13:05:01 2026 [nspace:0] one": a year, then the tag.
        const std::size_t tag = line.find(" [");
        cr_expect_neq(tag, std::string::npos, "%s", line.c_str());
        if (tag == std::string::npos || tag < 5) continue;
        const std::string year = line.substr(tag - 4, 4);
        cr_expect(year.find_first_not_of("0123456789") == std::string::npos, "no time before the tag: %s",
                  line.c_str());
        ++stamped;
    }
    cr_expect_eq(stamped, 2, "%s", r.out.c_str());
}

Test(pmixrun_flags, merge_stderr_to_stdout_keeps_the_order)
{
    const Result r = job({"--merge-stderr-to-stdout", "sh", "-c", "echo a; echo b >&2; echo c; echo d >&2"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect_eq(r.out, "a\nb\nc\nd\n");
    cr_expect(r.err.empty(), "stderr: %s", r.err.c_str());
}

Test(pmixrun_flags, output_filename_writes_a_file_per_rank_and_stream)
{
    const std::string dir = g_tmp + "/out";
    const Result r =
        job({"--output-filename", dir, "-n", "2", "sh", "-c", "echo out$PMIX_RANK; echo err$PMIX_RANK >&2"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect(r.out.empty(), "output also went to the terminal: %s", r.out.c_str());
    for (int rank = 0; rank < 2; ++rank) {
        const std::string where = dir + "/1/rank." + std::to_string(rank);
        cr_expect_eq(whole_file(where + "/stdout"), "out" + std::to_string(rank) + "\n", "%s", where.c_str());
        cr_expect_eq(whole_file(where + "/stderr"), "err" + std::to_string(rank) + "\n", "%s", where.c_str());
    }
    const std::string merged = g_tmp + "/merged";
    const Result m = job({"--output-filename", merged, "--merge-stderr-to-stdout", "sh", "-c", "echo a; echo b >&2"});
    cr_assert_eq(m.code, 0, "%s", m.err.c_str());
    cr_expect_eq(whole_file(merged + "/1/rank.0/stdout"), "a\nb\n");
    struct stat st {};
    cr_expect_neq(::stat((merged + "/1/rank.0/stderr").c_str(), &st), 0, "a stderr file with merged output");
}

// Each rank writes every line in two pieces, 30 ms apart (as Python with
// PYTHONUNBUFFERED writes a line and then its '\n'): the ranks' lines come
// out whole, never one rank's piece inside another's line. (Passed on at
// once, --output-line-wait 0, 6 to 12 of these 40 lines mix.) The long wait
// keeps a loaded machine from splitting a line on time.
Test(pmixrun_flags, lines_written_in_pieces_come_out_whole)
{
    const char *script = "i=0; while [ $i -lt 20 ]; do printf 'rank %s line %s ' $PMIX_RANK $i; sleep 0.03; "
                         "printf 'end\\n'; i=$((i+1)); done";
    const Result r = job({"--output-line-wait", "10000", "-n", "2", "sh", "-c", script});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    std::istringstream lines(r.out);
    int whole = 0;
    for (std::string line; std::getline(lines, line);) {
        const bool ok = line.rfind("rank ", 0) == 0 && line.size() > 4 &&
                        line.compare(line.size() - 4, 4, " end") == 0 && line.find("rank ", 1) == std::string::npos;
        cr_expect(ok, "a mixed line: '%s'", line.c_str());
        whole += ok ? 1 : 0;
    }
    cr_expect_eq(whole, 40, "%s", r.out.c_str());
}

// A prompt without '\n' is not held until the process ends: the rank waits
// (bounded) until its own prompt is in its output file.
Test(pmixrun_flags, a_prompt_without_a_newline_goes_out_while_the_rank_waits)
{
    const std::string dir = g_tmp + "/prompt";
    const std::string file = dir + "/1/rank.0/stdout";
    const std::string script = "printf 'name? '; i=0; while [ $i -lt 400 ]; do grep -q 'name? ' " + file +
                               " 2>/dev/null && { echo seen; exit 0; }; sleep 0.05; i=$((i+1)); done; echo unseen";
    const Result r = job({"--output-filename", dir, "sh", "-c", script});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect_eq(whole_file(file), "name? seen\n");
    // Tagged, a last line without '\n' is ended, whether it went out on
    // time or at the process's end.
    const Result tagged = job({"--tag-output", "sh", "-c", "printf last; sleep 0.3"});
    cr_assert_eq(tagged.code, 0, "%s", tagged.err.c_str());
    const std::string end = "] last\n";
    cr_expect(tagged.out.size() > end.size() &&
                  tagged.out.compare(tagged.out.size() - end.size(), end.size(), end) == 0 &&
                  tagged.out.find('\n') == tagged.out.size() - 1,
              "'%s'", tagged.out.c_str());
}

Test(pmixrun_flags, output_filename_that_is_not_a_directory_is_named)
{
    const std::string file = g_tmp + "/a-file";
    std::ofstream(file) << "x\n";
    const Result r = job({"--output-filename", file, "true"});
    cr_expect_neq(r.code, 0);
    cr_expect(r.err.find("--output-filename") != std::string::npos && r.err.find(file) != std::string::npos, "%s",
              r.err.c_str());
}

// What mpirun's scripts pass that changes nothing here is accepted; a
// --map-by modifier that cannot apply to one node (NOLOCAL) is named.
Test(pmixrun_flags, mpiruns_oversubscribe_and_allow_run_as_root_are_accepted)
{
    const Result r = job({"--oversubscribe", "--allow-run-as-root", "--map-by", "core:OVERSUBSCRIBE", "-n", "1", "sh",
                          "-c", "echo ran"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect_eq(r.out, "ran\n");
    const Result pe = job({"--map-by", "core:PE=1,oversubscribe", "--cpus-per-rank", "1", "true"});
    cr_expect_eq(pe.code, 0, "%s", pe.err.c_str());
    const Result nolocal = job({"--map-by", "package:NOLOCAL", "true"});
    cr_expect_eq(nolocal.code, 2);
    cr_expect(nolocal.err.find("'NOLOCAL'") != std::string::npos, "%s", nolocal.err.c_str());
    const Result disagree = job({"--map-by", "core:PE=2", "--cpus-per-rank", "1", "true"});
    cr_expect_eq(disagree.code, 2);
    cr_expect(disagree.err.find("disagree") != std::string::npos, "%s", disagree.err.c_str());
}

Test(pmixrun_flags, host_accepts_this_node_only)
{
    Result r = job({"-H", "localhost:2," + this_host(), "-n", "2", "true"});
    cr_expect_eq(r.code, 0, "%s", r.err.c_str());
    r = job({"--host", "localhost,elsewhere.example", "true"});
    cr_expect_eq(r.code, 2);
    cr_expect(r.err.find("elsewhere.example") != std::string::npos && r.err.find("Slurm") != std::string::npos, "%s",
              r.err.c_str());
}

Test(pmixrun_flags, hostfile_is_refused_with_the_way_to_several_nodes)
{
    const std::string file = g_tmp + "/hosts";
    std::ofstream(file) << "localhost slots=2\n";
    for (const char *spelling : {"--hostfile", "-hostfile", "-machinefile"}) {
        const Result r = job({spelling, file, "true"});
        cr_expect_eq(r.code, 2, "%s", spelling);
        cr_expect(r.err.find("Slurm") != std::string::npos && r.err.find("mpirun") != std::string::npos, "%s: %s",
                  spelling, r.err.c_str());
    }
}

Test(pmixrun_flags, a_job_wide_option_after_a_colon_is_refused_by_name)
{
    const Result r = job({"true", ":", "--tag-output", "true"});
    cr_expect_eq(r.code, 2);
    cr_expect(r.err.find("--tag-output") != std::string::npos &&
                  r.err.find("before the first program") != std::string::npos,
              "%s", r.err.c_str());
    const Result bad = job({"-n", "two", "true"});
    cr_expect_eq(bad.code, 2);
    cr_expect(bad.err.find("--np") != std::string::npos, "the error names the option: %s", bad.err.c_str());
}

Test(pmixrun_flags, help_lists_every_flag)
{
    const Result r = run({"--help"});
    cr_assert_eq(r.code, 0);
    for (const char *flag :
         {"--np", "-x", "--wdir", "--mca", "--tag-output", "--timestamp-output", "--merge-stderr-to-stdout",
          "--output-filename", "--output-line-wait", "--oversubscribe", "--allow-run-as-root", "--host", "--hostfile",
          "--timeout", "--stdin", "--max-procs", "--system-server", "--report-uri"}) {
        cr_expect(r.out.find(flag) != std::string::npos, "--help does not mention %s", flag);
    }
}

Test(pmixrun_flags, pmixpp_ps_names_what_its_command_line_lacks)
{
    Result r = run_program(PMIXPP_PS, {});
    cr_expect_eq(r.code, 2);
    cr_expect(r.err.find("--pid") != std::string::npos && r.err.find("--uri") != std::string::npos, "%s",
              r.err.c_str());
    r = run_program(PMIXPP_PS, {"--pid", "1", "--uri", "x"});
    cr_expect_eq(r.code, 2);
    cr_expect(r.err.find("excludes") != std::string::npos, "%s", r.err.c_str());
    r = run_program(PMIXPP_PS, {"--uri", "@" + g_tmp + "/none"});
    cr_expect_eq(r.code, 2);
    cr_expect(r.err.find(g_tmp + "/none") != std::string::npos, "%s", r.err.c_str());
}
