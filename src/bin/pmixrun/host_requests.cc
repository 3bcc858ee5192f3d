// The host's answers to PMIx_Spawn, PMIx_Allocation_request,
// PMIx_Session_control and PMIx_Job_control, on pmixrun's main thread.
#include "authorization.h"
#include "launcher.h"
#include "runtime.h"

#include <pmix.h>
#include <pmixpp/util.hpp>

#include <signal.h>

#include <cstring>
#include <vector>

namespace pmixrun {
namespace {

using pmixpp::util::find_info;
using pmixpp::util::key_is;

// PMIX_INFO_TRUE, the standard's own reading, as any host on the public API
// would use: pmixrun is written as an outside resource manager.
bool flag(const pmix_info_t info[], size_t ninfo, const char *key)
{
    const pmix_info_t *item = find_info(info, ninfo, key);
    return item != nullptr && PMIX_INFO_TRUE(item);
}

std::string text(const pmix_info_t info[], size_t ninfo, const char *key)
{
    const pmix_info_t *item = find_info(info, ninfo, key);
    if (item == nullptr || item->value.type != PMIX_STRING || item->value.data.string == nullptr) return {};
    return item->value.data.string;
}

// A non-negative integer of any integer type that fits 32 bits.
bool number(const pmix_info_t *item, uint32_t *out_p)
{
    return item != nullptr && pmixpp::util::read_unsigned(item->value, out_p) == PMIX_SUCCESS;
}

// The parsers name the command line's option; a spawn names its attribute.
std::string without_prefix(const std::string &text, const std::string &prefix)
{
    return text.rfind(prefix, 0) == 0 ? text.substr(prefix.size()) : text;
}

// Where a spawn's ranks go, from the job attributes mpirun's flags map to
// (Open MPI's MPI_Comm_spawn passes its "map_by" and "bind_to" info keys
// as these, Open MPI 5 also "PPR:n:NODE" and ":DISPLAY"). A value pmixrun
// cannot read is named in one line and left out: the spawn goes on, placed
// by the rest (a spawn that worked before placement must keep working).
PlacementOptions spawn_placement(const SpawnCall &call)
{
    PlacementOptions options;
    using Parser = bool (*)(const std::string &, PlacementOptions *, std::string *);
    const struct {
        const char *key;
        const char *attribute;
        const char *option;  // the parser's words for it
        Parser parse;
    } words[] = {{PMIX_MAPBY, "PMIX_MAPBY ", "--map-by ", parse_map_by},
                 {PMIX_BINDTO, "PMIX_BINDTO ", "--bind-to ", parse_bind_to}};
    for (const auto &word : words) {
        const std::string value = text(call.job_info, call.ninfo, word.key);
        if (value.empty()) continue;
        PlacementOptions parsed = options;
        std::string why;
        if (word.parse(value, &parsed, &why)) {
            options = parsed;
        } else {
            say_refusal("placement",
                        word.attribute + without_prefix(why, word.option) + "; the spawn goes on without it");
        }
    }
    uint32_t cpus = 0;
    if (const pmix_info_t *item = find_info(call.job_info, call.ninfo, PMIX_CPUS_PER_PROC)) {
        if (number(item, &cpus) && cpus > 0 && cpus <= 65536) {
            if (options.cpus_per_rank == 0) options.cpus_per_rank = cpus;
        } else {
            say_refusal("placement", "PMIX_CPUS_PER_PROC takes a count of 1 to 65536; the spawn goes on without it");
        }
    }
    options.report = options.report || flag(call.job_info, call.ninfo, PMIX_REPORT_BINDINGS);
    return options;
}

// The applications of a spawn as pmixrun's own AppSpecs. False with *why_p.
bool app_specs(const SpawnCall &call, std::vector<AppSpec> *specs_p, std::string *why_p)
{
    for (size_t a = 0; a < call.napps; ++a) {
        const pmix_app_t &app = call.apps[a];
        AppSpec spec;
        spec.nprocs = app.maxprocs > 0 ? static_cast<uint32_t>(app.maxprocs) : 1;
        spec.argv.emplace_back(app.cmd);
        for (char **arg = app.argv; arg != nullptr && *arg != nullptr; ++arg) {
            if (arg != app.argv) spec.argv.emplace_back(*arg);  // argv[0] is the command itself
        }
        for (char **entry = app.env; entry != nullptr && *entry != nullptr; ++entry) {
            const char *eq = std::strchr(*entry, '=');
            if (eq == nullptr) continue;
            spec.env.emplace_back(std::string(*entry, static_cast<std::size_t>(eq - *entry)), std::string(eq + 1));
        }
        if (app.cwd != nullptr) spec.cwd = app.cwd;
        std::string path;
        if (!resolve_program(spec.argv[0], spec.cwd, &path, why_p)) return false;
        specs_p->push_back(std::move(spec));
    }
    return true;
}

uint64_t requested_procs(const std::vector<AppSpec> &specs)
{
    uint64_t total = 0;
    for (const AppSpec &spec : specs) total += spec.nprocs;
    return total;
}

// The seed's order: session id, allocation id, the user's allocation
// reference, the spawner's own session, the default session (a tool).
// nullptr with *why_p when the job names a session pmixrun does not know.
Session *session_for(Runtime &rt, const SpawnCall &call, std::string *why_p)
{
    SessionTable &sessions = rt.sessions();
    uint32_t id = 0;
    if (number(find_info(call.job_info, call.ninfo, PMIX_SESSION_ID), &id)) {
        if (Session *s = sessions.find(id)) return s;
        *why_p = "session " + std::to_string(id) + " (PMIX_SESSION_ID) is unknown";
        return nullptr;
    }
    const std::string alloc_id = text(call.job_info, call.ninfo, PMIX_ALLOC_ID);
    if (!alloc_id.empty()) {
        if (Session *s = sessions.find_by_alloc_id(alloc_id)) return s;
        *why_p = "allocation '" + alloc_id + "' (PMIX_ALLOC_ID) is unknown";
        return nullptr;
    }
    const std::string user_refid = text(call.job_info, call.ninfo, PMIX_ALLOC_REQ_ID);
    if (!user_refid.empty()) {
        if (Session *s = sessions.find_by_user_refid(user_refid)) return s;
        *why_p = "no session was allocated for request '" + user_refid + "' (PMIX_ALLOC_REQ_ID)";
        return nullptr;
    }
    if (const Job *parent = rt.find_job(call.requester.nspace)) return sessions.find(parent->session_id);
    return sessions.find(sessions.default_id());
}

void add_result(std::vector<pmix_info_t> &results, const char *key, const void *value, pmix_data_type_t type)
{
    results.emplace_back();
    PMIX_INFO_LOAD(&results.back(), key, value, type);
}

void describe_session(const Session &session, std::vector<pmix_info_t> &results)
{
    add_result(results, PMIX_SESSION_ID, &session.id, PMIX_UINT32);
    add_result(results, PMIX_ALLOC_ID, session.alloc_refid.c_str(), PMIX_STRING);
    if (!session.user_refid.empty()) add_result(results, PMIX_ALLOC_REQ_ID, session.user_refid.c_str(), PMIX_STRING);
    const uint32_t nodes = static_cast<uint32_t>(session.nodes.size());
    add_result(results, PMIX_NUM_NODES, &nodes, PMIX_UINT32);
    add_result(results, PMIX_NODE_LIST, session.nodes.front().c_str(), PMIX_STRING);
}

// The jobs a job-control request names: each target's namespace (a rank
// names its whole job here), or the requester's own job.
std::vector<Job *> target_jobs(Runtime &rt, const InfoCall &call, std::string *missing_p)
{
    std::vector<Job *> jobs;
    auto add = [&](const char *nspace) {
        Job *job = rt.find_job(nspace);
        if (job == nullptr) {
            *missing_p = nspace;
            return;
        }
        for (Job *known : jobs) {
            if (known == job) return;
        }
        jobs.push_back(job);
    };
    if (call.targets.empty()) add(call.requester.nspace);
    for (const pmix_proc_t &target : call.targets) add(target.nspace);
    return jobs;
}

// No targets (the requester's job) or the job with rank wildcard.
bool names_whole_job(const InfoCall &call, const Job &job)
{
    bool whole_job = call.targets.empty();
    for (const pmix_proc_t &t : call.targets) {
        whole_job = whole_job || (t.rank == PMIX_RANK_WILDCARD && job.nspace == t.nspace);
    }
    return whole_job;
}

void signal_targets(Runtime &rt, const InfoCall &call, Job &job, int sig)
{
    if (names_whole_job(call, job)) return rt.signal_job(job, sig);
    for (const pmix_proc_t &t : call.targets) {
        if (job.nspace != t.nspace || t.rank >= job.size()) continue;
        const Proc &proc = job.procs[t.rank];
        if (!proc.exited && proc.pid > 0) ::kill(-proc.pid, sig);
    }
}

// Directives that tell the host about a job rather than ask it to act on
// it: that the job may be preempted, how it would be checkpointed, an id for
// the request. pmixrun never preempts nor checkpoints, so it has nothing to
// do with them but say yes (OpenPMIx's jctrl example sends them).
bool only_informational(const InfoCall &call)
{
    static const char *const informational[] = {
        PMIX_JOB_CTRL_PREEMPTIBLE,       PMIX_JOB_CTRL_CHECKPOINT_METHOD,  PMIX_JOB_CTRL_CHECKPOINT_EVENT,
        PMIX_JOB_CTRL_CHECKPOINT_SIGNAL, PMIX_JOB_CTRL_CHECKPOINT_TIMEOUT, PMIX_JOB_CTRL_ID,
    };
    if (call.ninfo == 0) return false;
    for (size_t i = 0; i < call.ninfo; ++i) {
        bool known = false;
        for (const char *key : informational) known = known || key_is(call.info[i], key);
        if (!known) return false;
    }
    return true;
}

// PMIX_NOTIFY_ALLOC_COMPLETE to the requester's job (or the tool that
// asked), naming the allocation by both ids, as a scheduler says that a
// request was granted.
void announce_allocation(const InfoCall &call, const Session &session)
{
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, call.requester.nspace, PMIX_RANK_WILDCARD);
    std::vector<pmix_info_t> info(3);
    PMIX_INFO_LOAD(&info[0], PMIX_EVENT_CUSTOM_RANGE, &job, PMIX_PROC);
    PMIX_INFO_LOAD(&info[1], PMIX_ALLOC_ID, session.alloc_refid.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_SESSION_ID, &session.id, PMIX_UINT32);
    if (!session.user_refid.empty()) {
        info.emplace_back();
        PMIX_INFO_LOAD(&info.back(), PMIX_ALLOC_REQ_ID, session.user_refid.c_str(), PMIX_STRING);
    }
    (void)PMIx_Notify_event(PMIX_NOTIFY_ALLOC_COMPLETE, nullptr, PMIX_RANGE_CUSTOM, info.data(), info.size(), nullptr,
                            nullptr);
    for (pmix_info_t &item : info) PMIX_INFO_DESTRUCT(&item);
}

// The requester's name for its request: PMIX_ALLOC_REQ_ID, or PMIX_ALLOC_ID
// as older programs (OpenPMIx's alloc example) give it.
std::string requested_id(const InfoCall &call)
{
    std::string id = text(call.info, call.ninfo, PMIX_ALLOC_REQ_ID);
    return id.empty() ? text(call.info, call.ninfo, PMIX_ALLOC_ID) : id;
}

}  // namespace

SpawnCall::~SpawnCall()
{
    if (job_info != nullptr) PMIX_INFO_FREE(job_info, ninfo);
    if (apps != nullptr) PMIX_APP_FREE(apps, napps);
}

InfoCall::~InfoCall()
{
    if (info != nullptr) PMIX_INFO_FREE(info, ninfo);
}

void InfoCall::answer(pmix_status_t status, const std::vector<pmix_info_t> &results)
{
    if (cbfunc == nullptr) return;
    pmix_info_t *copy = nullptr;
    if (!results.empty()) {
        PMIX_INFO_CREATE(copy, results.size());
        for (size_t i = 0; copy != nullptr && i < results.size(); ++i) PMIx_Info_xfer(&copy[i], &results[i]);
    }
    const size_t n = copy != nullptr ? results.size() : 0;
    struct Held {
        pmix_info_t *info;
        size_t n;
    };
    auto *held = new Held{copy, n};
    cbfunc(
        status, copy, n, cbdata,
        [](void *p) {
            auto *h = static_cast<Held *>(p);
            if (h->info != nullptr) PMIX_INFO_FREE(h->info, h->n);
            delete h;
        },
        held);
    for (const pmix_info_t &item : results) PMIX_INFO_DESTRUCT(const_cast<pmix_info_t *>(&item));
}

void Runtime::spawn(SpawnCall &call)
{
    std::string why;
    std::vector<AppSpec> specs;
    if (!app_specs(call, &specs, &why)) {
        say_refusal("spawn", why);
        return call.cbfunc(PMIX_ERR_JOB_EXE_NOT_FOUND, nullptr, call.cbdata);
    }
    const PlacementOptions placement = spawn_placement(call);
    const uint64_t requested = requested_procs(specs);
    const uint64_t running = running_processes();
    if (running + requested > options_.max_procs) {
        say_refusal("spawn", std::string(call.requester.nspace) + ":" + std::to_string(call.requester.rank) +
                                 " asked for " + std::to_string(requested) + " processes next to the " +
                                 std::to_string(running) + " running, past --max-procs " +
                                 std::to_string(options_.max_procs) +
                                 " (ask for fewer, or start pmixrun with a larger --max-procs)");
        return call.cbfunc(PMIX_ERR_OUT_OF_RESOURCE, nullptr, call.cbdata);
    }
    Session *session = session_for(*this, call, &why);
    if (session != nullptr && session->ended) {
        why = "session " + std::to_string(session->id) + " has ended";
        session = nullptr;
    }
    if (session == nullptr) {
        say_refusal("spawn", why);
        return call.cbfunc(PMIX_ERR_NOT_FOUND, nullptr, call.cbdata);
    }
    if (!may_use_session(*this, call.requester, session->id, &why)) {
        say_refusal("spawn", why);
        return call.cbfunc(PMIX_ERR_NO_PERMISSIONS, nullptr, call.cbdata);
    }
    jobs_.push_back(std::make_unique<Job>(make_job(specs, next_nspace(), hostname_, session->id)));
    Job &job = *jobs_.back();
    job.spawned_by = call.requester;
    job.separated = flag(call.job_info, call.ninfo, PMIX_SPAWN_CHILD_SEP);
    job.notify_spawner = flag(call.job_info, call.ninfo, PMIX_NOTIFY_COMPLETION);
    job.placement = placement;
    if (!launch(job, nullptr, &why)) {
        say_refusal("spawn", why);
        return call.cbfunc(PMIX_ERR_JOB_FAILED_TO_LAUNCH, nullptr, call.cbdata);
    }
    if (session->paused) signal_job(job, SIGSTOP);
    pmix_nspace_t nspace;
    PMIX_LOAD_NSPACE(nspace, job.nspace.c_str());
    call.cbfunc(PMIX_SUCCESS, nspace, call.cbdata);
}

void Runtime::allocate(InfoCall &call)
{
    if (call.number == PMIX_ALLOC_RELEASE) {
        uint32_t id = 0;
        Session *session = nullptr;
        if (number(find_info(call.info, call.ninfo, PMIX_SESSION_ID), &id)) session = sessions_.find(id);
        if (session == nullptr) session = sessions_.find_by_alloc_id(text(call.info, call.ninfo, PMIX_ALLOC_ID));
        if (session == nullptr || session->id == sessions_.default_id()) {
            say_refusal("allocation release", "name a child session with PMIX_SESSION_ID or PMIX_ALLOC_ID");
            return call.answer(PMIX_ERR_NOT_FOUND);
        }
        std::string why;
        if (!may_use_session(*this, call.requester, session->id, &why)) {
            say_refusal("allocation release", why);
            return call.answer(PMIX_ERR_NO_PERMISSIONS);
        }
        end_session(session->id, "");
        return call.answer(PMIX_SUCCESS);
    }
    if (call.number != PMIX_ALLOC_NEW) {
        say_refusal("allocation request", "only PMIX_ALLOC_NEW and PMIX_ALLOC_RELEASE are served on one node");
        return call.answer(PMIX_ERR_NOT_SUPPORTED);
    }
    const Job *requester_job = find_job(call.requester.nspace);
    const uint32_t parent = requester_job != nullptr ? requester_job->session_id : sessions_.default_id();
    const Session *parent_session = sessions_.find(parent);
    if (parent_session == nullptr || parent_session->ended) {
        say_refusal("allocation request", "the requester's session has ended");
        return call.answer(PMIX_ERR_NOT_FOUND);
    }
    const std::string user_refid = requested_id(call);
    if (!user_refid.empty() && sessions_.find_by_user_refid(user_refid) != nullptr) {
        say_refusal("allocation request", "request id '" + user_refid + "' (PMIX_ALLOC_REQ_ID) is already in use");
        return call.answer(PMIX_ERR_BAD_PARAM);
    }
    const Session &session =
        sessions_.create_child(parent, user_refid, flag(call.info, call.ninfo, PMIX_ALLOC_CHILD_SEP));
    std::vector<pmix_info_t> results;
    describe_session(session, results);
    publish_state();
    call.answer(PMIX_SUCCESS, results);
    announce_allocation(call, session);
}

void Runtime::session_control(InfoCall &call)
{
    Session *session = sessions_.find(call.number);
    if (session == nullptr || session->ended) {
        say_refusal("session control", "session " + std::to_string(call.number) + " is unknown or has ended");
        return call.answer(PMIX_ERR_NOT_FOUND);
    }
    std::string why;
    if (!may_use_session(*this, call.requester, session->id, &why)) {
        say_refusal("session control", why);
        return call.answer(PMIX_ERR_NO_PERMISSIONS);
    }
    uint32_t sig = 0;
    if (flag(call.info, call.ninfo, PMIX_SESSION_SEP)) {
        if (!session->parent) {
            say_refusal("session control", "the default session has no parent to separate from");
            return call.answer(PMIX_ERR_BAD_PARAM);
        }
        session->separated = true;
    }
    const bool terminate = flag(call.info, call.ninfo, PMIX_SESSION_TERMINATE);
    const bool pause = flag(call.info, call.ninfo, PMIX_SESSION_PAUSE);
    const bool resume = flag(call.info, call.ninfo, PMIX_SESSION_RESUME);
    const bool signal = number(find_info(call.info, call.ninfo, PMIX_SESSION_SIGNAL), &sig);
    const bool separate = flag(call.info, call.ninfo, PMIX_SESSION_SEP);
    if (!terminate && !pause && !resume && !signal && !separate) {
        say_refusal("session control", "no directive pmixrun serves (terminate, pause, resume, signal, separate)");
        return call.answer(PMIX_ERR_NOT_SUPPORTED);
    }
    // Answer first: the requester may be one of the processes that end.
    std::vector<pmix_info_t> results;
    describe_session(*session, results);
    call.answer(PMIX_SUCCESS, results);
    for (const std::string &nspace : session->jobs) {
        Job *job = find_job(nspace);
        if (job == nullptr || job->phase != JobPhase::running) continue;
        if (pause) signal_job(*job, SIGSTOP);
        if (resume) signal_job(*job, SIGCONT);
        if (signal) signal_job(*job, static_cast<int>(sig));
    }
    if (pause) session->paused = true;
    if (resume) session->paused = false;
    if (terminate) end_session(session->id, "session " + std::to_string(session->id) + " terminated on request");
    publish_state();
}

void Runtime::job_control(InfoCall &call)
{
    std::string missing;
    std::vector<Job *> targets = target_jobs(*this, call, &missing);
    if (!missing.empty()) {
        say_refusal("job control", "namespace " + missing + " is not a job of this pmixrun");
        return call.answer(PMIX_ERR_NOT_FOUND);
    }
    for (const Job *target : targets) {
        std::string why;
        if (may_control_job(*this, call.requester, *target, &why)) continue;
        say_refusal("job control", why);
        return call.answer(PMIX_ERR_NO_PERMISSIONS);
    }
    uint32_t sig = 0;
    const bool kill = flag(call.info, call.ninfo, PMIX_JOB_CTRL_KILL);
    const bool terminate = flag(call.info, call.ninfo, PMIX_JOB_CTRL_TERMINATE);
    const bool pause = flag(call.info, call.ninfo, PMIX_JOB_CTRL_PAUSE);
    const bool resume = flag(call.info, call.ninfo, PMIX_JOB_CTRL_RESUME);
    const bool separate = flag(call.info, call.ninfo, PMIX_JOB_CTRL_SEP);
    const bool signal = number(find_info(call.info, call.ninfo, PMIX_JOB_CTRL_SIGNAL), &sig);
    if (!kill && !terminate && !pause && !resume && !separate && !signal) {
        if (only_informational(call)) return call.answer(PMIX_SUCCESS);
        say_refusal("job control", "no directive pmixrun serves (kill, terminate, signal, pause, resume, separate)");
        return call.answer(PMIX_ERR_NOT_SUPPORTED);
    }
    call.answer(PMIX_SUCCESS);  // before acting: the requester may be a target
    for (Job *job : targets) {
        if (separate) job->separated = true;
        if (pause) signal_targets(*this, call, *job, SIGSTOP);
        if (resume) signal_targets(*this, call, *job, SIGCONT);
        if (signal) signal_targets(*this, call, *job, static_cast<int>(sig));
        if (kill) signal_targets(*this, call, *job, SIGKILL);
        if (terminate && names_whole_job(call, *job)) end_job(*job, "");
        if (terminate && !names_whole_job(call, *job)) signal_targets(*this, call, *job, SIGTERM);
    }
    publish_state();
}

}  // namespace pmixrun
