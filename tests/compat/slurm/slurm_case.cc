#include "slurm_case.h"

#include <criterion/criterion.h>

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

namespace slurm_test {
namespace {

using test_support::lines_with;

std::string script()
{
    return std::string(SLURM_SCRIPT_DIR) + "/cluster.sh";
}

std::string file_id(const std::string &path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return "missing";
    return std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev)) + ":" + std::to_string(st.st_ino);
}

// The state file: KEY=VALUE lines (values quoted with printf %q; ours have no
// characters that need it).
std::map<std::string, std::string> read_state(const std::string &path)
{
    std::map<std::string, std::string> values;
    std::ifstream file(path);
    for (std::string line; std::getline(file, line);) {
        const std::size_t eq = line.find('=');
        if (eq != std::string::npos) values[line.substr(0, eq)] = line.substr(eq + 1);
    }
    return values;
}

std::size_t file_size(const std::string &path)
{
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? static_cast<std::size_t>(st.st_size) : 0;
}

std::string read_from(const std::string &path, std::size_t offset)
{
    std::ifstream file(path);
    file.seekg(static_cast<std::streamoff>(offset));
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

std::string joined(const std::vector<std::string> &lines)
{
    std::string text;
    for (const std::string &line : lines) text += line + "\n";
    return text;
}

std::vector<Proof> parse_proofs(const std::string &out)
{
    static const std::regex pattern(
        R"(^proof (\S+) (-?\d+) pid (\d+) host (\S+) job (\S+): libpmix (\S+) file (\S+); parent (\S+) (\d+) libpmix (\S+) file (\S+)$)");
    std::vector<Proof> proofs;
    for (const std::string &line : lines_with(out, "proof ")) {
        std::smatch m;
        if (!std::regex_match(line, m, pattern)) continue;
        Proof p;
        p.role = m[1];
        p.rank = std::stoi(m[2]);
        p.pid = std::stoi(m[3]);
        p.host = m[4];
        p.job = m[5];
        p.path = m[6];
        p.file = m[7];
        p.parent = m[8];
        p.parent_pid = std::stoi(m[9]);
        p.parent_path = m[10];
        p.parent_file = m[11];
        proofs.push_back(p);
    }
    return proofs;
}

// The job id: from the tasks' proofs, else from srun's "STEP J.0" line.
std::string job_of(const std::vector<Proof> &proofs, const std::string &output)
{
    for (const Proof &p : proofs) {
        if (p.job != "none") return p.job;
    }
    static const std::regex step(R"((?:STEP |StepId=)(\d+)\.\d+)");
    std::smatch m;
    if (std::regex_search(output, m, step)) return m[1];
    return "";
}

// The newest job of that name slurmctld still remembers (MinJobAge=10).
std::string job_named(const std::string &name)
{
    const test_support::Result jobs =
        test_support::run(script().c_str(), {"head", cluster().state, "scontrol", "-o", "show", "job"}, "", 20);
    const std::regex pattern("^JobId=(\\d+) JobName=" + name + " ");
    std::string job;
    for (const std::string &line : lines_with(jobs.out, "JobName=" + name + " ")) {
        std::smatch m;
        if (std::regex_search(line, m, pattern) && (job.empty() || std::stol(m[1]) > std::stol(job))) job = m[1];
    }
    return job;
}

// The slurmd log lines of this job's steps, and slurmd's own error lines
// (they name no step); all new lines when the job is unknown. Lines of other
// steps (a case running at the same time on the node) are left out.
std::string lines_of_job(const std::string &text, const std::string &job)
{
    if (job.empty()) return text;
    static const std::regex any_step(R"(^\[[^\]]*\] \[\d+\.\d+\] )");
    const std::string tag = "] [" + job + ".";
    std::string kept;
    for (const std::string &line : lines_with(text, "")) {
        const bool ours = line.find(tag) != std::string::npos;
        const bool slurmd_error = !std::regex_search(line, any_step) && line.find("error") != std::string::npos;
        if (ours || slurmd_error) kept += line + "\n";
    }
    return kept;
}

bool process_exists(int pid)
{
    return ::kill(pid, 0) == 0 || errno == EPERM;
}

// pids of slurmstepd processes of `job` ("slurmstepd: [J.S]").
std::vector<int> stepds_of(const std::string &job)
{
    std::vector<int> pids;
    DIR *proc = ::opendir("/proc");
    if (proc == nullptr) return pids;
    const std::string tag = "slurmstepd: [" + job + ".";
    while (const dirent *entry = ::readdir(proc)) {
        const int pid = std::atoi(entry->d_name);
        if (pid <= 0) continue;
        const std::string cmdline = test_support::read_text("/proc/" + std::to_string(pid) + "/cmdline");
        if (cmdline.compare(0, tag.size(), tag) == 0) pids.push_back(pid);
    }
    ::closedir(proc);
    return pids;
}

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

std::string report_of(const Run &run)
{
    std::string all;
    for (const std::string &why : run.failures) all += why + "\n";
    return all;
}

// Known signatures, in a failed run on ours, of the defects pmixpp had under
// Slurm: one line each naming the cause. They explain, they do
// not decide: the checks above do.
std::vector<std::string> diagnose(const Run &run)
{
    const std::string out = run.result.out + run.result.err;
    const std::string logs = run.log_lines_with("");
    std::vector<std::string> causes;
    if (contains(logs, "PMIx_server_init failed with error -46")) {
        causes.push_back("slurmstepd could not start our server: PMIx_server_init returned PMIX_ERR_NOT_FOUND (-46) "
                         "because our library found none of its components beside the loaded file, here "
                         "/usr/lib/x86_64-linux-gnu/pmix2/lib/pmixpp: "
                         "it must also search the directories fixed at build and say in one "
                         "line where it looked");
    }
    if (contains(out, "no usable gds component")) {
        causes.push_back("the tasks found none of our components: they get srun's environment, not slurmd's, so a "
                         "component path given to slurmd does not reach them (the library must also search where "
                         "it was installed)");
    }
    // Open MPI's ess/pmi says "Unreachable" when its PMIx client finds no server to talk to.
    if (contains(out, "PMIX_NAMESPACE=unset") || contains(out, "nspace singleton.") ||
        (contains(out, "ORTE_ERROR_LOG: Unreachable") && contains(out, "ess_pmi_module.c"))) {
        causes.push_back("the tasks got no PMIx environment (PMIX_NAMESPACE, PMIX_SERVER_URI*): Slurm calls "
                         "PMIx_server_setup_fork in the forked child, ignores its status, and ours returns "
                         "PMIX_ERR_INIT there, so clients start as singletons or fail");
    }
    if (contains(out, "PMIX_ERR_BAD_PARAM") || contains(out, "BAD-PARAM") ||
        (contains(logs, "dmodex") && contains(logs, "NOT_FOUND"))) {
        causes.push_back("fence or direct modex refused: our server decides which ranks are local by gethostname(), "
                         "while Slurm's node map names nodes by NodeName (node c here: NodeName " +
                         std::string(node_prefix(run.library)) + "-c, hostname " +
                         hostname_of(std::string(node_prefix(run.library)) + "-c") + ")");
    }
    if (!run.spec.container_ranks.empty() && contains(out, "PMIX_SERVER_URI41=unset")) {
        causes.push_back("the tasks on the container's OpenPMIx got no PMIX_SERVER_URI*: our server in slurmstepd "
                         "opened no tcp listener (OpenPMIx's clients cannot use our usock), so setup_fork named "
                         "none; see src/server/engine/listeners.cc");
    }
    if (contains(report_of(run), "host_fence_done") && contains(report_of(run), "pmixp_coll_")) {
        causes.push_back("slurmstepd deadlocked in the fence: Slurm calls fence_nb's modex callback while it holds "
                         "the collective's lock (pmixp_coll_*_local/_neighbor), and our callback (host_fence_done -> "
                         "take_host_blob) calls Slurm's release function before returning; that function takes the "
                         "same lock. The release function must run after the callback returned (OpenPMIx defers it)");
    }
    return causes;
}

// The threads of a process, by gdb, keeping the frames that tell who holds
// what: ours (pmixpp::), Slurm's plugin (pmixp_), and lock waits.
std::string stack_of(int pid)
{
    if (::access("/usr/bin/gdb", X_OK) != 0) return "    (no stack: apt-get install gdb to see one here)\n";
    const test_support::Result gdb = test_support::run(
        "/usr/bin/gdb", {"-p", std::to_string(pid), "-batch", "-ex", "thread apply all bt 16"}, "", 60);
    std::string kept;
    for (const std::string &line : lines_with(gdb.out, "")) {
        const bool thread = line.compare(0, 7, "Thread ") == 0;
        const bool telling =
            line.compare(0, 1, "#") == 0 &&
            (contains(line, " in pmixpp::") || contains(line, " in pmixp_") || contains(line, "lock_wait"));
        if (thread || telling) kept += "    " + line.substr(0, 200) + "\n";
    }
    return kept;
}

// srun was killed at its deadline: cancel the job now rather than at its time
// limit, so it does not hold the nodes' CPUs for the cases after it. A
// slurmstepd still there 10 s later is stuck: its threads go into the report,
// then it is killed (it is this cluster's, started by its slurmd).
void end_hung_job(Run &run)
{
    const std::string name = run.spec.name + "-" + node_prefix(run.library);
    (void)test_support::run(script().c_str(), {"head", cluster().state, "scancel", "--name=" + name}, "", 20);
    if (run.job.empty()) return;
    std::vector<int> stuck;
    for (int i = 0; i < 100; ++i) {
        stuck = stepds_of(run.job);
        if (stuck.empty()) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::string report = "slurmstepd of job " + run.job + " still runs 10 s after scancel (pids";
    for (int pid : stuck) report += " " + std::to_string(pid);
    report += "); the threads of " + std::to_string(stuck.front()) + ":\n" + stack_of(stuck.front());
    run.expect(false, report);
    for (int pid : stuck) ::kill(pid, SIGKILL);
}

}  // namespace

const char *label(Library library)
{
    return library == Library::ours ? "ours" : "OpenPMIx";
}
const char *node_prefix(Library library)
{
    return library == Library::ours ? "ours" : "ompi";
}

const Cluster &cluster()
{
    static Cluster loaded;
    if (!loaded.dir.empty()) return loaded;
    const char *state = std::getenv("PMIXPP_SLURM_STATE");
    cr_assert(state != nullptr && *state != '\0', "PMIXPP_SLURM_STATE is not set: run this test through ctest "
                                                  "(ctest -R compat_slurm), which starts the cluster first");
    std::map<std::string, std::string> values = read_state(state);
    cr_assert(!values["PMIXPP_SLURM_DIR"].empty(),
              "no Slurm cluster is recorded in %s: the compat_slurm_up fixture failed or did not run; see its output "
              "(ctest -R compat_slurm --output-on-failure), or start one by hand: %s up %s <build>/lib/libpmix.so.2",
              state, script().c_str(), state);
    loaded.state = state;
    loaded.dir = values["PMIXPP_SLURM_DIR"];
    loaded.ours = values["PMIXPP_SLURM_OURS_LIB"];
    loaded.ours_file = file_id(loaded.ours);
    loaded.openpmix_file = file_id(OPENPMIX_LIBPMIX);
    cr_assert(loaded.ours_file != loaded.openpmix_file,
              "our library %s and OpenPMIx's %s are the same file (%s): the "
              "proof of which one a process maps would prove nothing",
              loaded.ours.c_str(), OPENPMIX_LIBPMIX, loaded.ours_file.c_str());
    loaded.container_lib = values["PMIXPP_SLURM_CONTAINER_LIB"];
    loaded.container_file = file_id(loaded.container_lib + "/libpmix.so.2");
    cr_assert(!loaded.container_lib.empty() && loaded.container_file != "missing",
              "the cluster recorded in %s has no container copy of OpenPMIx (PMIXPP_SLURM_CONTAINER_LIB): it was "
              "started by an older cluster.sh; run 'cluster.sh up' again",
              state);
    return loaded;
}

std::vector<std::string> nodes_of(Library library, const std::string &partition)
{
    const std::string prefix = node_prefix(library);
    if (partition == "one") return {prefix + "-a"};
    if (partition == "alias") return {prefix + "-c"};
    return {prefix + "-a", prefix + "-b", prefix + "-c"};
}

// As lib.sh's pmixpp_slurm_hostname_of.
std::string hostname_of(const std::string &node)
{
    if (node.size() > 2 && node.compare(node.size() - 2, 2, "-c") == 0)
        return "host17-" + node.substr(0, node.size() - 2);
    return node;
}

void Run::expect(bool ok, const std::string &why)
{
    if (!ok) failures.push_back(why);
}

std::string Run::output() const
{
    return "--- srun stdout\n" + result.out + "--- srun stderr\n" + result.err;
}

std::vector<std::string> Run::stepd_errors() const
{
    std::vector<std::string> found;
    for (const std::string &line : lines_with(result.out + result.err, "slurmstepd")) {
        if (line.find("error:") != std::string::npos) found.push_back(line);
    }
    return found;
}

std::string Run::log_lines_with(const std::string &part) const
{
    std::string found;
    for (const auto &[node, text] : logs) {
        for (const std::string &line : lines_with(text, part)) {
            // Logged at the end of every step with either library: noise.
            if (line.find("spmix_appdir_") != std::string::npos) continue;
            found += node + ": " + line + "\n";
        }
    }
    return found;
}

// A copy of `program` in the cluster's share/ (0755), which any user can
// run; our build tree may sit under a directory only root can enter.
std::string shared_copy(const std::string &program)
{
    const std::string name = program.substr(program.rfind('/') + 1);
    const std::string copy = cluster().dir + "/share/" + name;
    std::error_code error;
    std::filesystem::copy_file(program, copy, std::filesystem::copy_options::overwrite_existing, error);
    cr_assert(!error, "cannot copy %s to %s: %s", program.c_str(), copy.c_str(), error.message().c_str());
    std::filesystem::permissions(copy, std::filesystem::perms(0755), error);
    cr_assert(!error, "cannot make %s executable by everyone: %s", copy.c_str(), error.message().c_str());
    return copy;
}

Run run_case(Library library, const Case &spec)
{
    const Cluster &c = cluster();
    Run run;
    run.library = library;
    run.spec = spec;
    const std::vector<std::string> nodes = nodes_of(library, spec.partition);
    std::map<std::string, std::size_t> offsets;
    for (const std::string &node : nodes) offsets[node] = file_size(c.dir + "/nodes/" + node + "/slurmd.log");

    std::vector<std::string> args = {"srun", c.state};
    std::vector<std::string> command = spec.command;
    if (!spec.user.empty()) {
        args.insert(args.end(), {"--as", spec.user});
        command[0] = shared_copy(command[0]);
    }
    if (!spec.container_ranks.empty()) {
        command.insert(command.begin(),
                       {std::string(SLURM_SCRIPT_DIR) + "/container_task.sh", c.container_lib, spec.container_ranks});
    }
    args.insert(args.end(), spec.env.begin(), spec.env.end());
    if (spec.tasks_on_ours) {
        args.push_back("LD_LIBRARY_PATH=" + std::filesystem::path(c.ours).parent_path().string());
    }
    args.push_back("--partition=" + std::string(node_prefix(library)) + "-" + spec.partition);
    args.push_back("--job-name=" + spec.name + "-" + node_prefix(library));
    args.push_back("--time=2");
    args.push_back("--mpi=pmix_v4");
    args.push_back("--ntasks=" + std::to_string(spec.ntasks));
    if (spec.nodes > 0) {
        args.push_back("--nodes=" + std::to_string(spec.nodes));
        args.push_back("--ntasks-per-node=" + std::to_string(spec.ntasks / spec.nodes));
    }
    args.insert(args.end(), command.begin(), command.end());

    const auto start = std::chrono::steady_clock::now();
    run.result = test_support::run(script().c_str(), args, "", spec.seconds);
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.proofs = parse_proofs(run.result.out);
    run.job = job_of(run.proofs, run.result.out + run.result.err);
    if (run.job.empty()) run.job = job_named(spec.name + "-" + node_prefix(library));
    // slurmstepd logs its last lines as the step ends, a moment after srun.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    for (const std::string &node : nodes) {
        run.logs[node] = lines_of_job(read_from(c.dir + "/nodes/" + node + "/slurmd.log", offsets[node]), run.job);
    }
    run.expect(!run.result.timed_out, "srun did not end within " + std::to_string(spec.seconds) + " s");
    if (run.result.timed_out) end_hung_job(run);
    return run;
}

void expect_exit(Run &run, int code)
{
    run.expect(run.result.code == code,
               "srun exited " + std::to_string(run.result.code) + ", expected " + std::to_string(code));
}

void expect_line(Run &run, const std::string &line)
{
    run.expect(test_support::has_line(run.result.out, line), "no line '" + line + "' on srun's output");
}

bool in_container(const Case &spec, int rank)
{
    return spec.container_ranks == "all" || (spec.container_ranks == "odd" && rank % 2 == 1);
}

void expect_proofs(Run &run, const std::string &role, int ranks)
{
    const Cluster &c = cluster();
    const std::string node_want = run.library == Library::ours ? c.ours_file : c.openpmix_file;
    const std::string node_what = run.library == Library::ours ? "ours (" + c.ours + ", file " + c.ours_file + ")"
                                                               : std::string("OpenPMIx (file ") + c.openpmix_file + ")";
    const std::string container_what =
        "the container's OpenPMIx (" + c.container_lib + ", file " + c.container_file + ")";
    std::set<std::string> hosts;
    for (const std::string &node : nodes_of(run.library, run.spec.partition)) hosts.insert(hostname_of(node));
    std::map<int, int> seen;
    std::set<std::string> used;
    for (const Proof &p : run.proofs) {
        if (p.role != role) continue;
        ++seen[p.rank];
        used.insert(p.host);
        const std::string who =
            role + " " + std::to_string(p.rank) + " (pid " + std::to_string(p.pid) + " on " + p.host + ")";
        run.expect(hosts.count(p.host) == 1, who + " ran on a host outside partition " + run.spec.partition);
        const bool contained = in_container(run.spec, p.rank);
        const std::string ours_what = "ours (" + c.ours + ", file " + c.ours_file + ")";
        const std::string &want = contained ? c.container_file : run.spec.tasks_on_ours ? c.ours_file : node_want;
        const std::string &what = contained ? container_what : run.spec.tasks_on_ours ? ours_what : node_what;
        run.expect(p.file == want, who + " maps " + p.path + " as file " + p.file + ", not " + what);
        if (contained) {
            run.expect(p.path.compare(0, c.container_lib.size() + 1, c.container_lib + "/") == 0,
                       who + " maps libpmix from " + p.path + ", not from the container's " + c.container_lib);
            // Its plugins from the container too (PMIX_PKGLIBDIR), not the node's.
            const std::string plugins = "plugins " + role + " " + std::to_string(p.rank) + ": ";
            run.expect(test_support::has_line(run.result.out, plugins + c.container_lib + "/pmix"),
                       who + " did not report OpenPMIx's plugins mapped from " + c.container_lib + "/pmix (" +
                           joined(lines_with(run.result.out, plugins)) + ")");
        }
        run.expect(p.parent == "slurmstepd", who + " was started by '" + p.parent + "', not slurmstepd");
        // A user's task cannot read root's slurmstepd's mappings; the root
        // cases prove what slurmstepd maps.
        if (!run.spec.user.empty()) continue;
        run.expect(p.parent_file == node_want, who + ": its " + p.parent + " maps " + p.parent_path + " as file " +
                                                   p.parent_file + ", not " + node_what);
    }
    for (int rank = 0; rank < ranks; ++rank) {
        run.expect(seen[rank] == 1, role + " " + std::to_string(rank) + " reported its libpmix " +
                                        std::to_string(seen[rank]) + " times, expected once");
    }
    if (run.spec.nodes > 0) {
        run.expect(used.size() == static_cast<std::size_t>(run.spec.nodes),
                   "the ranks ran on " + std::to_string(used.size()) + " hosts, expected " +
                       std::to_string(run.spec.nodes));
    }
}

void expect_nothing_left(Run &run)
{
    std::vector<int> left;
    for (int i = 0; i < 150; ++i) {
        left.clear();
        for (const Proof &p : run.proofs) {
            if (process_exists(p.pid)) left.push_back(p.pid);
        }
        if (!run.job.empty()) {
            for (int pid : stepds_of(run.job)) left.push_back(pid);
        }
        if (left.empty()) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::string pids;
    for (int pid : left) pids += " " + std::to_string(pid);
    run.expect(false, "15 s after srun's exit these tasks or slurmstepd of job " + run.job + " still run:" + pids);
}

void expect_slurm_upcall(Run &run, const std::string &upcall, std::size_t nodes)
{
    std::size_t called = 0;
    for (const auto &[node, text] : run.logs) {
        if (test_support::count_lines_with(text, upcall + ": ") > 0) ++called;
    }
    run.expect(called == nodes, "Slurm's " + upcall + " ran on " + std::to_string(called) + " of " +
                                    std::to_string(nodes) + " nodes (slurmd logs with PMIxDebug=1)");
    if (upcall == "_fencenb_fn") {
        const int done = test_support::count_lines_with(run.log_lines_with("COLL_FENCE_"), " is DONE");
        run.expect(done >= static_cast<int>(nodes), "Slurm's fence finished (COLL_FENCE_* is DONE) on " +
                                                        std::to_string(done) + " of " + std::to_string(nodes) +
                                                        " nodes");
    }
}

bool open_mpi_init_race(const Run &run)
{
    if (run.failures.empty()) return false;
    const std::string output = run.result.out + run.result.err;
    return contains(output, "Signal: Segmentation fault (11)") && contains(output, "Failing at address: (nil)") &&
           contains(output, "*** End of error message ***");
}

void conclude(const Run &run)
{
    std::string nodes;
    for (const auto &[node, text] : run.logs) nodes += " " + node;
    std::string report = std::string(label(run.library)) + ": case " + run.spec.name + " (job " +
                         (run.job.empty() ? "?" : run.job) + ", srun exit " + std::to_string(run.result.code) + ", " +
                         std::to_string(run.seconds).substr(0, 4) + " s):\n";
    for (const std::string &why : run.failures) report += "  - " + why + "\n";
    if (run.library == Library::ours && !run.failures.empty()) {
        for (const std::string &cause : diagnose(run)) report += "  likely cause: " + cause + "\n";
    }
    report += run.output();
    report += "--- error lines of slurmd/slurmstepd on" + nodes + " for this job\n" + run.log_lines_with("error:");
    std::fprintf(stderr, "[slurm] %-13s on %-8s: %s (srun exit %d, %.1f s, job %s)\n", run.spec.name.c_str(),
                 label(run.library), run.failures.empty() ? "passed" : "FAILED", run.result.code, run.seconds,
                 run.job.empty() ? "?" : run.job.c_str());
    if (run.failures.empty()) return;
    if (run.library == Library::openpmix && !run.spec.tasks_on_ours) {
        cr_assert_fail("the OpenPMIx baseline failed, so the environment is at fault, not our library (fix it first: "
                       "the cluster's logs are kept in <build>/tests/compat/slurm/logs/last after the run)\n%s",
                       report.c_str());
    }
    cr_expect_fail("%s", report.c_str());
}

void compare_error_lines(const Run &baseline, const Run &ours)
{
    // OpenPMIx says nothing on its own in these cases: neither may we.
    const std::vector<std::string> ours_said = lines_with(ours.result.out + ours.result.err, "pmixpp:");
    cr_expect(ours_said.empty(),
              "%s: our library printed %zu line(s) on the tasks' output where OpenPMIx prints none:\n%s",
              ours.spec.name.c_str(), ours_said.size(), joined(ours_said).c_str());

    // The plugin's own lines only: Slurm's (munge, name lookups of a user's
    // step under load) come and go with timing on either library.
    const std::vector<std::string> base = lines_with(joined(baseline.stepd_errors()), "mpi/pmix");
    const std::vector<std::string> mine = lines_with(joined(ours.stepd_errors()), "mpi/pmix");
    const int base_handler = test_support::count_lines_with(joined(base), "_errhandler");
    const int my_handler = test_support::count_lines_with(joined(mine), "_errhandler");
    std::fprintf(stderr,
                 "[slurm] %-13s 'slurmstepd: error: mpi/pmix' lines on srun's output: OpenPMIx %zu (%d _errhandler), "
                 "ours %zu (%d _errhandler)\n",
                 ours.spec.name.c_str(), base.size(), base_handler, mine.size(), my_handler);
    cr_expect(mine.size() <= base.size() && my_handler <= base_handler,
              "%s: srun shows %zu 'slurmstepd: error: mpi/pmix' lines (%d from the plugin's _errhandler) on ours, %zu "
              "(%d) on "
              "OpenPMIx (more _errhandler lines: every rank that ends without PMIx_Finalize is reported to the host "
              "more often than OpenPMIx does):\n--- ours\n%s--- OpenPMIx\n%s",
              ours.spec.name.c_str(), mine.size(), my_handler, base.size(), base_handler, joined(mine).c_str(),
              joined(base).c_str());
}

}  // namespace slurm_test
