// Who may change what in a pmixrun: a client controls only its own job and
// the jobs it spawned (and theirs, down the line), and only its own session
// and the sessions allocated under it; it spawns only into those sessions.
// Tools are trusted: pmixrun admits only tools of its own user (or root).
// A refusal is PMIX_ERR_NO_PERMISSIONS with a line naming requester,
// target and rule.
#ifndef PMIXPP_BIN_PMIXRUN_AUTHORIZATION_H
#define PMIXPP_BIN_PMIXRUN_AUTHORIZATION_H

#include "runtime.h"

#include <pmix_common.h>

#include <string>

namespace pmixrun {

// True when `requester` may control `target`; otherwise *why_p says why not.
bool may_control_job(Runtime &rt, const pmix_proc_t &requester, const Job &target, std::string *why_p);
// True when `requester` may control (or spawn into) session `session_id`.
bool may_use_session(Runtime &rt, const pmix_proc_t &requester, uint32_t session_id, std::string *why_p);
// True when a tool of this uid may connect.
bool may_connect_tool(uid_t tool_uid, std::string *why_p);

std::string proc_text(const pmix_proc_t &proc);

}  // namespace pmixrun

#endif
