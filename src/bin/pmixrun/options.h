// pmixrun's command line:
//
//   pmixrun [-n N] [-x VAR[=VAL]]... [--wdir DIR] [job-wide options]
//           prog [args] [: -n M prog2 [args] ...]
//
// Per-application options (-n, -x, --wdir) come before that application's
// program; job-wide ones anywhere before the first program. `:` starts the
// next application of the same job (MPMD). Parsed with CLI11 (options.cc
// lists every option with its help); mpirun's single-dash spellings (-np,
// -host, -wdir, -hostfile) are accepted.
#ifndef PMIXPP_BIN_PMIXRUN_OPTIONS_H
#define PMIXPP_BIN_PMIXRUN_OPTIONS_H

#include "placement.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pmixrun {

struct AppSpec {
    uint32_t nprocs = 1;
    bool nprocs_given = false;                             // -n was on the command line
    std::vector<std::string> argv;                         // argv[0] as given
    std::vector<std::pair<std::string, std::string>> env;  // -x, resolved
    std::string cwd;                                       // empty: pmixrun's own (PMIx_Spawn's app.cwd)
};

// Processes pmixrun runs at once, over every job: what a spawn may not take
// it past (a client asking for 2^31 processes must not fork-bomb the node).
inline constexpr uint32_t kDefaultMaxProcs = 4096;
inline constexpr uint32_t kMaxMaxProcs = 1u << 20;

// Which processes of the command line's job read pmixrun's stdin (--stdin):
// one rank (default 0), every process, or none.
struct StdinTarget {
    bool all = false;
    bool none = false;
    uint32_t rank = 0;

    bool reads(uint32_t r) const { return !none && (all || r == rank); }
};

struct Options {
    std::vector<AppSpec> apps;
    std::vector<std::pair<std::string, std::string>> mca;  // --mca NAME VALUE
    bool tag_output = false;
    bool timestamp_output = false;       // --timestamp-output
    unsigned output_line_wait_ms = 100;  // --output-line-wait
    bool merge_stderr = false;           // --merge-stderr-to-stdout
    std::string output_dir;              // --output-filename: files per rank
    PlacementOptions placement;          // --map-by, --bind-to, --cpus-per-rank
    double timeout_seconds = 0;          // 0: none
    std::string tmpdir;
    std::string report_uri;
    std::optional<uint32_t> session_id;
    uint32_t max_procs = kDefaultMaxProcs;  // --max-procs
    StdinTarget stdin_target;               // --stdin
    bool stdin_from_tool = false;           // --stdin-tool
    bool system_server = false;             // --system-server
    bool help = false;
    bool version = false;
};

// Parses argv[1..argc). False with *error_p for a malformed command line
// (the message names the option and what it expects).
bool parse_options(int argc, char **argv, Options *options_p, std::string *error_p);

std::string usage_text();

}  // namespace pmixrun

#endif
