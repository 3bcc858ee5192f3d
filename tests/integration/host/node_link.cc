#include "integration/host/node_link.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

namespace pmixpp::itest {
namespace {

enum : uint32_t { kFence = 1, kModexRequest = 2, kModexReply = 3, kDone = 4 };

// Both ends are processes of the same program on the same machine, so the
// header travels as raw bytes.
struct Header {
    uint32_t type;
    uint32_t id;
    int32_t status;
    uint32_t rank;
    char nspace[PMIX_MAX_NSLEN + 1];
    uint64_t length;
};

constexpr uint64_t kMaxPayload = 256u << 20;

bool write_all(int fd, const void *bytes, size_t size)
{
    const char *at = static_cast<const char *>(bytes);
    while (size > 0) {
        const ssize_t done = ::send(fd, at, size, MSG_NOSIGNAL);
        if (done < 0 && errno == EINTR) continue;
        if (done <= 0) return false;
        at += done;
        size -= static_cast<size_t>(done);
    }
    return true;
}

bool read_all(int fd, void *bytes, size_t size)
{
    char *at = static_cast<char *>(bytes);
    while (size > 0) {
        const ssize_t done = ::read(fd, at, size);
        if (done < 0 && errno == EINTR) continue;
        if (done <= 0) return false;
        at += done;
        size -= static_cast<size_t>(done);
    }
    return true;
}

void release_malloced(void *data)
{
    std::free(data);
}

// A malloc'ed copy the library frees through release_malloced.
char *malloc_copy(const std::vector<char> &bytes)
{
    char *copy = static_cast<char *>(std::malloc(bytes.empty() ? 1 : bytes.size()));
    if (copy != nullptr && !bytes.empty()) std::memcpy(copy, bytes.data(), bytes.size());
    return copy;
}

struct DmodexContext {
    NodeLink *link;
    uint32_t id;
    pmix_proc_t proc;
};

}  // namespace

NodeLink::NodeLink(int fd, bool first) : fd_(fd), first_(first) {}

NodeLink::~NodeLink()
{
    {
        std::lock_guard<std::mutex> guard(lock_);
        closed_ = true;  // our own shutdown: nothing is failed back into a finalized library
    }
    ::shutdown(fd_, SHUT_RDWR);
    if (reader_.joinable()) reader_.join();
    ::close(fd_);
}

void NodeLink::start()
{
    reader_ = std::thread([this] { read_loop(); });
}

bool NodeLink::send(const Message &message)
{
    Header header{};
    header.type = message.type;
    header.id = message.id;
    header.status = message.status;
    header.rank = message.proc.rank;
    std::memcpy(header.nspace, message.proc.nspace, sizeof(header.nspace));
    header.length = message.payload.size();
    std::lock_guard<std::mutex> guard(send_lock_);
    return write_all(fd_, &header, sizeof(header)) &&
           (message.payload.empty() || write_all(fd_, message.payload.data(), message.payload.size()));
}

void NodeLink::read_loop()
{
    for (;;) {
        Header header{};
        if (!read_all(fd_, &header, sizeof(header)) || header.length > kMaxPayload) break;
        Message message;
        message.type = header.type;
        message.id = header.id;
        message.status = header.status;
        header.nspace[PMIX_MAX_NSLEN] = '\0';
        PMIX_LOAD_PROCID(&message.proc, header.nspace, header.rank);
        message.payload.resize(header.length);
        if (header.length > 0 && !read_all(fd_, message.payload.data(), header.length)) break;
        dispatch(message);
    }
    fail_everything();
}

void NodeLink::dispatch(Message &message)
{
    switch (message.type) {
    case kFence: {
        std::lock_guard<std::mutex> guard(lock_);
        remote_fences_.push_back(std::move(message.payload));
    }
        complete_fences();
        return;
    case kModexRequest: serve_dmodex(message); return;
    case kModexReply: answer_dmodex(message); return;
    case kDone: {
        std::lock_guard<std::mutex> guard(lock_);
        peer_done_ = true;
        peer_verdict_.assign(message.payload.begin(), message.payload.end());
        changed_.notify_all();
        return;
    }
    default: return;
    }
}

pmix_status_t NodeLink::fence(const char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    Message message;
    message.type = kFence;
    if (ndata > 0) message.payload.assign(data, data + ndata);
    {
        std::lock_guard<std::mutex> guard(lock_);
        if (closed_) return PMIX_ERR_LOST_CONNECTION;
        local_fences_.push_back(PendingFence{cbfunc, cbdata, message.payload});
    }
    if (!send(message)) {
        std::lock_guard<std::mutex> guard(lock_);
        local_fences_.pop_back();
        return PMIX_ERR_LOST_CONNECTION;
    }
    complete_fences();
    return PMIX_SUCCESS;
}

// Joins each local contribution with the other node's, in node order.
void NodeLink::complete_fences()
{
    struct Ready {
        PendingFence fence;
        std::vector<char> joined;
    };
    std::vector<Ready> ready;
    {
        std::lock_guard<std::mutex> guard(lock_);
        while (!local_fences_.empty() && !remote_fences_.empty()) {
            Ready item{std::move(local_fences_.front()), {}};
            const std::vector<char> &mine = item.fence.data;
            const std::vector<char> &theirs = remote_fences_.front();
            const std::vector<char> &head = first_ ? mine : theirs;
            const std::vector<char> &tail = first_ ? theirs : mine;
            item.joined = head;
            item.joined.insert(item.joined.end(), tail.begin(), tail.end());
            local_fences_.pop_front();
            remote_fences_.pop_front();
            ready.push_back(std::move(item));
        }
    }
    for (Ready &item : ready) {
        char *copy = malloc_copy(item.joined);
        if (copy == nullptr) {
            item.fence.cbfunc(PMIX_ERR_NOMEM, nullptr, 0, item.fence.cbdata, nullptr, nullptr);
            continue;
        }
        item.fence.cbfunc(PMIX_SUCCESS, copy, item.joined.size(), item.fence.cbdata, release_malloced, copy);
    }
}

pmix_status_t NodeLink::direct_modex(const pmix_proc_t &proc, pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    Message message;
    message.type = kModexRequest;
    message.proc = proc;
    {
        std::lock_guard<std::mutex> guard(lock_);
        if (closed_) return PMIX_ERR_LOST_CONNECTION;
        message.id = next_id_++;
        modex_[message.id] = PendingModex{cbfunc, cbdata};
    }
    if (send(message)) return PMIX_SUCCESS;
    std::lock_guard<std::mutex> guard(lock_);
    modex_.erase(message.id);
    return PMIX_ERR_LOST_CONNECTION;
}

// The other node wants a process's data: ask our server, answer when it does.
void NodeLink::serve_dmodex(const Message &request)
{
    auto *context = new DmodexContext{this, request.id, request.proc};
    const pmix_status_t rc = PMIx_server_dmodex_request(&request.proc, dmodex_answered, context);
    if (rc == PMIX_SUCCESS) return;
    delete context;
    Message reply;
    reply.type = kModexReply;
    reply.id = request.id;
    reply.status = rc;
    send(reply);
}

void NodeLink::dmodex_answered(pmix_status_t status, char *data, size_t size, void *cbdata)
{
    auto *context = static_cast<DmodexContext *>(cbdata);
    Message reply;
    reply.type = kModexReply;
    reply.id = context->id;
    reply.status = status;
    reply.proc = context->proc;
    if (data != nullptr && size > 0) reply.payload.assign(data, data + size);
    {
        std::lock_guard<std::mutex> guard(context->link->lock_);
        context->link->dmodex_served_++;
    }
    context->link->send(reply);
    delete context;
}

void NodeLink::answer_dmodex(Message &reply)
{
    PendingModex pending{};
    {
        std::lock_guard<std::mutex> guard(lock_);
        auto it = modex_.find(reply.id);
        if (it == modex_.end()) return;
        pending = it->second;
        modex_.erase(it);
    }
    if (reply.status != PMIX_SUCCESS) {
        pending.cbfunc(reply.status, nullptr, 0, pending.cbdata, nullptr, nullptr);
        return;
    }
    char *copy = malloc_copy(reply.payload);
    if (copy == nullptr) {
        pending.cbfunc(PMIX_ERR_NOMEM, nullptr, 0, pending.cbdata, nullptr, nullptr);
        return;
    }
    pending.cbfunc(PMIX_SUCCESS, copy, reply.payload.size(), pending.cbdata, release_malloced, copy);
}

// The other host went away: whatever waits for it fails now.
void NodeLink::fail_everything()
{
    std::deque<PendingFence> fences;
    std::map<uint32_t, PendingModex> modex;
    {
        std::lock_guard<std::mutex> guard(lock_);
        const bool ours = closed_;
        closed_ = true;
        changed_.notify_all();
        if (ours) return;
        fences.swap(local_fences_);
        modex.swap(modex_);
    }
    for (PendingFence &fence : fences) {
        fence.cbfunc(PMIX_ERR_LOST_CONNECTION, nullptr, 0, fence.cbdata, nullptr, nullptr);
    }
    for (auto &[id, pending] : modex) {
        pending.cbfunc(PMIX_ERR_LOST_CONNECTION, nullptr, 0, pending.cbdata, nullptr, nullptr);
    }
}

bool NodeLink::finish(const std::string &verdict, int timeout_ms, std::string *peer_p)
{
    Message message;
    message.type = kDone;
    message.payload.assign(verdict.begin(), verdict.end());
    send(message);
    std::unique_lock<std::mutex> guard(lock_);
    changed_.wait_for(guard, std::chrono::milliseconds(timeout_ms), [this] { return peer_done_ || closed_; });
    if (!peer_done_) return false;
    *peer_p = peer_verdict_;
    return true;
}

int NodeLink::dmodex_served() const
{
    std::lock_guard<std::mutex> guard(lock_);
    return dmodex_served_;
}

}  // namespace pmixpp::itest
