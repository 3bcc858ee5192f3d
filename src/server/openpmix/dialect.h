// One OpenPMIx peer: the encoding it speaks and the requests it waits on.
// Our answers come back by tag (peer_io.h); the request each tag stands for
// says how to turn the answer into what OpenPMIx's library reads.
#ifndef PMIXPP_SERVER_OPENPMIX_DIALECT_H
#define PMIXPP_SERVER_OPENPMIX_DIALECT_H

#include "common/openpmix/bfrops.h"
#include "common/openpmix/commands.h"
#include "common/openpmix/connect.h"
#include "server/state/peer_dialect.h"
#include "server/state/server.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace pmixpp::server {

// What an answer to one OpenPMIx request needs to know about the request.
struct OpenPmixPending {
    openpmix::Command command = openpmix::Command::req;
    pmix_proc_t proc{};                // get: whose data
    wire::InfoArray qualifiers;        // get: the qualifiers it asked with (the answer repeats them)
    uint64_t peer_id = 0;              // IOF pull: the id the peer gave it (echoed in its output)
    std::vector<pmix_status_t> codes;  // register events: the codes it names
};

// An event registration of the peer: OpenPMIx deregisters by code, we by
// the reference our server gave.
struct OpenPmixRegistration {
    uint64_t reference = 0;
    std::vector<pmix_status_t> codes;  // empty: every code
};

class OpenPmixDialect final : public PeerDialect {
public:
    OpenPmixDialect(openpmix::Encoding encoding, std::string version, openpmix::ConnectFlag flag)
        : encoding_(encoding), version_text_(std::move(version)), version_(openpmix::parse_version(version_text_)),
          flag_(flag)
    {}

    std::string name() const override;
    pmix_status_t send(Peer &peer, wire::FrameKind kind, uint32_t tag, std::span<const uint8_t> payload) override;
    // Its fence answer is a status; the data stays in our store for gets.
    bool reads_collected_data() const override { return false; }

    openpmix::Encoding encoding() const { return encoding_; }
    const openpmix::Version &version() const { return version_; }
    void expect(uint32_t tag, OpenPmixPending pending) { pending_[tag] = std::move(pending); }
    // The references of the registrations that lose their last code when
    // the peer deregisters `codes` (INT_MIN: its handler of every code).
    std::vector<uint64_t> take_registrations(const std::vector<pmix_status_t> &codes);
    // Sends one of its messages as it is (the job data, a refusal).
    pmix_status_t send_native(Peer &peer, uint32_t tag, const std::vector<uint8_t> &body);

private:
    pmix_status_t send_handshake(Peer &peer, std::span<const uint8_t> payload);
    pmix_status_t send_tool_answer(Peer &peer, pmix_status_t status, std::span<const uint8_t> payload);
    pmix_status_t send_reply(Peer &peer, uint32_t tag, std::span<const uint8_t> payload);
    pmix_status_t send_notification(Peer &peer, std::span<const uint8_t> payload);

    openpmix::Encoding encoding_;
    std::string version_text_;
    openpmix::Version version_;
    openpmix::ConnectFlag flag_;
    pmix_status_t answer(const OpenPmixPending &pending, std::span<const uint8_t> payload, std::vector<uint8_t> *out_p);
    pmix_status_t encode_output(std::span<const uint8_t> payload, std::vector<uint8_t> *out_p) const;

    std::map<uint32_t, OpenPmixPending> pending_;
    std::vector<OpenPmixRegistration> registrations_;
    std::map<uint64_t, uint64_t> iof_ids_;  // our IOF pull id -> the peer's
};

OpenPmixDialect *openpmix_dialect(Peer &peer);

}  // namespace pmixpp::server

#endif
