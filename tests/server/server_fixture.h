// A PMIx server in the test process, and a client that speaks the raw wire
// protocol to it over ptl/usock (no src/client involved).
#ifndef PMIXPP_TESTS_SERVER_FIXTURE_H
#define PMIXPP_TESTS_SERVER_FIXTURE_H

#include "common/wire/connection.h"
#include "common/wire/messages.h"

#include <pmix.h>
#include <pmix_server.h>

#include <map>
#include <string>
#include <vector>

namespace server_test {

inline constexpr const char *kHost = "testhost";
inline constexpr const char *kJob = "job1";
inline constexpr int kTimeoutMs = 10000;

// mkdtemp'ed directory for PMIX_SERVER_TMPDIR.
std::string make_tmpdir();

// PMIx_server_init with PMIX_SERVER_TMPDIR, PMIX_HOSTNAME and the server's
// nspace "srv"/rank 7; asserts success.
void start_server(const std::string &tmpdir, pmix_server_module_t *module = nullptr);

// A job of `size` ranks, all on this node, each registered with our uid/gid.
void register_job(const char *nspace, uint32_t size);
// `local_ranks` processes on this node (kHost) and one more, the last rank,
// on another ("farhost"): a collective over the whole job needs the host.
void register_job_with_a_remote_rank(const char *nspace, uint32_t local_ranks);

// The environment setup_fork gives rank `rank` of nspace, as a map.
std::map<std::string, std::string> fork_env(const char *nspace, pmix_rank_t rank);

class RawClient {
public:
    // Connects to the server's first URI (usock).
    RawClient();
    ~RawClient();
    RawClient(const RawClient &) = delete;
    RawClient &operator=(const RawClient &) = delete;

    int fd() const { return fd_; }
    // Sends a Hello for (nspace, rank) with psec/native, reads the answer.
    pmix_status_t hello(const char *nspace, pmix_rank_t rank, pmixpp::wire::Welcome *welcome_p,
                        pmixpp::wire::Refuse *refuse_p = nullptr);
    // Same, with a Hello the test prepared (default_hello() and changes).
    pmix_status_t hello_with(const pmixpp::wire::Hello &hello, pmixpp::wire::Welcome *welcome_p,
                             pmixpp::wire::Refuse *refuse_p = nullptr);
    static pmixpp::wire::Hello default_hello(const char *nspace, pmix_rank_t rank);
    // The two halves of hello_with, for a test that drives the server's
    // event base itself (PMIX_EVENT_BASE) in between.
    void send_hello(const pmixpp::wire::Hello &hello);
    pmix_status_t receive_hello_answer(pmixpp::wire::Welcome *welcome_p, pmixpp::wire::Refuse *refuse_p = nullptr);
    void send_raw(const void *bytes, size_t size);
    template <typename Message> void request(uint32_t tag, const Message &message)
    {
        pmixpp::wire::Bytes bytes;
        send_checked(pmixpp::wire::encode_to_bytes(message, &bytes), tag, bytes);
    }
    // Next frame; PMIX_ERR_LOST_CONNECTION (or another error) when closed.
    pmix_status_t receive(pmixpp::wire::Frame *frame_p);
    template <typename Reply> Reply reply()
    {
        pmixpp::wire::Frame frame;
        receive_checked(&frame);
        Reply reply;
        decode_checked(pmixpp::wire::decode_payload(frame.payload, &reply));
        return reply;
    }

private:
    void send_checked(pmix_status_t encoded, uint32_t tag, const pmixpp::wire::Bytes &bytes);
    void receive_checked(pmixpp::wire::Frame *frame_p);
    static void decode_checked(pmix_status_t rc);
    int fd_ = -1;
};

// An info array of one entry.
pmixpp::wire::InfoArray one_info(const char *key, const void *data, pmix_data_type_t type);

}  // namespace server_test

#endif
