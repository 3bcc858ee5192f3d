// The wire between the hosts of two "nodes" of one job, run as two
// processes on this machine: a connected socket over which each host sends
// its fence contributions, asks the other for a process's data (which that
// host gets from its server with PMIx_server_dmodex_request), and finally
// says it is done. A reader thread answers the other side.
//
// Fences are matched in order: the n-th fence of this node completes with
// the n-th contribution of the other (one job, collectives in program order).
// If the other side goes away, everything pending fails with
// PMIX_ERR_LOST_CONNECTION instead of hanging.
#ifndef PMIXPP_TESTS_INTEGRATION_NODE_LINK_H
#define PMIXPP_TESTS_INTEGRATION_NODE_LINK_H

#include "integration/host/itest_host.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace pmixpp::itest {

class NodeLink final : public CrossNode {
public:
    // Takes the connected fd. `first` decides whose contribution comes first
    // in the joined fence data (the same order on both sides).
    NodeLink(int fd, bool first);
    ~NodeLink() override;
    NodeLink(const NodeLink &) = delete;
    NodeLink &operator=(const NodeLink &) = delete;

    void start();  // the reader thread

    pmix_status_t fence(const char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc, void *cbdata) override;
    pmix_status_t direct_modex(const pmix_proc_t &proc, pmix_modex_cbfunc_t cbfunc, void *cbdata) override;

    // Sends this node's verdict ("" = all well) and waits (bounded) for the
    // other's. False when it never came; the other's verdict in *peer_p.
    bool finish(const std::string &verdict, int timeout_ms, std::string *peer_p);

    int dmodex_served() const;  // requests of the other node answered here

    struct Message {
        uint32_t type = 0;
        uint32_t id = 0;
        int32_t status = 0;
        pmix_proc_t proc{};
        std::vector<char> payload;
    };

private:
    struct PendingFence {
        pmix_modex_cbfunc_t cbfunc;
        void *cbdata;
        std::vector<char> data;
    };
    struct PendingModex {
        pmix_modex_cbfunc_t cbfunc;
        void *cbdata;
    };

    bool send(const Message &message);
    void read_loop();
    void dispatch(Message &message);
    void complete_fences();
    void serve_dmodex(const Message &request);
    void answer_dmodex(Message &reply);
    void fail_everything();

    static void dmodex_answered(pmix_status_t status, char *data, size_t size, void *cbdata);

    int fd_;
    bool first_;
    std::thread reader_;
    std::mutex send_lock_;
    mutable std::mutex lock_;
    std::condition_variable changed_;
    std::deque<PendingFence> local_fences_;
    std::deque<std::vector<char>> remote_fences_;
    std::map<uint32_t, PendingModex> modex_;
    uint32_t next_id_ = 1;
    int dmodex_served_ = 0;
    bool closed_ = false;
    bool peer_done_ = false;
    std::string peer_verdict_;
};

}  // namespace pmixpp::itest

#endif
