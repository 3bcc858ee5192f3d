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
    "failed", "FAILED", "[Ee]rror", "ERROR", "wrong", "incorrect", "NOT.FOUND", "NOT.SUPPORTED",
    "pmixrun: refused", "killed by signal", "LOCK WAS"};

const std::string kFinalized = "rank {rank}:PMIx_Finalize successfully completed";
const std::string kSuccess = "(PMIX_)?SUCCESS";  // PMIx_Error_string: ours, then OpenPMIx's spelling

const std::vector<int> kTwoAndFour = {2, 4};

std::vector<ExampleCase> make_cases()
{
    using R = Role;
    return {
        {"hello", "hello", R::kClient, {}, kTwoAndFour, 0,
         {"Query returned 2 values status " + kSuccess},
         {"rank {rank} pid [0-9]+: Running on host \\S+ localrank {rank}\n", kFinalized}, kNoErrors},
        // "true": the same query with PMIX_QUERY_REFRESH_CACHE.
        {"hello_refresh", "hello", R::kClient, {"true"}, kTwoAndFour, 0,
         {"Query returned 2 values status " + kSuccess},
         {"rank {rank} pid [0-9]+: Running on host \\S+ localrank {rank}\n", kFinalized}, kNoErrors},
        {"client", "client", R::kClient, {}, kTwoAndFour, 0, {},
         {":{rank} topology loaded", ":{rank} universe size {n}\n", ":{rank} num procs {n}\n",
          "rank {rank}: PMIx_Get \\S+-0-local returned correct", kFinalized},
         kNoErrors},
        {"client2", "client2", R::kClient, {}, kTwoAndFour, 0, {}, {":{rank} job size {n}\n", kFinalized},
         kNoErrors},
        // Only rank 0 talks when all goes well.
        {"dmodex", "dmodex", R::kClient, {}, kTwoAndFour, 0,
         {"rank 0: Running. World size {n}\n", "rank 0:PMIx_Finalize successfully completed"}, {}, kNoErrors},
        // Rank 0 spawns 2 of ./client; they end with the job that spawned them.
        {"dynamic", "dynamic", R::kClient, {}, kTwoAndFour, 0,
         {"rank 0: calling PMIx_Spawn", ":0 job \\S+ size 2\n", ":0 job \\S+ local rank 1\n"},
         {":{rank} job size {n}\n", "@1 rank {rank}:PMIx_Finalize successfully completed"}, kNoErrors},
        // Rank 0 exits 1 without finalizing; pmixrun passes its code on and ends
        // the others, which may not have started talking yet.
        {"bad_exit", "bad_exit", R::kClient, {}, kTwoAndFour, 1,
         {"rank 0 pid [0-9]+: Running on host \\S+ localrank 0\n", "Query returned 2 values status " + kSuccess,
          "rank 0 \\(pid [0-9]+, \\./bad_exit\\) exited with status 1"},
         {}, kNoErrors},
        {"pub", "pub", R::kClient, {}, kTwoAndFour, 0,
         {":0 publish complete", "PUBLISH-LOOKUP SUCCEEDED", "UNPUBLISH SUCCEEDED"}, {":{rank} universe size {n}\n"},
         kNoErrors},
        {"pubi", "pubi", R::kClient, {}, kTwoAndFour, 0,
         {":0 publish complete", "PUBLISH-LOOKUP SUCCEEDED", "UNPUBLISH SUCCEEDED"}, {":{rank} universe size {n}\n"},
         kNoErrors},
        // Rank 0 logs to stderr with a timestamp; pmixrun prints it.
        {"log", "log", R::kClient, {}, kTwoAndFour, 0, {"stderr log message"}, {":{rank} Calling Fence", kFinalized},
         kNoErrors},
        {"jctrl", "jctrl", R::kClient, {}, kTwoAndFour, 0, {}, {":{rank} universe size {n}\n", kFinalized}, kNoErrors},
        // Rank 0 asks, rank 1 waits for PMIX_NOTIFY_ALLOC_COMPLETE, the others query the status.
        {"alloc", "alloc", R::kClient, {}, kTwoAndFour, 0, {},
         {"(rank {rank}: |:{rank}\\] )Allocation returned status: " + kSuccess + "\n", kFinalized}, kNoErrors},
        {"nodeinfo", "nodeinfo", R::kClient, {}, kTwoAndFour, 0, {"rank 0: Host list \\S+\n"},
         {"rank {rank}: Rank [0-9]+ is on host \\S+\n", kFinalized}, kNoErrors},
        // Rank 0 exits 1 after a fence; the others must hear of it by an event
        // (whose handler prints "DEBUGGER DAEMON NOTIFIED TERMINATED") and finalize.
        {"fault", "fault", R::kClient, {}, kTwoAndFour, 1,
         {"rank 0: exiting with error\n", "NOTIFIED TERMINATED", "rank 1:PMIx_Finalize successfully completed"}, {},
         {"failed", "FAILED", "wrong", "NOT.FOUND", "killed by signal"}},
        // Ranks 0, 2, 3 construct a group with a context id.
        {"group", "group", R::kClient, {}, {4}, 0,
         {"0 Group construct complete with status " + kSuccess + " KEY \\S+ CID [0-9]+",
          "2 Group construct complete with status " + kSuccess + " KEY \\S+ CID [0-9]+",
          "3 Group construct complete with status " + kSuccess + " KEY \\S+ CID [0-9]+"},
         {":{rank} COMPLETE\n"}, kNoErrors},
        {"group_below_4", "group", R::kClient, {}, {2}, 0, {"This example requires a minimum of 4 processes"},
         {":{rank} COMPLETE\n"}, {"failed", "FAILED", "[Ee]rror", "killed by signal"}},
        {"group_dmodex", "group_dmodex", R::kClient, {}, kTwoAndFour, 0, {},
         {"{rank} Group construct complete with status " + kSuccess + " KEY \\S+ CID [0-9]+", ":{rank} COMPLETE\n"},
         kNoErrors},
        {"group_lcl_cid", "group_lcl_cid", R::kClient, {}, kTwoAndFour, 0, {},
         {"Rank {rank} Group construct complete with status " + kSuccess + " KEY \\S+ CID [0-9]+",
          ":{rank}: PMIx_Get LOCAL CID for rank [0-9]+ SUCCESS", ":{rank} COMPLETE\n"},
         kNoErrors},
        {"asyncgroup", "asyncgroup", R::kClient, {}, {4}, 0,
         {"rank 0: Group invite complete with status " + kSuccess + "!", ":2 Group complete - executing fence",
          ":3 Group complete - executing fence"},
         {":{rank} COMPLETE\n"}, kNoErrors},
        {"asyncgroup_below_4", "asyncgroup", R::kClient, {}, {2}, 0,
         {"This example requires a minimum of 4 processes"}, {":{rank} COMPLETE\n"},
         {"failed", "FAILED", "[Ee]rror", "killed by signal"}},
        // Queries the ABI versions before PMIx_Init (only the blocking form may).
        {"abi_no_init", "abi_no_init", R::kClient, {}, kTwoAndFour, 0,
         {"ABI \\(Stable\\): String: 0\\.0\n", "ABI \\(Provisional\\): String: 0\\.0\n"}, {}, kNoErrors},
        // After init: the host's namespaces and the two ABI versions (one line each:
        // the ranks' lines interleave).
        {"abi_with_init", "abi_with_init", R::kClient, {}, kTwoAndFour, 0,
         {"Query returned \\(ninfo 3\\)\n", "KEY: pmix\\.qry\\.ns\n", "Namespaces: String: \\S+\n",
          "KEY: pmix\\.qry\\.stabiver\n", "ABI \\(Stable\\): String: 0\\.0\n", "KEY: pmix\\.qry\\.prabiver\n",
          "ABI \\(Provisional\\): String: 0\\.0\n"},
         {}, kNoErrors},

        // Tools, beside a job of N processes waiting under pmixrun --system-server.
        {"tool", "tool", R::kTool, {"-u", "@URI@"}, kTwoAndFour, 0, {"ACTIVE NSPACES:\n\t@NSPACE@\t"}, {}, kNoErrors},
        {"tool_nspace", "tool", R::kTool, {"-u", "@URI@", "--nspace", "@NSPACE@"}, kTwoAndFour, 0,
         {"JOB SIZE FOR NSPACE @NSPACE@: {n}\n"}, {}, kNoErrors},
        {"tool_uri", "tool", R::kTool, {"-u", "@URI@", "--uri", "@HOST@"}, kTwoAndFour, 0,
         {"PMIx server URI for node @HOST@: \\S+"}, {}, kNoErrors},
        {"tool_spawn", "tool", R::kTool, {"-u", "@URI@", "--spawn", "./hello"}, kTwoAndFour, 0,
         {"TOOL NOTIFIED THAT ALL CHILD PROCS \\S+ TERMINATED"}, {}, kNoErrors},
        // Launch mode: asks for spawn and debug support, spawns ./client stopped
        // in init and ./debuggerd beside it, waits for a job to end.
        {"debugger", "debugger", R::kTool, {}, kTwoAndFour, 0,
         {"Debugger: querying capabilities", "Debugger: spawning \\S*client", "SPAWNED DEBUGGERD"}, {}, kNoErrors},
        {"debugger_attach", "debugger", R::kTool, {"-a", "@NSPACE@"}, kTwoAndFour, 0,
         {"Query returned \\S*@NSPACE@"}, {}, kNoErrors},
        // Spawns 128 of `app` (a link to /bin/true that the runner puts on
        // PATH: OpenPMIx ships no such program) and waits for their end. It
        // prints nothing when all goes well.
        {"launcher", "launcher", R::kTool, {}, kTwoAndFour, 0, {}, {}, kNoErrors},
    };
}

const Mode kOurs = Mode::kOurs;
const Mode kTheirs = Mode::kOpenPmix;

std::vector<KnownFailure> make_known_failures()
{
    using K = Known;
    return {
        // Missing pieces of pmixrun's job data, in both modes (with our
        // library the server fills in what pmixrun leaves out; OpenPMIx does not).
        {"hello", {kTheirs}, {}, K::kPending,
         "pending: pmixrun per-proc PMIX_LOCAL_RANK: \"PMIx_Get local rank failed: NOT-FOUND\", so the query is skipped"},
        {"hello_refresh", {kTheirs}, {}, K::kPending,
         "pending: pmixrun per-proc PMIX_LOCAL_RANK: \"PMIx_Get local rank failed: NOT-FOUND\""},
        {"bad_exit", {kTheirs}, {}, K::kPending,
         "pending: pmixrun per-proc PMIX_LOCAL_RANK: \"PMIx_Get local rank failed: NOT-FOUND\""},
        {"client", {kTheirs}, {}, K::kPending,
         "pending: pmixrun's namespace starting with the reserved \"pmix\" prefix: the example's keys are "
         "\"<nspace>-<rank>-internal\", and OpenPMIx refuses a key starting with \"pmix\" that it does not know: "
         "PMIx_Store_internal fails BAD-PARAM (gds_hash.c:1264); under Open MPI's mpirun (numeric nspace) it works"},
        {"dmodex", {kTheirs}, {}, K::kPending,
         "pending: pmixrun's namespace starting with the reserved \"pmix\" prefix: PMIx_Store_internal of "
         "\"<nspace>-<rank>-internal\" fails BAD-PARAM in OpenPMIx's gds/hash"},
        {"dynamic", {kTheirs}, {}, K::kPending,
         "pending: pmixrun per-proc PMIX_LOCAL_RANK: PMIx_Get of the spawned job's rank 1 PMIX_LOCAL_RANK fails "
         "(-46 NOT_FOUND, or -17 when it races the child's registration). Also, about 1 run in 10: pmixrun hangs "
         "in PMIx_server_deregister_client while OpenPMIx's progress thread waits on a mutex, after "
         "\"UNREACHABLE in ptl_base_connection_hdlr.c at line 388\" (a spawned child connecting as its job ends)"},

        {"abi_no_init", {kOurs}, {}, K::kPending,
         "pending: ABI version queries before init: PMIx_Query_info of PMIX_QUERY_STABLE/PROVISIONAL_ABI_VERSION "
         "returns PMIX_ERR_INIT, exit 225"},
        {"abi_with_init", {kOurs}, {}, K::kPending,
         "pending: ABI version queries + PMIX_QUERY_NAMESPACES answered twice: 2 infos back, both pmix.qry.ns, "
         "no pmix.qry.stabiver/prabiver"},

        {"log", {kTheirs}, {}, K::kPending,
         "pending: pmixrun's log upcall calls back before returning: under OpenPMIx rank 0's PMIx_Log never "
         "completes, the job hangs until the timeout"},
        {"jctrl", {kOurs, kTheirs}, {}, K::kPending,
         "pending: job-control informational directives: pmixrun refuses PMIX_JOB_CTRL_PREEMPTIBLE/"
         "CHECKPOINT_METHOD, PMIx_Job_control_nb fails -47 (PMIX_ERR_NOT_SUPPORTED)"},
        {"alloc", {kOurs}, {}, K::kPending,
         "pending: PMIX_NOTIFY_ALLOC_COMPLETE / PMIX_QUERY_ALLOC_STATUS: rank 1 waits for the event forever, "
         "ranks 2-3 get NOT_FOUND for the status query"},
        {"alloc", {kTheirs}, {2}, K::kPending,
         "pending: PMIX_NOTIFY_ALLOC_COMPLETE: rank 1 waits for the event forever"},
        {"alloc", {kTheirs}, {4}, K::kOpenPmix,
         "OpenPMIx 4.2.2's PMIx_Query_info_nb segfaults on the example's PMIX_QUERY_ALLOC_STATUS query (qualifiers "
         "set, nqual left 0), also when built with OpenPMIx's own headers; rank 1 would then still wait for "
         "pending PMIX_NOTIFY_ALLOC_COMPLETE"},
        {"nodeinfo", {kOurs}, {}, K::kPending,
         "pending: reserved pmix. keys of a peer answered NOT_FOUND at once: PMIx_Get of the peer's "
         "PMIX_FABRIC_COORDINATES is parked in the server and never answered, the job hangs"},
        {"nodeinfo", {kTheirs}, {}, K::kPending,
         "pending: fabric: pmixrun registers no PMIX_FABRIC_COORDINATES (proc or node level), both Gets "
         "return NOT-FOUND"},
        {"fault", {kOurs, kTheirs}, {}, K::kPending,
         "pending: fault example not seeing the termination event: pmixrun kills the other ranks when rank 0 "
         "exits 1 without raising PMIX_ERR_PROC_ABORTED / PMIX_ERR_JOB_TERMINATED to them first"},

        {"group", {kOurs, kTheirs}, {}, K::kPending,
         "pending: groups: pmixrun has no group upcall, PMIx_Group_construct returns PMIX_ERR_NOT_SUPPORTED"},
        {"group_dmodex", {kOurs, kTheirs}, {}, K::kPending,
         "pending: groups: PMIx_Group_construct returns PMIX_ERR_NOT_SUPPORTED"},
        {"group_lcl_cid", {kOurs, kTheirs}, {}, K::kPending,
         "pending: groups: PMIx_Group_construct returns PMIX_ERR_NOT_SUPPORTED"},
        {"asyncgroup", {kOurs}, {}, K::kPending,
         "pending: groups: PMIx_Group_invite returns PMIX_ERR_NOT_SUPPORTED, rank 0 exits 1"},
        {"asyncgroup", {kTheirs}, {}, K::kPending,
         "pending: groups: the invite succeeds inside OpenPMIx, but the fence over the group and "
         "PMIx_Group_destruct need pmixrun's group upcall (NOT-SUPPORTED), rank 0 exits 1"},

        {"tool", {kOurs, kTheirs}, {}, K::kPending,
         "pending: PMIX_QUERY_NAMESPACE_INFO values as strings: pmixrun gives the job's info with uint32 values, "
         "the example prints them with %s and segfaults (exit 139)"},
        {"tool_nspace", {kOurs, kTheirs}, {}, K::kPending,
         "pending: pmixrun's query upcall kinds: PMIX_JOB_SIZE with a PMIX_NSPACE qualifier is answered "
         "NOT_FOUND (ours) / EMPTY (OpenPMIx)"},
        {"tool_uri", {kOurs, kTheirs}, {}, K::kPending,
         "pending: pmixrun's query upcall kinds: PMIX_SERVER_URI with PMIX_HOSTNAME is answered "
         "NOT_FOUND (ours) / EMPTY (OpenPMIx)"},
        {"debugger", {kOurs, kTheirs}, {}, K::kPending,
         "pending: pmixrun's query upcall kinds: PMIX_QUERY_SPAWN_SUPPORT + PMIX_QUERY_DEBUG_SUPPORT come "
         "back with 0 infos (\"incorrect number of results: 0\"), nothing is spawned"},
        {"tool_spawn", {kOurs, kTheirs}, {}, K::kExample,
         "the example waits for PMIX_ERR_JOB_TERMINATED filtered on PMIX_EVENT_AFFECTED_PROC = the TOOL's own "
         "namespace (its comment: \"the children will have our nspace\"), a host convention the standard does not "
         "ask for; pmixrun gives the spawned job a namespace of its own, so hello runs and ends but the handler "
         "never fires (same on both libraries) and the tool waits until the timeout"},
    };
}

bool contains(const std::vector<int> &values, int value)
{
    for (int v : values) {
        if (v == value) return true;
    }
    return false;
}

} // namespace

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

} // namespace examples_test
