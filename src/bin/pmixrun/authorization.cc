#include "authorization.h"

#include <unistd.h>

namespace pmixrun {

std::string proc_text(const pmix_proc_t &proc)
{
    return std::string(proc.nspace, strnlen(proc.nspace, PMIX_MAX_NSLEN)) + ":" + std::to_string(proc.rank);
}

namespace {

// The requester's job, or nullptr for a tool (tools have namespaces of
// their own, not jobs).
const Job *job_of(Runtime &rt, const pmix_proc_t &requester)
{
    return rt.find_job(requester.nspace);
}

// Whether `job` is `ancestor` or was spawned, directly or further down, by it.
bool descends_from(Runtime &rt, const Job &job, const Job &ancestor)
{
    const Job *at = &job;
    for (std::size_t depth = 0; at != nullptr && depth <= rt.jobs().size(); ++depth) {
        if (at == &ancestor) return true;
        if (at->from_command_line()) return false;
        at = rt.find_job(at->spawned_by.nspace);
    }
    return false;
}

// Whether `session_id` is `ancestor_id` or was allocated under it.
bool within_session(SessionTable &sessions, uint32_t session_id, uint32_t ancestor_id)
{
    const Session *at = sessions.find(session_id);
    for (int depth = 0; at != nullptr && depth < 1 << 16; ++depth) {
        if (at->id == ancestor_id) return true;
        if (!at->parent) return false;
        at = sessions.find(*at->parent);
    }
    return false;
}

}  // namespace

bool may_control_job(Runtime &rt, const pmix_proc_t &requester, const Job &target, std::string *why_p)
{
    const Job *own = job_of(rt, requester);
    if (own == nullptr || descends_from(rt, target, *own)) return true;
    *why_p = proc_text(requester) + " may control only its own job and the jobs it spawned, not " + target.nspace;
    return false;
}

bool may_use_session(Runtime &rt, const pmix_proc_t &requester, uint32_t session_id, std::string *why_p)
{
    const Job *own = job_of(rt, requester);
    if (own == nullptr || within_session(rt.sessions(), session_id, own->session_id)) return true;
    *why_p = proc_text(requester) + " (session " + std::to_string(own->session_id) +
             ") may use only its own session and the sessions allocated under it, not session " +
             std::to_string(session_id);
    return false;
}

bool may_connect_tool(uid_t tool_uid, std::string *why_p)
{
    if (tool_uid == ::getuid() || tool_uid == 0) return true;
    *why_p = "a tool of uid " + std::to_string(tool_uid) + " may not attach to the pmixrun of uid " +
             std::to_string(::getuid()) + " (only the same user or root)";
    return false;
}

}  // namespace pmixrun
