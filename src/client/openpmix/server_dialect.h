// Our client under a server that speaks only OpenPMIx's protocol (Open
// MPI 4.1's mpirun and orted, slurmstepd or PRRTE on OpenPMIx): the rest of
// the client writes and reads its own requests and replies as always, and
// the link turns each into OpenPMIx's command or out of OpenPMIx's answer
// here (docs/wire-protocol.md, "The OpenPMIx dialect"). The mirror of
// src/server/openpmix/, which does the same for the server.
#ifndef PMIXPP_CLIENT_OPENPMIX_SERVER_DIALECT_H
#define PMIXPP_CLIENT_OPENPMIX_SERVER_DIALECT_H

#include <pmix_common.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "client/openpmix/invite_and_join.h"
#include "common/openpmix/bfrops.h"
#include "common/openpmix/commands.h"
#include "common/wire/messages.h"

namespace pmixpp::client {

// OpenPMIx's server answers a request on the tag it came with and keeps
// 0-99 for itself (events on 0, output on 2): a one-way request of ours
// (a commit nobody waits for) goes with this tag, and its answer is
// dropped.
inline constexpr uint32_t kOpenPmixUnwatchedTag = 3;

class OpenPmixServerDialect {
public:
    OpenPmixServerDialect(openpmix::Encoding encoding, const pmix_proc_t &self);

    // Our request payload, sent with `tag`, as OpenPMIx's command.
    // PMIX_ERR_NOT_SUPPORTED: OpenPMIx's protocol has no such command, or
    // this link does not carry it yet; the caller answers the request so.
    // A command OpenPMIx's server never answers (a deregistration) gets
    // our reply in *answer_here_p, for the caller to complete it with once
    // sent; otherwise that stays empty.
    pmix_status_t request(uint32_t tag, std::span<const uint8_t> ours, std::vector<uint8_t> *theirs_p,
                          wire::Bytes *answer_here_p);
    // OpenPMIx's answer on `tag` as our reply payload (the request's pending
    // entry is consumed). PMIX_ERR_NOT_FOUND: no request of ours on it.
    // PMIX_OPERATION_IN_PROGRESS: the request goes on (an invitation's
    // next step); send what take_outgoing() holds.
    pmix_status_t reply(uint32_t tag, std::span<const uint8_t> theirs, wire::Bytes *ours_p);
    // An event the server sent on tag 0. PMIX_OPERATION_SUCCEEDED: it was
    // an invitee's answer to an invitation of ours, taken here (as
    // OpenPMIx's leader takes it) and not for the handlers; send what
    // take_outgoing() holds.
    pmix_status_t event(std::span<const uint8_t> theirs, wire::Event *event_p);
    // Messages the link sends on the dialect's behalf, each with the tag of
    // the request it serves. Progress thread.
    std::vector<std::pair<uint32_t, std::vector<uint8_t>>> take_outgoing();
    // Output the server sent on tag 2 for a pull of ours.
    pmix_status_t output(std::span<const uint8_t> theirs, wire::IofData *data_p) const;
    // A request that failed before its answer came.
    void forget(uint32_t tag);

    openpmix::Encoding encoding() const { return encoding_; }

private:
    struct Pending {
        wire::Command command{};
        pmix_proc_t proc{};                // a get's target
        wire::InfoArray qualifiers;        // a get's (PMIX_INFO_QUALIFIER)
        uint64_t reference = 0;            // an event registration's
        std::vector<pmix_proc_t> members;  // a group construct's
        uint64_t iof_id = 0;               // a pull's: ours, the id OpenPMIx echoes in its output
    };

    pmix_status_t register_events(const wire::RegisterEventsRequest &request, openpmix::Writer &writer,
                                  Pending *pending_p);
    pmix_status_t deregister_events(const wire::DeregisterEventsRequest &request, openpmix::Writer &writer);
    pmix_status_t invitation_answer(uint32_t tag, std::span<const uint8_t> theirs, wire::Bytes *ours_p);
    bool took_answer(const wire::Event &event);
    pmix_status_t iof_request(wire::Command command, std::span<const uint8_t> ours, openpmix::Writer &writer,
                              Pending *pending_p);

    const openpmix::Encoding encoding_;
    const pmix_proc_t self_;
    std::mutex mutex_;  // requests come from callers' threads, answers on the progress thread
    std::map<uint32_t, Pending> pending_;
    // Our references of event registrations and the codes each named
    // (none: every code), for the deregistration OpenPMIx sends by code.
    std::map<uint64_t, std::vector<pmix_status_t>> registrations_;
    uint64_t next_reference_ = 1;
    // Our id of each pull (what its output names) and the server's (what a
    // deregistration names).
    std::map<uint64_t, std::size_t> pulls_;
    uint64_t next_pull_ = 1;
    // Invitations this process leads, by the invite's tag.
    std::map<uint32_t, Invitation> invitations_;
    bool answers_registered_ = false;  // for the invitees' answers, once per link
    std::vector<std::pair<uint32_t, std::vector<uint8_t>>> outgoing_;
};

}  // namespace pmixpp::client

#endif
