#include "sessions.h"

#include "job.h"

#include <unistd.h>

namespace pmixrun {
namespace {

std::string alloc_refid_of(uint32_t session_id)
{
    return kNamePrefix + std::to_string(::getpid()) + "-session-" + std::to_string(session_id);
}

}  // namespace

SessionTable::SessionTable(uint32_t default_id, std::string hostname)
    : default_id_(default_id), hostname_(std::move(hostname)), next_id_(default_id + 1)
{
    Session &session = sessions_[default_id];
    session.id = default_id;
    session.alloc_refid = alloc_refid_of(default_id);
    session.nodes = {hostname_};
}

Session &SessionTable::create_child(uint32_t parent, std::string user_refid, bool separated)
{
    while (sessions_.count(next_id_) != 0) ++next_id_;
    const uint32_t id = next_id_++;
    Session &session = sessions_[id];
    session.id = id;
    session.user_refid = std::move(user_refid);
    session.alloc_refid = alloc_refid_of(id);
    session.parent = parent;
    session.separated = separated;
    session.nodes = {hostname_};
    sessions_[parent].children.push_back(id);
    return session;
}

Session *SessionTable::find(uint32_t id)
{
    auto it = sessions_.find(id);
    return it == sessions_.end() ? nullptr : &it->second;
}

Session *SessionTable::find_by_alloc_id(const std::string &alloc_refid)
{
    for (auto &[id, session] : sessions_) {
        if (session.alloc_refid == alloc_refid) return &session;
    }
    return nullptr;
}

Session *SessionTable::find_by_user_refid(const std::string &user_refid)
{
    if (user_refid.empty()) return nullptr;
    for (auto &[id, session] : sessions_) {
        if (session.user_refid == user_refid) return &session;
    }
    return nullptr;
}

std::vector<uint32_t> SessionTable::end(uint32_t id)
{
    std::vector<uint32_t> ended;
    std::vector<uint32_t> pending{id};
    while (!pending.empty()) {
        const uint32_t next = pending.back();
        pending.pop_back();
        Session *session = find(next);
        if (session == nullptr || session->ended) continue;
        session->ended = true;
        ended.push_back(next);
        for (uint32_t child : session->children) {
            const Session *c = find(child);
            if (c != nullptr && !c->separated) pending.push_back(child);
        }
    }
    return ended;
}

}  // namespace pmixrun
