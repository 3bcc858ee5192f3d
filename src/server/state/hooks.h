// The points in a server's life that subsystems subscribe to: a peer's
// connection ended, a namespace or a client was registered or deregistered,
// a client connected, the server finalizes. The engine and the PMIx_server_* entry points raise
// them; the subsystems (fences, groups, fabrics, pnet, cleanup, session
// directories, IOF, monitors, ...) subscribe when the server starts, in
// the one table of engine/subsystems.cc, which gives the order and why.
// The state layer thus never names a subsystem, and a subsystem never has
// to be called by name from the engine.
//
// Hooks run in the order they were added, on the progress thread, except
// the start hooks: they run in PMIx_server_init on the host's thread,
// before the server is published and before anything else can touch it.
#ifndef PMIXPP_SERVER_STATE_HOOKS_H
#define PMIXPP_SERVER_STATE_HOOKS_H

#include <pmix_common.h>

#include <cstddef>
#include <string>
#include <vector>

namespace pmixpp::server {

class Server;
struct Peer;

// A connection ended (after its handshake).
struct PeerLoss {
    Peer &peer;
    // The proc itself is gone: a tool, or a client whose registration this
    // connection held (false for an old connection of a proc that was
    // registered again and connected elsewhere).
    bool proc_ended = false;
    // It had called PMIx_Finalize: an orderly end, not a failure.
    bool finalized = false;
};

class Hooks {
public:
    using PeerLost = void (*)(Server &server, const PeerLoss &loss);
    using NamespaceChanged = void (*)(Server &server, const std::string &nspace);
    using NamespaceRegistered = void (*)(Server &server, const std::string &nspace, const pmix_info_t info[],
                                         std::size_t ninfo);
    using ClientChanged = void (*)(Server &server, const pmix_proc_t &proc);
    using ClientConnected = void (*)(Server &server, Peer &peer);
    using Finalizing = void (*)(Server &server);
    using Starting = pmix_status_t (*)(Server &server, const pmix_info_t info[], std::size_t ninfo);

    // Before the listeners open / once they listen (and before the server
    // is published). A status other than PMIX_SUCCESS stops the start.
    void on_start(const char *subsystem, Starting hook) { start_.push_back({subsystem, hook}); }
    void on_listening(const char *subsystem, Starting hook) { listening_.push_back({subsystem, hook}); }

    void on_peer_lost(const char *subsystem, PeerLost hook) { peer_lost_.push_back({subsystem, hook}); }
    void on_namespace_registered(const char *subsystem, NamespaceRegistered hook)
    {
        namespace_registered_.push_back({subsystem, hook});
    }
    void on_namespace_deregistered(const char *subsystem, NamespaceChanged hook)
    {
        namespace_deregistered_.push_back({subsystem, hook});
    }
    void on_client_registered(const char *subsystem, ClientChanged hook)
    {
        client_registered_.push_back({subsystem, hook});
    }
    void on_client_deregistered(const char *subsystem, ClientChanged hook)
    {
        client_deregistered_.push_back({subsystem, hook});
    }
    // A client's handshake was accepted, before its welcome is sent.
    void on_client_connected(const char *subsystem, ClientConnected hook)
    {
        client_connected_.push_back({subsystem, hook});
    }
    // While the peers are still connected: what waits on a peer is answered.
    void on_finalize_connected(const char *subsystem, Finalizing hook)
    {
        finalize_connected_.push_back({subsystem, hook});
    }
    // After every connection closed: components and files are cleaned up.
    void on_finalize_disconnected(const char *subsystem, Finalizing hook)
    {
        finalize_disconnected_.push_back({subsystem, hook});
    }

    pmix_status_t start(Server &server, const pmix_info_t info[], std::size_t ninfo) const;
    pmix_status_t listening(Server &server, const pmix_info_t info[], std::size_t ninfo) const;
    void peer_lost(Server &server, const PeerLoss &loss) const;
    void namespace_registered(Server &server, const std::string &nspace, const pmix_info_t info[],
                              std::size_t ninfo) const;
    void namespace_deregistered(Server &server, const std::string &nspace) const;
    void client_registered(Server &server, const pmix_proc_t &proc) const;
    void client_deregistered(Server &server, const pmix_proc_t &proc) const;
    void client_connected(Server &server, Peer &peer) const;
    void finalize_connected(Server &server) const;
    void finalize_disconnected(Server &server) const;

    // "peer lost: monitors, iof, ..." per hook point, for a verbose log and
    // for tests that check the order.
    std::vector<std::string> describe() const;

private:
    template <typename Fn> struct Entry {
        const char *subsystem;
        Fn hook;
    };
    std::vector<Entry<Starting>> start_;
    std::vector<Entry<Starting>> listening_;
    std::vector<Entry<PeerLost>> peer_lost_;
    std::vector<Entry<NamespaceRegistered>> namespace_registered_;
    std::vector<Entry<NamespaceChanged>> namespace_deregistered_;
    std::vector<Entry<ClientChanged>> client_registered_;
    std::vector<Entry<ClientChanged>> client_deregistered_;
    std::vector<Entry<ClientConnected>> client_connected_;
    std::vector<Entry<Finalizing>> finalize_connected_;
    std::vector<Entry<Finalizing>> finalize_disconnected_;
};

}  // namespace pmixpp::server

#endif
