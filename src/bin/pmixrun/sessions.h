// pmixrun's sessions, after the PRRTE seed (prrte-sessions.txt): a session
// is an allocation of resources (here: this node) in which jobs run. The
// session of the command line's job is the default session (its id is
// --session-id, default 1); PMIx_Allocation_request from a process makes a
// child session of the requester's. Each has a numeric id, the user's
// reference (PMIX_ALLOC_REQ_ID) and the allocation's (PMIX_ALLOC_ID, given
// by pmixrun as the scheduler), its nodes, jobs and child sessions.
//
// Ending a session ends its jobs and its child sessions, except children
// separated from it (PMIX_ALLOC_CHILD_SEP at allocation, PMIX_SESSION_SEP
// later). Main thread only.
#ifndef PMIXPP_BIN_PMIXRUN_SESSIONS_H
#define PMIXPP_BIN_PMIXRUN_SESSIONS_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pmixrun {

struct Session {
    uint32_t id = 0;
    std::string user_refid;          // PMIX_ALLOC_REQ_ID, may be empty
    std::string alloc_refid;         // PMIX_ALLOC_ID
    std::optional<uint32_t> parent;  // none: the default session
    bool separated = false;          // outlives its parent
    bool paused = false;
    bool ended = false;
    std::vector<std::string> nodes;
    std::vector<std::string> jobs;  // namespaces, in start order
    std::vector<uint32_t> children;
};

class SessionTable {
public:
    // The default session.
    SessionTable(uint32_t default_id, std::string hostname);

    uint32_t default_id() const { return default_id_; }
    // A new child session of `parent` (which must exist and not have ended).
    Session &create_child(uint32_t parent, std::string user_refid, bool separated);

    Session *find(uint32_t id);
    Session *find_by_alloc_id(const std::string &alloc_refid);
    Session *find_by_user_refid(const std::string &user_refid);
    const std::map<uint32_t, Session> &all() const { return sessions_; }

    // Marks `id` ended and returns it with every child session that ends
    // with it (not separated, recursively), parents first.
    std::vector<uint32_t> end(uint32_t id);

private:
    uint32_t default_id_;
    std::string hostname_;
    uint32_t next_id_;
    std::map<uint32_t, Session> sessions_;
};

}  // namespace pmixrun

#endif
