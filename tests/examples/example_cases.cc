// The table of OpenPMIx 4.2.2's examples under pmixrun: one row per example
// (and per argument set), what it must print, and which cases are known to
// fail today and why. What each example does: /usr/share/doc/libpmix-dev/
// examples/<name>.c; why a case fails in mode kOpenPmix: docs/openpmix-examples.md.
#include "example_cases.h"

namespace examples_test {
namespace {

// What no successful run prints: the examples' own error lines ("... failed",
// "returned wrong ...", "incorrect number"), OpenPMIx's "PMIX ERROR", error
// statuses in either library's spelling, pmixrun refusing a request, and a
// process killed by a signal.
const std::vector<std::string> kNoErrors = {
    "failed",        "FAILED",           "[Ee]rror",         "ERROR",   "wrong", "incorrect", "NOT.FOUND",
    "NOT.SUPPORTED", "pmixrun: refused", "killed by signal", "LOCK WAS"};

const std::string kFinalized = "rank {rank}:PMIx_Finalize successfully completed";
const std::string kSuccess = "(PMIX_)?SUCCESS";  // PMIx_Error_string (both libraries now say SUCCESS)

const std::vector<int> kTwoAndFour = {2, 4};

std::vector<ExampleCase> make_cases()
{
    using R = Role;
    return {
        {"hello",
         "hello",
         R::kClient,
         {},
         kTwoAndFour,
         0,
         {"Query returned 2 values status " + kSuccess},
         {"rank {rank} pid [0-9]+: Running on host \\S+ localrank {rank}\n", kFinalized},
         kNoErrors},
        // "true": the same query with PMIX_QUERY_REFRESH_CACHE.
        {"hello_refresh",
         "hello",
         R::kClient,
         {"true"},
         kTwoAndFour,
         0,
         {"Query returned 2 values status " + kSuccess},
         {"rank {rank} pid [0-9]+: Running on host \\S+ localrank {rank}\n", kFinalized},
         kNoErrors},
        {"client",
         "client",
         R::kClient,
         {},
         kTwoAndFour,
         0,
         {},
         {":{rank} topology loaded", ":{rank} universe size {n}\n", ":{rank} num procs {n}\n",
          "rank {rank}: PMIx_Get \\S+-0-local returned correct", kFinalized},
         kNoErrors},
        {"client2", "client2", R::kClient, {}, kTwoAndFour, 0, {}, {":{rank} job size {n}\n", kFinalized}, kNoErrors},
        // Only rank 0 talks when all goes well.
        {"dmodex",
         "dmodex",
         R::kClient,
         {},
         kTwoAndFour,
         0,
         {"rank 0: Running. World size {n}\n", "rank 0:PMIx_Finalize successfully completed"},
         {},
         kNoErrors},
        // Rank 0 spawns 2 of ./client; they end with the job that spawned them.
        {"dynamic",
         "dynamic",
         R::kClient,
         {},
         kTwoAndFour,
         0,
         {"rank 0: calling PMIx_Spawn", ":0 job \\S+ size 2\n", ":0 job \\S+ local rank 1\n"},
         {":{rank} job size {n}\n", "@1 rank {rank}:PMIx_Finalize successfully completed"},
         kNoErrors},
        // Rank 0 exits 1 without finalizing; pmixrun passes its code on and ends
        // the others, which may not have started talking yet.
        {"bad_exit",
         "bad_exit",
         R::kClient,
         {},
         kTwoAndFour,
         1,
         {"rank 0 pid [0-9]+: Running on host \\S+ localrank 0\n", "Query returned 2 values status " + kSuccess,
          "rank 0 \\(pid [0-9]+, \\./bad_exit\\) exited with status 1"},
         {},
         kNoErrors},
        {"pub",
         "pub",
         R::kClient,
         {},
         kTwoAndFour,
         0,
         {":0 publish complete", "PUBLISH-LOOKUP SUCCEEDED", "UNPUBLISH SUCCEEDED"},
         {":{rank} universe size {n}\n"},
         kNoErrors},
        {"pubi",
         "pubi",
         R::kClient,
         {},
         kTwoAndFour,
         0,
         {":0 publish complete", "PUBLISH-LOOKUP SUCCEEDED", "UNPUBLISH SUCCEEDED"},
         {":{rank} universe size {n}\n"},
         kNoErrors},
        // Rank 0 logs to stderr with a timestamp; pmixrun prints it.
        {"log",
         "log",
         R::kClient,
         {},
         kTwoAndFour,
         0,
         {"stderr log message"},
         {":{rank} Calling Fence", kFinalized},
         kNoErrors},
        {"jctrl", "jctrl", R::kClient, {}, kTwoAndFour, 0, {}, {":{rank} universe size {n}\n", kFinalized}, kNoErrors},
        // Rank 0 asks, rank 1 waits for PMIX_NOTIFY_ALLOC_COMPLETE, the others query the status.
        {"alloc",
         "alloc",
         R::kClient,
         {},
         kTwoAndFour,
         0,
         {},
         {"(rank {rank}: |:{rank}\\] )Allocation returned status: " + kSuccess + "\n", kFinalized},
         kNoErrors},
        {"nodeinfo",
         "nodeinfo",
         R::kClient,
         {},
         kTwoAndFour,
         0,
         {"rank 0: Host list \\S+\n"},
         {"rank {rank}: Rank [0-9]+ is on host \\S+\n", kFinalized},
         kNoErrors},
        // Rank 0 exits 1 after a fence; the others must hear of it by an event
        // (whose handler prints "DEBUGGER DAEMON NOTIFIED TERMINATED") and finalize.
        {"fault",
         "fault",
         R::kClient,
         {},
         kTwoAndFour,
         1,
         {"rank 0: exiting with error\n", "NOTIFIED TERMINATED", "rank 1:PMIx_Finalize successfully completed"},
         {},
         {"failed", "FAILED", "wrong", "NOT.FOUND", "killed by signal"}},
        // Ranks 0, 2, 3 construct a group with a context id.
        {"group",
         "group",
         R::kClient,
         {},
         {4},
         0,
         {"0 Group construct complete with status " + kSuccess + " KEY \\S+ CID [0-9]+",
          "2 Group construct complete with status " + kSuccess + " KEY \\S+ CID [0-9]+",
          "3 Group construct complete with status " + kSuccess + " KEY \\S+ CID [0-9]+"},
         {":{rank} COMPLETE\n"},
         kNoErrors},
        {"group_below_4",
         "group",
         R::kClient,
         {},
         {2},
         0,
         {"This example requires a minimum of 4 processes"},
         {":{rank} COMPLETE\n"},
         {"failed", "FAILED", "[Ee]rror", "killed by signal"}},
        {"group_dmodex",
         "group_dmodex",
         R::kClient,
         {},
         kTwoAndFour,
         0,
         {},
         {"{rank} Group construct complete with status " + kSuccess + " KEY \\S+ CID [0-9]+", ":{rank} COMPLETE\n"},
         kNoErrors},
        {"group_lcl_cid",
         "group_lcl_cid",
         R::kClient,
         {},
         kTwoAndFour,
         0,
         {},
         {"Rank {rank} Group construct complete with status " + kSuccess + " KEY \\S+ CID [0-9]+",
          ":{rank}: PMIx_Get LOCAL CID for rank [0-9]+ SUCCESS", ":{rank} COMPLETE\n"},
         kNoErrors},
        {"asyncgroup",
         "asyncgroup",
         R::kClient,
         {},
         {4},
         0,
         {"rank 0: Group invite complete with status " + kSuccess + "!", ":2 Group complete - executing fence",
          ":3 Group complete - executing fence"},
         {":{rank} COMPLETE\n"},
         kNoErrors},
        {"asyncgroup_below_4",
         "asyncgroup",
         R::kClient,
         {},
         {2},
         0,
         {"This example requires a minimum of 4 processes"},
         {":{rank} COMPLETE\n"},
         {"failed", "FAILED", "[Ee]rror", "killed by signal"}},
        // Queries the ABI versions before PMIx_Init (only the blocking form may).
        {"abi_no_init",
         "abi_no_init",
         R::kClient,
         {},
         kTwoAndFour,
         0,
         {"ABI \\(Stable\\): String: 0\\.0\n", "ABI \\(Provisional\\): String: 0\\.0\n"},
         {},
         kNoErrors},
        // After init: the host's namespaces and the two ABI versions (one line each:
        // the ranks' lines interleave).
        {"abi_with_init",
         "abi_with_init",
         R::kClient,
         {},
         kTwoAndFour,
         0,
         {"Query returned \\(ninfo 3\\)\n", "KEY: pmix\\.qry\\.ns\n", "Namespaces: String: \\S+\n",
          "KEY: pmix\\.qry\\.stabiver\n", "ABI \\(Stable\\): String: 0\\.0\n", "KEY: pmix\\.qry\\.prabiver\n",
          "ABI \\(Provisional\\): String: 0\\.0\n"},
         {},
         kNoErrors},

        // Tools, beside a job of N processes waiting under pmixrun --system-server.
        {"tool", "tool", R::kTool, {"-u", "@URI@"}, kTwoAndFour, 0, {"ACTIVE NSPACES:\n\t@NSPACE@\t"}, {}, kNoErrors},
        {"tool_nspace",
         "tool",
         R::kTool,
         {"-u", "@URI@", "--nspace", "@NSPACE@"},
         kTwoAndFour,
         0,
         {"JOB SIZE FOR NSPACE @NSPACE@: {n}\n"},
         {},
         kNoErrors},
        {"tool_uri",
         "tool",
         R::kTool,
         {"-u", "@URI@", "--uri", "@HOST@"},
         kTwoAndFour,
         0,
         {"PMIx server URI for node @HOST@: \\S+"},
         {},
         kNoErrors},
        {"tool_spawn",
         "tool",
         R::kTool,
         {"-u", "@URI@", "--spawn", "./hello"},
         kTwoAndFour,
         0,
         {"TOOL NOTIFIED THAT ALL CHILD PROCS \\S+ TERMINATED"},
         {},
         kNoErrors},
        // Launch mode: asks for spawn and debug support, spawns ./client stopped
        // in init and ./debuggerd beside it, waits for a job to end.
        {"debugger",
         "debugger",
         R::kTool,
         {},
         kTwoAndFour,
         0,
         {"Debugger: querying capabilities", "Debugger: spawning \\S*client", "SPAWNED DEBUGGERD"},
         {},
         kNoErrors},
        {"debugger_attach",
         "debugger",
         R::kTool,
         {"-a", "@NSPACE@"},
         kTwoAndFour,
         0,
         {"Query returned \\S*@NSPACE@"},
         {},
         kNoErrors},
        // Spawns 128 of `app` (a link to /bin/true that the runner puts on
        // PATH: OpenPMIx ships no such program) and waits for their end. It
        // prints nothing when all goes well.
        {"launcher", "launcher", R::kTool, {}, kTwoAndFour, 0, {}, {}, kNoErrors},
    };
}

const Mode kOurs = Mode::kOurs;
const Mode kTheirs = Mode::kOpenPmix;
const Mode kInterop = Mode::kInterop;
const Mode kReverse = Mode::kReverse;

std::vector<KnownFailure> make_known_failures()
{
    using K = Known;
    return {
        {"dynamic",
         {kTheirs},
         {},
         K::kOpenPmix,
         "about 1 run in 10: OpenPMIx's server hangs pmixrun. A spawned child still connecting when its job is "
         "terminated (its parent ended) leaves OpenPMIx's progress thread waiting on a mutex of its own after "
         "\"UNREACHABLE in ptl_base_connection_hdlr.c at line 388\", and pmixrun's next "
         "PMIx_server_deregister_client waits for that thread forever. Our library serves the same pmixrun "
         "through the same run"},
        {"alloc",
         {kOurs, kInterop, kReverse},
         {4},
         K::kExample,
         "ranks 2-3 ask PMIX_QUERY_ALLOC_STATUS of \"MYALLOCATION\" 10 us after init, before rank 0 has "
         "requested it: pmixrun rightly answers NOT_FOUND for a request it has not had (PRRTE answers no such "
         "query at all); ranks 0 and 1 (the request and PMIX_NOTIFY_ALLOC_COMPLETE) pass"},
        {"alloc",
         {kTheirs, kReverse},
         {2},
         K::kOpenPmix,
         "intermittent (seen once in CI, and in mode reverse, whose server is OpenPMIx's too): rank 1 started after "
         "rank 0's allocation was granted and registered its "
         "PMIX_NOTIFY_ALLOC_COMPLETE handler after pmixrun raised the event; OpenPMIx 4.2.2's server did not "
         "deliver it to the late handler (ours keeps events for late registrations), so rank 1 waited until "
         "the timeout"},
        {"alloc",
         {kTheirs},
         {4},
         K::kOpenPmix,
         "OpenPMIx 4.2.2's PMIx_Query_info_nb segfaults on the example's PMIX_QUERY_ALLOC_STATUS query (qualifiers "
         "set, nqual left 0), also when built with OpenPMIx's own headers"},
        {"nodeinfo",
         {kOurs, kTheirs, kInterop, kReverse},
         {},
         K::kExample,
         "needs the fabric coordinates of a node and a peer (PMIX_FABRIC_COORDINATES); this machine has no "
         "fabric and pmixrun knows none, so both Gets answer NOT_FOUND at once, as PRRTE's would (a reserved "
         "key of a peer must not wait for that peer's commit)"},

        {"tool_spawn",
         {kOurs, kTheirs, kInterop, kReverse},
         {},
         K::kExample,
         "the example waits for PMIX_ERR_JOB_TERMINATED filtered on PMIX_EVENT_AFFECTED_PROC = the TOOL's own "
         "namespace (its comment: \"the children will have our nspace\"), a host convention the standard does not "
         "ask for; pmixrun gives the spawned job a namespace of its own, so hello runs and ends but the handler "
         "never fires (same on both libraries) and the tool waits until the timeout",
         8},
    };
}

bool contains(const std::vector<int> &values, int value)
{
    for (int v : values) {
        if (v == value) return true;
    }
    return false;
}

}  // namespace

const std::vector<ExampleCase> &example_cases()
{
    static const std::vector<ExampleCase> *cases = new std::vector<ExampleCase>(make_cases());
    return *cases;
}

const std::vector<KnownFailure> &known_failures()
{
    static const std::vector<KnownFailure> *known = new std::vector<KnownFailure>(make_known_failures());
    return *known;
}

const std::vector<SkippedExample> &skipped_examples()
{
    static const std::vector<SkippedExample> *skipped = new std::vector<SkippedExample>{
        {"server.c", "it is a host itself (a PMIx server forking its own clients), not something to run under "
                     "pmixrun, and it needs OpenPMIx internals (pmix_list_t, PMIX_CLASS_INSTANCE)"},
        {"pmi1client.c", "needs pmi.h and a PMI-1 library; neither OpenPMIx 4.2 nor pmixpp provides PMI-1"},
        {"debuggerd.c", "not run alone: debugger.c spawns it (in 4.2.2 it only prints and sleeps 10 s)"},
    };
    return *skipped;
}

const ExampleCase *find_case(const std::string &name)
{
    for (const ExampleCase &example : example_cases()) {
        if (example.name == name) return &example;
    }
    return nullptr;
}

const KnownFailure *known_failure(const std::string &name, Mode mode, int ranks)
{
    for (const KnownFailure &known : known_failures()) {
        bool mode_matches = false;
        for (Mode m : known.modes) mode_matches = mode_matches || m == mode;
        if (known.name == name && mode_matches && (known.ranks.empty() || contains(known.ranks, ranks))) {
            return &known;
        }
    }
    return nullptr;
}

}  // namespace examples_test
