// pmixpp_ps: what a running pmixrun is doing, from another terminal. A PMIx
// tool: it finds the server through its rendezvous file (by pid) or its URI
// (pmixrun --report-uri), asks for the namespaces it serves and each one's
// process table (PMIx_Query_info), and prints one line per process, then
// one line per session (PMIX_QUERY_ALLOCATION): its id, parent, state,
// allocation id and jobs.
//
//   pmixpp_ps --pid PID [--tmpdir DIR]     DIR: pmixrun's --tmpdir, if given
//   pmixpp_ps --uri URI|@FILE
#include <pmix.h>
#include <pmix_tool.h>
#include <pmixpp/util.hpp>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "bin/common/command_line.h"

namespace {

struct Options {
    pid_t pid = 0;
    std::string uri;
    std::string tmpdir;
};

// std::nullopt: go on with *o; otherwise the exit code.
std::optional<int> parse(int argc, char **argv, Options *o)
{
    CLI::App cli{"What a running pmixrun is doing: one line per process of each job it serves, then one per "
                 "session (id, parent, state, allocation, jobs).",
                 "pmixpp_ps"};
    CLI::Option *pid = cli.add_option("--pid", o->pid, "the pmixrun's process id")
                           ->type_name("PID")
                           ->check(CLI::Range(1, INT_MAX).description(""));
    CLI::Option *uri = cli.add_option("--uri", o->uri, "its server's URI (pmixrun --report-uri), or @FILE holding it")
                           ->type_name("URI|@FILE");
    pid->excludes(uri);
    pmixpp::bin::standard_help(cli);
    cli.add_option("--tmpdir", o->tmpdir, "pmixrun's --tmpdir, when it was given one")->type_name("DIR");
    cli.footer("Give --pid or --uri.");
    if (auto code = pmixpp::bin::parse_command_line(cli, argc, argv)) return code;
    if (o->pid <= 0 && o->uri.empty())
        return pmixpp::bin::usage_error("pmixpp_ps", "give --pid PID or --uri URI|@FILE");
    if (!o->uri.empty() && o->uri[0] == '@') {
        std::ifstream in(o->uri.substr(1));
        std::string line;
        if (!std::getline(in, line) || line.empty()) {
            std::fprintf(stderr,
                         "pmixpp_ps: --uri %s: cannot read a URI from %s (give the file pmixrun --report-uri wrote)\n",
                         o->uri.c_str(), o->uri.substr(1).c_str());
            return pmixpp::bin::kUsageExit;
        }
        o->uri = line;
    }
    return std::nullopt;
}

const char *state_name(pmix_proc_state_t state)
{
    switch (state) {
    case PMIX_PROC_STATE_PREPPED: return "starting";
    case PMIX_PROC_STATE_RUNNING: return "running";
    case PMIX_PROC_STATE_TERMINATED: return "exited";
    case PMIX_PROC_STATE_TERM_NON_ZERO: return "failed";
    case PMIX_PROC_STATE_ABORTED_BY_SIG: return "killed";
    default: return "unknown";
    }
}

// One query; the caller frees the results.
pmix_status_t query(const char *key, const char *nspace, pmix_info_t **results, size_t *nresults)
{
    pmix_query_t q;
    PMIX_QUERY_CONSTRUCT(&q);
    char *keys[] = {const_cast<char *>(key), nullptr};
    q.keys = keys;
    pmix_info_t qualifier;
    if (nspace != nullptr) {
        PMIX_INFO_LOAD(&qualifier, PMIX_NSPACE, nspace, PMIX_STRING);
        q.qualifiers = &qualifier;
        q.nqual = 1;
    }
    const pmix_status_t rc = PMIx_Query_info(&q, 1, results, nresults);
    if (nspace != nullptr) PMIX_INFO_DESTRUCT(&qualifier);
    q.keys = nullptr;  // ours, not malloc'ed
    q.qualifiers = nullptr;
    PMIX_QUERY_DESTRUCT(&q);
    return rc;
}

std::vector<std::string> split(const std::string &text)
{
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t comma = text.find(',', start);
        if (comma == std::string::npos) comma = text.size();
        if (comma > start) items.push_back(text.substr(start, comma - start));
        start = comma + 1;
    }
    return items;
}

void print_table(const std::string &nspace)
{
    pmix_info_t *results = nullptr;
    size_t n = 0;
    const pmix_status_t rc = query(PMIX_QUERY_PROC_TABLE, nspace.c_str(), &results, &n);
    if (rc != PMIX_SUCCESS || n == 0 || results[0].value.type != PMIX_DATA_ARRAY) {
        std::printf("%s: no process table (%s)\n", nspace.c_str(), PMIx_Error_string(rc));
    } else {
        const pmix_data_array_t *array = results[0].value.data.darray;
        const auto *procs = static_cast<const pmix_proc_info_t *>(array->array);
        for (size_t i = 0; array->type == PMIX_PROC_INFO && i < array->size; ++i) {
            std::printf("%-40s %5u %8d  %-8s %4d  %s\n", procs[i].proc.nspace, procs[i].proc.rank, procs[i].pid,
                        state_name(procs[i].state), procs[i].exit_code,
                        procs[i].executable_name != nullptr ? procs[i].executable_name : "?");
        }
    }
    if (results != nullptr) PMIX_INFO_FREE(results, n);
}

const pmix_info_t *field(const pmix_data_array_t *fields, const char *key)
{
    return fields == nullptr ? nullptr : pmixpp::util::find_info(*fields, key);
}

std::string text_of(const pmix_info_t *item)
{
    if (item == nullptr) return "-";
    if (item->value.type == PMIX_STRING && item->value.data.string != nullptr) return item->value.data.string;
    if (item->value.type == PMIX_UINT32) return std::to_string(item->value.data.uint32);
    return "?";
}

void print_sessions()
{
    pmix_info_t *results = nullptr;
    size_t n = 0;
    const pmix_status_t rc = query(PMIX_QUERY_ALLOCATION, nullptr, &results, &n);
    if (rc == PMIX_SUCCESS && n > 0 && results[0].value.type == PMIX_DATA_ARRAY) {
        std::printf("\n%-8s %-7s %-8s %-32s %s\n", "SESSION", "PARENT", "STATE", "ALLOCATION", "JOBS");
        const pmix_data_array_t *sessions = results[0].value.data.darray;
        const auto *entries = static_cast<const pmix_info_t *>(sessions->array);
        for (size_t i = 0; sessions->type == PMIX_INFO && i < sessions->size; ++i) {
            if (entries[i].value.type != PMIX_DATA_ARRAY) continue;
            const pmix_data_array_t *fields = entries[i].value.data.darray;
            std::printf("%-8s %-7s %-8s %-32s %s\n", text_of(field(fields, PMIX_SESSION_ID)).c_str(),
                        text_of(field(fields, "pmixrun.ssn.parent")).c_str(),
                        text_of(field(fields, "pmixrun.ssn.state")).c_str(),
                        text_of(field(fields, PMIX_ALLOC_ID)).c_str(),
                        text_of(field(fields, "pmixrun.ssn.jobs")).c_str());
        }
    }
    if (results != nullptr) PMIX_INFO_FREE(results, n);
}

}  // namespace

int main(int argc, char **argv)
{
    Options options;
    if (auto code = parse(argc, argv, &options)) return *code;
    std::vector<pmix_info_t> info(3);
    size_t ninfo = 0;
    if (!options.uri.empty()) {
        PMIX_INFO_LOAD(&info[ninfo++], PMIX_SERVER_URI, options.uri.c_str(), PMIX_STRING);
    } else {
        PMIX_INFO_LOAD(&info[ninfo++], PMIX_SERVER_PIDINFO, &options.pid, PMIX_PID);
    }
    if (!options.tmpdir.empty()) {
        PMIX_INFO_LOAD(&info[ninfo++], PMIX_SERVER_TMPDIR, options.tmpdir.c_str(), PMIX_STRING);
        PMIX_INFO_LOAD(&info[ninfo++], PMIX_SYSTEM_TMPDIR, options.tmpdir.c_str(), PMIX_STRING);
    }
    pmix_proc_t me;
    pmix_status_t rc = PMIx_tool_init(&me, info.data(), ninfo);
    for (size_t i = 0; i < ninfo; ++i) PMIX_INFO_DESTRUCT(&info[i]);
    if (rc != PMIX_SUCCESS) {
        std::fprintf(stderr, "pmixpp_ps: cannot reach the pmixrun: %s (is it running? give its --tmpdir)\n",
                     PMIx_Error_string(rc));
        return 1;
    }
    pmix_info_t *results = nullptr;
    size_t n = 0;
    rc = query(PMIX_QUERY_NAMESPACES, nullptr, &results, &n);
    if (rc != PMIX_SUCCESS || n == 0 || results[0].value.type != PMIX_STRING) {
        std::fprintf(stderr, "pmixpp_ps: the server lists no job (%s)\n", PMIx_Error_string(rc));
        PMIx_tool_finalize();
        return 1;
    }
    const std::vector<std::string> namespaces = split(results[0].value.data.string);
    PMIX_INFO_FREE(results, n);
    std::printf("%-40s %5s %8s  %-8s %4s  %s\n", "NSPACE", "RANK", "PID", "STATE", "EXIT", "PROGRAM");
    for (const std::string &nspace : namespaces) print_table(nspace);
    print_sessions();
    PMIx_tool_finalize();
    return 0;
}
