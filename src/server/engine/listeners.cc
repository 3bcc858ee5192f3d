#include "server/engine/listeners.h"

#include "common/runtime/log.h"
#include "common/values/value_ops.h"
#include "server/engine/connections.h"
#include "server/state/info_read.h"

#include <event2/event.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <vector>

namespace pmixpp::server {

namespace {

constexpr std::size_t kMaxListenersPerTransport = 8;

const pmixpp_ptl_module_t *ptl_table(const framework::SelectedModule &selected)
{
    const auto *module = static_cast<const pmixpp_ptl_module_t *>(selected.module);
    const std::size_t needed = offsetof(pmixpp_ptl_module_t, accept) + sizeof(void *);
    if (module == nullptr || module->struct_size < needed || module->listen == nullptr || module->accept == nullptr ||
        module->close_listener == nullptr) {
        return nullptr;
    }
    return module;
}

// The host's info plus PMIX_SERVER_TMPDIR when the host gave none, so that
// every transport uses the tmpdir the server resolved.
class ListenInfo {
public:
    ListenInfo(const Server &server, const pmix_info_t info[], std::size_t ninfo)
    {
        if (info != nullptr) items_.assign(info, info + ninfo);  // borrowed, never destructed
        if (find_info(info, ninfo, PMIX_SERVER_TMPDIR) == nullptr) {
            pmix_info_t tmpdir{};
            values::info_load(&tmpdir, PMIX_SERVER_TMPDIR, server.config.server_tmpdir.c_str(), PMIX_STRING);
            items_.push_back(tmpdir);
            owned_ = true;
        }
    }
    ~ListenInfo()
    {
        if (owned_) values::info_destruct(&items_.back());
    }
    ListenInfo(const ListenInfo &) = delete;
    ListenInfo &operator=(const ListenInfo &) = delete;
    const pmix_info_t *data() const { return items_.data(); }
    std::size_t size() const { return items_.size(); }

private:
    std::vector<pmix_info_t> items_;
    bool owned_ = false;
};

constexpr std::chrono::milliseconds kPauseWhenOutOfDescriptors{100};

// EMFILE/ENFILE: the pending connection stays in the backlog and the
// level-triggered event would fire again at once, spinning the progress
// thread. The listener waits instead, for a peer to go (resume_listeners)
// or for the pause to end.
void pause_listener(Server &server, Listener &listener)
{
    if (listener.paused) return;
    listener.paused = true;
    event_del(listener.accept_event);
    server.warnings.note("descriptors", std::string("out of file descriptors: not accepting on ") +
                                            listener.socket.uri + " until some are free (raise ulimit -n)");
    Listener *paused = &listener;
    listener.resume_timer = server.engine.add_timer(kPauseWhenOutOfDescriptors, [paused] {
        if (Server *now = current()) resume_listener(*now, *paused);
    });
}

void on_acceptable(evutil_socket_t, short, void *arg)
{
    auto *listener = static_cast<Listener *>(arg);
    Server *server = current();
    if (server == nullptr) return;
    for (;;) {
        int fd = -1;
        pmixpp_peer_identity_t kernel{};
        kernel.struct_size = sizeof(kernel);
        const pmix_status_t rc = listener->module->accept(&listener->socket, &fd, &kernel);
        if (rc == PMIX_ERR_WOULD_BLOCK) return;
        if (rc == PMIX_ERR_OUT_OF_RESOURCE) return pause_listener(*server, *listener);
        if (rc != PMIX_SUCCESS) {
            runtime::log_trace("PMIX_MCA_ptl_verbose", "server",
                               std::string("accept on ") + listener->socket.uri + " failed: " + PMIx_Error_string(rc));
            return;
        }
        adopt_connection(*server, fd, kernel, listener->component, listener->module);
    }
}

pmix_status_t listen_on(Server &server, const framework::SelectedModule &selected, const ListenInfo &info,
                        bool only_one)
{
    const pmixpp_ptl_module_t *module = ptl_table(selected);
    if (module == nullptr) return PMIX_ERR_NOT_AVAILABLE;
    std::array<pmixpp_ptl_listener_t, kMaxListenersPerTransport> opened{};
    std::size_t count = 0;
    const pmix_status_t rc =
        module->listen(info.data(), info.size(), opened.data(), only_one ? 1 : opened.size(), &count);
    if (rc != PMIX_SUCCESS) return rc;
    for (std::size_t i = 0; i < count && i < opened.size(); ++i) {
        Listener listener;
        listener.module = module;
        listener.component = selected.component;
        listener.socket = opened[i];
        server.listeners.push_back(listener);
    }
    return count == 0 ? PMIX_ERR_NOT_AVAILABLE : PMIX_SUCCESS;
}

}  // namespace

pmix_status_t open_listeners(Server &server, const pmix_info_t info[], std::size_t ninfo)
{
    const ListenInfo listen_info(server, info, ninfo);
    for (const auto &selected : server.ptl_modules) {
        const pmix_status_t rc = listen_on(server, selected, listen_info, server.config.single_listener);
        if (rc == PMIX_ERR_NOT_AVAILABLE) continue;
        if (rc != PMIX_SUCCESS) {
            runtime::log_warning("server", "ptl/" + selected.component + " cannot listen: " + PMIx_Error_string(rc) +
                                               " (clients cannot use this transport)");
            continue;
        }
        if (server.config.single_listener) break;
    }
    // Events are created only now: the vector no longer moves.
    for (auto &listener : server.listeners) {
        listener.accept_event =
            event_new(server.engine.base(), listener.socket.fd, EV_READ | EV_PERSIST, on_acceptable, &listener);
        if (listener.accept_event == nullptr || event_add(listener.accept_event, nullptr) != 0) {
            close_listeners(server);
            return PMIX_ERR_OUT_OF_RESOURCE;
        }
    }
    if (server.listeners.empty()) {
        runtime::log_warning("server", "no transport is listening: local clients cannot connect "
                                       "(check PMIX_MCA_ptl, PMIX_USOCK_DISABLE and PMIX_TCP_*)");
    }
    return PMIX_SUCCESS;
}

void resume_listener(Server &server, Listener &listener)
{
    (void)server;
    if (!listener.paused || listener.accept_event == nullptr) return;
    listener.paused = false;
    listener.resume_timer.cancel();
    event_add(listener.accept_event, nullptr);
}

void resume_listeners(Server &server)
{
    for (auto &listener : server.listeners) resume_listener(server, listener);
}

void close_listeners(Server &server)
{
    for (auto &listener : server.listeners) {
        listener.resume_timer.cancel();
        if (listener.accept_event != nullptr) {
            event_del(listener.accept_event);
            event_free(listener.accept_event);
            listener.accept_event = nullptr;
        }
        listener.module->close_listener(&listener.socket);
    }
    server.listeners.clear();
}

}  // namespace pmixpp::server
