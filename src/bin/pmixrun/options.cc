#include "options.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace pmixrun {
namespace {

class Parser {
public:
    Parser(int argc, char **argv) : argc_(argc), argv_(argv) {}

    bool run(Options *out, std::string *error);

private:
    bool fail(std::string message)
    {
        error_ = std::move(message);
        return false;
    }
    bool value_of(const std::string &option, std::string *value_p)
    {
        if (next_ >= argc_) return fail(option + " needs a value");
        *value_p = argv_[next_++];
        return true;
    }
    bool number(const std::string &option, const std::string &text, unsigned long long max, uint64_t *out)
    {
        char *end = nullptr;
        errno = 0;
        const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || errno != 0 || value > max || text[0] == '-') {
            return fail(option + " expects a whole number up to " + std::to_string(max) + ", not '" + text + "'");
        }
        *out = value;
        return true;
    }
    bool global_option(const std::string &arg, Options &out, bool *handled);
    bool app_option(const std::string &arg, AppSpec &app, bool *handled);

    int argc_;
    char **argv_;
    int next_ = 1;
    std::string error_;
};

bool Parser::global_option(const std::string &arg, Options &out, bool *handled)
{
    *handled = true;
    std::string value;
    if (arg == "-h" || arg == "--help") {
        out.help = true;
    } else if (arg == "-V" || arg == "--version") {
        out.version = true;
    } else if (arg == "--tag-output") {
        out.tag_output = true;
    } else if (arg == "--mca") {
        std::string name, setting;
        if (!value_of(arg, &name) || !value_of(arg + " " + name, &setting)) return false;
        if (name.empty() || name.find('=') != std::string::npos) return fail("--mca expects NAME VALUE, not '" + name + "'");
        out.mca.emplace_back(name, setting);
    } else if (arg == "--timeout") {
        if (!value_of(arg, &value)) return false;
        char *end = nullptr;
        const double seconds = std::strtod(value.c_str(), &end);
        if (value.empty() || *end != '\0' || !(seconds > 0) || seconds > 31536000) {
            return fail("--timeout expects a number of seconds > 0, not '" + value + "'");
        }
        out.timeout_seconds = seconds;
    } else if (arg == "--tmpdir") {
        if (!value_of(arg, &out.tmpdir)) return false;
    } else if (arg == "--report-uri") {
        if (!value_of(arg, &out.report_uri)) return false;
    } else if (arg == "--session-id") {
        uint64_t id = 0;
        if (!value_of(arg, &value) || !number(arg, value, UINT32_MAX, &id)) return false;
        out.session_id = static_cast<uint32_t>(id);
    } else if (arg == "--stdin") {
        if (!value_of(arg, &value)) return false;
        if (value == "all") {
            out.stdin_target = StdinTarget{true, false, 0};
        } else if (value == "none") {
            out.stdin_target = StdinTarget{false, true, 0};
        } else {
            uint64_t rank = 0;
            if (!number(arg, value, UINT32_MAX - 1, &rank)) {
                return fail("--stdin expects a rank, all or none, not '" + value + "'");
            }
            out.stdin_target = StdinTarget{false, false, static_cast<uint32_t>(rank)};
        }
    } else if (arg == "--stdin-tool") {
        out.stdin_from_tool = true;
    } else if (arg == "--system-server") {
        out.system_server = true;
    } else if (arg == "--max-procs") {
        uint64_t n = 0;
        if (!value_of(arg, &value) || !number(arg, value, kMaxMaxProcs, &n)) return false;
        if (n == 0) return fail("--max-procs expects at least 1 process");
        out.max_procs = static_cast<uint32_t>(n);
    } else {
        *handled = false;
    }
    return true;
}

bool Parser::app_option(const std::string &arg, AppSpec &app, bool *handled)
{
    *handled = true;
    std::string value;
    if (arg == "-n" || arg == "-np" || arg == "--np") {
        uint64_t n = 0;
        if (!value_of(arg, &value) || !number(arg, value, 65535, &n)) return false;
        if (n == 0) return fail(arg + " expects at least 1 process");
        app.nprocs = static_cast<uint32_t>(n);
    } else if (arg == "-x") {
        if (!value_of(arg, &value)) return false;
        const std::size_t equals = value.find('=');
        const std::string name = value.substr(0, equals);
        if (name.empty()) return fail("-x expects VAR or VAR=VALUE, not '" + value + "'");
        if (equals != std::string::npos) {
            app.env.emplace_back(name, value.substr(equals + 1));
        } else if (const char *current = std::getenv(name.c_str())) {
            app.env.emplace_back(name, current);
        } else {
            return fail("-x " + name + ": " + name + " is not set here (give -x " + name + "=VALUE)");
        }
    } else {
        *handled = false;
    }
    return true;
}

bool Parser::run(Options *out_p, std::string *error_p)
{
    Options out;
    AppSpec app;
    while (next_ < argc_) {
        const std::string arg = argv_[next_++];
        bool handled = false;
        if (!global_option(arg, out, &handled) || (!handled && !app_option(arg, app, &handled))) {
            *error_p = error_;
            return false;
        }
        if (handled) continue;
        if (arg == ":") {
            *error_p = "':' must follow a program";
            return false;
        }
        if (!arg.empty() && arg[0] == '-' && arg != "-") {
            *error_p = "unknown option " + arg + " (pmixrun --help lists them)";
            return false;
        }
        // The program and its arguments, up to ':' or the end.
        app.argv.push_back(arg);
        while (next_ < argc_ && std::strcmp(argv_[next_], ":") != 0) app.argv.emplace_back(argv_[next_++]);
        out.apps.push_back(std::move(app));
        app = AppSpec{};
        if (next_ < argc_) ++next_;  // the ':'
    }
    if (out.apps.empty() && !out.help && !out.version) {
        *error_p = "no program to run (pmixrun --help shows how)";
        return false;
    }
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
    *out_p = std::move(out);
    return true;
}

} // namespace

bool parse_options(int argc, char **argv, Options *options_p, std::string *error_p)
{
    return Parser(argc, argv).run(options_p, error_p);
}

const char *usage_text()
{
    return "usage: pmixrun [options] prog [args] [: [-n M] [-x VAR[=VAL]] prog2 [args] ...]\n"
           "\n"
           "Runs a job of one or more applications on this node under a PMIx server.\n"
           "\n"
           "  -n, -np N            processes of the next application (default 1)\n"
           "  -x VAR[=VAL]         give the next application VAR (its current value, or VAL)\n"
           "  --mca NAME VALUE     set PMIX_MCA_NAME=VALUE for pmixrun and the job\n"
           "                       (e.g. --mca gds hash, --mca ptl tcp)\n"
           "  --tag-output         prefix every line of output with [nspace:rank]\n"
           "  --timeout S          terminate the job after S seconds (exit code 124)\n"
           "  --tmpdir DIR         where session directories go (default $TMPDIR or /tmp)\n"
           "  --report-uri FILE    write the server's URI to FILE ('-': stdout)\n"
           "  --session-id N       the job's session id (default 1)\n"
           "  --stdin R|all|none   which ranks read pmixrun's stdin (default 0)\n"
           "  --stdin-tool         those ranks read what tools push (PMIx_IOF_push),\n"
           "                       not pmixrun's stdin; a push with PMIX_IOF_COMPLETE\n"
           "                       ends it (tools may push without it too)\n"
           "  --max-procs N        processes running at once over all jobs, spawned ones\n"
           "                       included; a PMIx_Spawn past it is refused (default 4096)\n"
           "  --system-server      be the node's system server: write pmix.sys.<host> in\n"
           "                       the system tmpdir, where tools look with\n"
           "                       PMIX_CONNECT_TO_SYSTEM (one per node; without it any\n"
           "                       number of pmixruns run side by side)\n"
           "  -h, --help           this text\n"
           "  -V, --version        the PMIx library version\n"
           "\n"
           "Exit code: 0 when every process succeeded, else the first non-zero exit code\n"
           "(128+N for a process killed by signal N), 124 on --timeout, 127 when a\n"
           "program cannot be found. Ctrl-C and SIGTERM are passed to the job.\n";
}

} // namespace pmixrun
