#include "options.h"

#include "bin/common/command_line.h"
#include "node_cpuset.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>

namespace pmixrun {
namespace {

constexpr const char *kUsageLine =
    "usage: pmixrun [options] prog [args] [: [-n M] [-x VAR[=VAL]] [--wdir DIR] prog2 [args] ...]";

// mpirun's single-dash long options: CLI11 would read "-np 4" as -n with
// the value "p".
const std::map<std::string, std::string> &single_dash_aliases()
{
    static const std::map<std::string, std::string> aliases = {
        {"-np", "--np"},
        {"-host", "--host"},
        {"-wdir", "--wdir"},
        {"-hostfile", "--hostfile"},
        {"-machinefile", "--hostfile"},
        {"-output-filename", "--output-filename"},
    };
    return aliases;
}

// CLI11's help without its own usage line: ours names the MPMD form.
class HelpFormatter : public CLI::Formatter {
public:
    std::string make_usage(const CLI::App *, std::string) const override { return ""; }
};

// The options one application of the command line takes (before its program).
struct AppFlags {
    uint32_t nprocs = 1;
    std::vector<std::string> env;  // -x VAR[=VAL], unresolved
    std::string wdir;
};

// Returns the options added, so that a later segment can tell them apart.
std::vector<const CLI::Option *> add_app_options(CLI::App &cli, AppFlags &flags)
{
    std::vector<const CLI::Option *> added;
    added.push_back(cli.add_option("-n,--np", flags.nprocs, "processes of the next application (default 1)")
                        ->type_name("N")
                        ->check(CLI::Range(1u, 65535u).description("")));
    added.push_back(cli.add_option("-x", flags.env, "give the next application VAR (its current value, or VAL)")
                        ->type_name("VAR[=VAL]")
                        ->allow_extra_args(false));
    added.push_back(cli.add_option("--wdir", flags.wdir, "the next application's working directory (default pmixrun's)")
                        ->type_name("DIR"));
    return added;
}

// Job-wide options: only before the first program.
struct GlobalFlags {
    std::vector<std::pair<std::string, std::string>> mca;
    std::string stdin_spec = "0";
    std::vector<std::string> hosts;
    std::string hostfile;
    uint32_t session_id = 0;
    std::string map_by;
    std::string bind_to;
    bool accepted = false;  // mpirun flags that change nothing here
};

void add_global_options(CLI::App &cli, Options &out, GlobalFlags &flags)
{
    cli.add_option("--mca", flags.mca, "set PMIX_MCA_NAME=VALUE for pmixrun and the job (e.g. --mca gds hash)")
        ->type_name("NAME VALUE")
        ->allow_extra_args(false);
    cli.add_flag("--tag-output", out.tag_output, "prefix every line of output with [nspace:rank]");
    cli.add_flag("--timestamp-output", out.timestamp_output, "prefix every line of output with the time");
    cli.add_option("--output-line-wait", out.output_line_wait_ms,
                   "how long a piece of a line waits for its end before it goes out (default 100; 0: at once, "
                   "lines of ranks may then mix)")
        ->type_name("MS")
        ->check(CLI::Range(0u, 3600000u).description(""));
    cli.add_flag("--merge-stderr-to-stdout", out.merge_stderr, "the job's stderr goes to pmixrun's stdout");
    cli.add_option("--output-filename", out.output_dir,
                   "write each rank's output to DIR/<job>/rank.<N>/stdout (and stderr), not the terminal")
        ->type_name("DIR");
    cli.add_option("--timeout", out.timeout_seconds, "terminate the job after S seconds (exit code 124)")
        ->type_name("S")
        ->check(CLI::Range(1e-3, 31536000.0).description(""));
    cli.add_option("--tmpdir", out.tmpdir, "where session directories go (default $TMPDIR or /tmp)")->type_name("DIR");
    cli.add_option("--report-uri", out.report_uri, "write the server's URI to FILE ('-': stdout)")->type_name("FILE");
    cli.add_option("--session-id", flags.session_id, "the job's session id (default 1)")->type_name("N");
    cli.add_option("--stdin", flags.stdin_spec, "which ranks read pmixrun's stdin (default 0)")
        ->type_name("R|all|none");
    cli.add_flag("--stdin-tool", out.stdin_from_tool,
                 "those ranks read what tools push (PMIx_IOF_push), not pmixrun's stdin");
    cli.add_option("--max-procs", out.max_procs,
                   "processes running at once over all jobs, spawned ones included (default 4096)")
        ->type_name("N")
        ->check(CLI::Range(1u, kMaxMaxProcs).description(""));
    cli.add_flag("--system-server", out.system_server,
                 "be the node's system server (pmix.sys.<host>, for PMIX_CONNECT_TO_SYSTEM tools)");
    cli.add_option("-H,--host", flags.hosts, "hosts to run on: only this node (pmixrun runs one node)")
        ->type_name("HOST[:SLOTS],...")
        ->delimiter(',')
        ->allow_extra_args(false);
    cli.add_option("--hostfile", flags.hostfile, "refused: pmixrun runs one node (use Slurm or mpirun for several)")
        ->type_name("FILE");
    // Typed from muscle memory and by mpirun's scripts; nothing to do here.
    cli.add_flag("--oversubscribe", flags.accepted,
                 "accepted as mpirun's: more ranks than cores always run (unbound, Open MPI told to yield)");
    cli.add_flag("--allow-run-as-root", flags.accepted, "accepted as mpirun's: pmixrun runs as root without it");
    cli.add_option("--map-by", flags.map_by,
                   "where ranks go: in order (slot, core, hwthread), round-robin over l3cache, numa or package, "
                   "or ppr:N:LEVEL (N on each; without -n, N per object of the node); "
                   ":PE=n gives each n cpus (default core up to 2 ranks, package above)")
        ->type_name("WHAT[:PE=n]");
    cli.add_option("--bind-to", flags.bind_to,
                   "what each rank is bound to (default the --map-by level, else core up to 2 ranks, package above)")
        ->type_name("none|hwthread|core|l3cache|numa|package");
    cli.add_option("--cpus-per-rank", out.placement.cpus_per_rank, "cpus (cores) each rank gets and is bound to")
        ->type_name("N")
        ->check(CLI::Range(1u, 65536u).description(""));
    cli.add_flag("--report-bindings", out.placement.report, "one line per rank: the cpus it runs on");
    cli.add_flag("-V,--version", out.version, "the PMIx library version");
}

std::string without_slots(const std::string &host)
{
    return host.substr(0, host.find(':'));
}

bool is_this_node(const std::string &host)
{
    if (host == "localhost" || host == "127.0.0.1" || host == "::1") return true;
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0) return false;
    const std::string full = name;
    return host == full || host == full.substr(0, full.find('.')) || full == host.substr(0, host.find('.'));
}

bool resolve_env(const AppFlags &flags, AppSpec &app, std::string *error_p)
{
    for (const std::string &item : flags.env) {
        const std::size_t equals = item.find('=');
        const std::string name = item.substr(0, equals);
        if (name.empty()) {
            *error_p = "-x expects VAR or VAR=VALUE, not '" + item + "'";
            return false;
        }
        if (equals != std::string::npos) {
            app.env.emplace_back(name, item.substr(equals + 1));
        } else if (const char *current = std::getenv(name.c_str())) {
            app.env.emplace_back(name, current);
        } else {
            *error_p = "-x " + name + ": " + name + " is not set here (give -x " + name + "=VALUE)";
            return false;
        }
    }
    return true;
}

bool apply_globals(const CLI::App &cli, const GlobalFlags &flags, Options &out, std::string *error_p)
{
    if (cli.count("--session-id") > 0) out.session_id = flags.session_id;
    for (const auto &[name, value] : flags.mca) {
        if (name.empty() || name.find('=') != std::string::npos) {
            *error_p = "--mca expects NAME VALUE, not '" + name + "'";
            return false;
        }
        out.mca.emplace_back(name, value);
    }
    if (flags.stdin_spec == "all") {
        out.stdin_target = StdinTarget{true, false, 0};
    } else if (flags.stdin_spec == "none") {
        out.stdin_target = StdinTarget{false, true, 0};
    } else {
        char *end = nullptr;
        const unsigned long long rank = std::strtoull(flags.stdin_spec.c_str(), &end, 10);
        if (flags.stdin_spec.empty() || *end != '\0' || flags.stdin_spec[0] == '-' || rank >= UINT32_MAX) {
            *error_p = "--stdin expects a rank, all or none, not '" + flags.stdin_spec + "'";
            return false;
        }
        out.stdin_target = StdinTarget{false, false, static_cast<uint32_t>(rank)};
    }
    // --cpus-per-rank was read into placement.cpus_per_rank; a PE=n of
    // --map-by lands there too, and the two must agree.
    const uint32_t cpus_per_rank = out.placement.cpus_per_rank;
    out.placement.cpus_per_rank = 0;
    if (!flags.map_by.empty() && !parse_map_by(flags.map_by, &out.placement, error_p)) return false;
    if (!flags.bind_to.empty() && !parse_bind_to(flags.bind_to, &out.placement, error_p)) return false;
    const uint32_t pe = out.placement.cpus_per_rank;
    if (cpus_per_rank > 0 && pe > 0 && cpus_per_rank != pe) {
        *error_p = "--cpus-per-rank " + std::to_string(cpus_per_rank) + " and --map-by " + flags.map_by +
                   " disagree (give one of them)";
        return false;
    }
    if (pe == 0) out.placement.cpus_per_rank = cpus_per_rank;
    if (!flags.hostfile.empty()) {
        *error_p = "--hostfile " + flags.hostfile +
                   ": pmixrun runs jobs on this node only; for several nodes use Slurm (srun --mpi=pmix) or mpirun";
        return false;
    }
    for (const std::string &host : flags.hosts) {
        if (!is_this_node(without_slots(host))) {
            *error_p = "--host " + host +
                       ": pmixrun runs jobs on this node only (give localhost or its name); "
                       "for several nodes use Slurm (srun --mpi=pmix) or mpirun";
            return false;
        }
    }
    return true;
}

// Parses one segment of the command line: options up to the program, which
// with its arguments is left in *rest_p. Global options only when `globals`.
bool parse_segment(std::vector<std::string> args, bool first, Options &out, AppSpec &app,
                   std::vector<std::string> *rest_p, std::string *error_p)
{
    CLI::App cli{"", "pmixrun"};
    cli.prefix_command();  // the program and its arguments are not ours
    cli.set_help_flag();
    AppFlags flags;
    const std::vector<const CLI::Option *> app_options = add_app_options(cli, flags);
    Options ignored;
    GlobalFlags globals;
    add_global_options(cli, first ? out : ignored, globals);
    bool help = false;
    cli.add_flag("-h,--help", help);
    for (std::string &arg : args) {
        if (auto alias = single_dash_aliases().find(arg); alias != single_dash_aliases().end()) arg = alias->second;
    }
    std::reverse(args.begin(), args.end());  // CLI11 takes them last first
    try {
        cli.parse(args);
    } catch (const CLI::ParseError &e) {
        *error_p = e.what();
        *error_p += " (pmixrun --help lists the options)";
        return false;
    }
    *rest_p = cli.remaining();
    if (!rest_p->empty() && rest_p->front().size() > 1 && rest_p->front()[0] == '-') {
        *error_p = "unknown option " + rest_p->front() + " (pmixrun --help lists them)";
        return false;
    }
    if (!first) {
        for (const CLI::Option *option : cli.get_options()) {
            const bool per_app = std::find(app_options.begin(), app_options.end(), option) != app_options.end();
            if (option->count() > 0 && !per_app) {
                *error_p =
                    option->get_name(false, true) + " applies to the whole job: give it before the first program";
                return false;
            }
        }
    }
    if (first) {
        out.help = help;
        if (!apply_globals(cli, globals, out, error_p)) return false;
    }
    app.nprocs = flags.nprocs;
    app.nprocs_given = app_options.front()->count() > 0;
    app.cwd = flags.wdir;
    return resolve_env(flags, app, error_p);
}

// --map-by ppr:N:level without -n runs N ranks per object, as mpirun does.
bool size_by_ppr(Options &out, std::string *error_p)
{
    if (out.placement.per_object == 0) return true;
    const bool sized =
        std::all_of(out.apps.begin(), out.apps.end(), [](const AppSpec &app) { return app.nprocs_given; });
    if (sized) return true;
    if (out.apps.size() > 1) {
        *error_p = "--map-by ppr with several applications: give each its -n";
        return false;
    }
    const uint32_t ranks = ppr_ranks(static_cast<hwloc_topology_t>(node_topology().topology), out.placement);
    if (ranks == 0) {
        *error_p = "--map-by ppr: this node's topology cannot be read to count its objects (give -n)";
        return false;
    }
    out.apps.front().nprocs = ranks;
    return true;
}

bool check_job(const Options &out, std::string *error_p)
{
    uint64_t total = 0;
    for (const AppSpec &spec : out.apps) total += spec.nprocs;
    if (!out.apps.empty() && !out.stdin_target.all && !out.stdin_target.none && out.stdin_target.rank >= total) {
        *error_p = "--stdin " + std::to_string(out.stdin_target.rank) + ": the job has ranks 0 to " +
                   std::to_string(total - 1) + " (give one of them, all or none)";
        return false;
    }
    if (total > out.max_procs) {
        *error_p = "the job asks for " + std::to_string(total) + " processes, more than --max-procs " +
                   std::to_string(out.max_procs) + " (raise --max-procs)";
        return false;
    }
    return true;
}

}  // namespace

bool parse_options(int argc, char **argv, Options *options_p, std::string *error_p)
{
    Options out;
    std::vector<std::string> args(argv + 1, argv + argc);
    for (bool first = true;; first = false) {
        AppSpec app;
        std::vector<std::string> rest;
        if (!parse_segment(std::move(args), first, out, app, &rest, error_p)) return false;
        if (out.help || out.version) break;
        if (rest.empty()) {
            *error_p = first ? "no program to run (pmixrun --help shows how)" : "':' must be followed by a program";
            return false;
        }
        if (rest.front() == ":") {
            *error_p = "':' must follow a program";
            return false;
        }
        // The program and its arguments, up to ':' or the end.
        const auto colon = std::find(rest.begin(), rest.end(), std::string(":"));
        app.argv.assign(rest.begin(), colon);
        out.apps.push_back(std::move(app));
        if (colon == rest.end()) break;
        args.assign(colon + 1, rest.end());
    }
    if (!size_by_ppr(out, error_p) || !check_job(out, error_p)) return false;
    *options_p = std::move(out);
    return true;
}

std::string usage_text()
{
    CLI::App cli{"Runs a job of one or more applications on this node under a PMIx server.", "pmixrun"};
    pmixpp::bin::standard_help(cli);
    cli.formatter(std::make_shared<HelpFormatter>());
    AppFlags flags;
    add_app_options(cli, flags);
    Options out;
    GlobalFlags globals;
    add_global_options(cli, out, globals);
    cli.footer("Per-application options (-n, -x, --wdir) come before that application's program, job-wide ones\n"
               "before the first program; ':' starts the next application of the same job (MPMD).\n"
               "\n"
               "Exit code: 0 when every process succeeded, else the first non-zero exit code\n"
               "(128+N for a process killed by signal N), 124 on --timeout, 127 when a\n"
               "program cannot be found. Ctrl-C and SIGTERM are passed to the job.");
    std::ostringstream text;
    text << kUsageLine << "\n\n" << cli.help();
    return text.str();
}

}  // namespace pmixrun
