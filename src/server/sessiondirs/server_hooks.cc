#include "server/sessiondirs/server_hooks.h"

#include "common/runtime/log.h"
#include "server/state/info_read.h"
#include "server/state/registry.h"
#include "server/state/server.h"
#include "server/sessiondirs/session_dirs.h"

#include <cstring>
#include <new>

namespace pmixpp::sessiondirs {

namespace {

using server::Server;

constexpr uint32_t kJob = PMIX_RANK_WILDCARD;

std::string stored_string(const Server &server, const std::string &nspace, store::Level level, uint32_t id,
                          const char *key)
{
    store::ValuePtr value;
    if (server.store->fetch(nspace.c_str(), level, id, key, &value) != PMIX_SUCCESS) return {};
    if (value == nullptr || value->type != PMIX_STRING || value->data.string == nullptr) return {};
    return value->data.string;
}

void store_string(const Server &server, const std::string &nspace, store::Level level, uint32_t id, const char *key,
                  const std::string &text)
{
    pmix_value_t value{};
    value.type = PMIX_STRING;
    value.data.string = const_cast<char *>(text.c_str());  // copied by the store
    if (server.store->put_value(nspace.c_str(), level, id, key, &value) != PMIX_SUCCESS) {
        runtime::log_warning("sessiondirs",
                             std::string("cannot store ") + key + " for " + nspace + " (clients will not find it)");
    }
}

// The hooks run inside the server's own calls, which must not see an
// exception: without memory the directory is simply not made or removed.
template <typename Fn> void guarded(const char *what, Fn &&fn) noexcept
{
    try {
        fn();
    } catch (const std::bad_alloc &) {
        runtime::log_warning("sessiondirs", std::string(what) + ": out of memory (directories may be left)");
    }
}

void warn_not_made(const std::string &what, const std::string &nspace)
{
    runtime::log_warning("sessiondirs",
                         "no " + what + " for " + nspace + " (see the message above; clients get no such key)");
}

void register_client_dirs(Server &server, const std::string &nspace, pmix_rank_t rank)
{
    const server::Namespace *ns = server.find_namespace(nspace);
    if (ns == nullptr || !ns->registered) return;  // on_register_nspace comes back for it
    if (rank > PMIX_RANK_VALID) return;            // wildcard, undef, ...: no such proc
    if (!stored_string(server, nspace, PMIXPP_GDS_LEVEL_PROC, rank, PMIX_PROCDIR).empty()) return;
    std::string procdir;
    if (server.part<sessiondirs::SessionDirs>().proc_dir(nspace, rank, &procdir) != PMIX_SUCCESS) {
        return warn_not_made(PMIX_PROCDIR, nspace + ":" + std::to_string(rank));
    }
    store_string(server, nspace, PMIXPP_GDS_LEVEL_PROC, rank, PMIX_PROCDIR, procdir);
}

void register_nspace_dirs(Server &server, const std::string &nspace, const pmix_info_t info[], std::size_t ninfo)
{
    SessionDirs &dirs = server.part<sessiondirs::SessionDirs>();
    dirs.release_nspace(nspace);  // a re-registration starts afresh
    std::string tmpdir = stored_string(server, nspace, PMIXPP_GDS_LEVEL_JOB, kJob, PMIX_TMPDIR);
    const std::string host_nsdir = stored_string(server, nspace, PMIXPP_GDS_LEVEL_JOB, kJob, PMIX_NSDIR);
    const bool host_gave_tmpdir = !tmpdir.empty();
    if (!host_gave_tmpdir && host_nsdir.empty() && dirs.session_dir(&tmpdir) != PMIX_SUCCESS) {
        return warn_not_made(PMIX_TMPDIR, nspace);
    }
    std::string nsdir;
    const bool rmclean = server::directive_flag(info, ninfo, PMIX_TDIR_RMCLEAN);
    if (dirs.nspace_dir(nspace, tmpdir, host_nsdir, rmclean, &nsdir) != PMIX_SUCCESS) {
        return warn_not_made(PMIX_NSDIR, nspace);
    }
    if (!host_gave_tmpdir && !tmpdir.empty()) {
        store_string(server, nspace, PMIXPP_GDS_LEVEL_JOB, kJob, PMIX_TMPDIR, tmpdir);
    }
    if (host_nsdir.empty()) store_string(server, nspace, PMIXPP_GDS_LEVEL_JOB, kJob, PMIX_NSDIR, nsdir);
    if (const server::Namespace *ns = server.find_namespace(nspace)) {
        for (const auto &[rank, client] : ns->clients) register_client_dirs(server, nspace, rank);
    }
}

}  // namespace

void on_server_init(Server &server, const pmix_info_t info[], std::size_t ninfo)
{
    std::string host_tmpdir;
    if (const pmix_info_t *item = server::find_info(info, ninfo, PMIX_TMPDIR)) {
        (void)server::read_string(item->value, &host_tmpdir);
    }
    DirOwner owner;
    if (server.config.job_uid) owner.uid = *server.config.job_uid;
    if (server.config.job_gid) owner.gid = *server.config.job_gid;
    server.part<sessiondirs::SessionDirs>().configure(server.config.server_tmpdir, host_tmpdir,
                                                      server::directive_flag(info, ninfo, PMIX_TDIR_RMCLEAN), owner);
}

void on_register_nspace(Server &server, const std::string &nspace, const pmix_info_t info[], std::size_t ninfo)
{
    guarded("register_nspace", [&] { register_nspace_dirs(server, nspace, info, ninfo); });
}

void on_register_client(Server &server, const std::string &nspace, pmix_rank_t rank)
{
    guarded("register_client", [&] { register_client_dirs(server, nspace, rank); });
}

void on_client_connected(Server &server, server::Peer &peer)
{
    if (!peer.dialect) return;  // ours makes its proc dir when it asks for it
    const std::string nspace(peer.proc.nspace, strnlen(peer.proc.nspace, PMIX_MAX_NSLEN));
    guarded("client connected", [&] { server.part<sessiondirs::SessionDirs>().make_proc_dir(nspace, peer.proc.rank); });
}

void on_deregister_client(Server &server, const std::string &nspace, pmix_rank_t rank)
{
    guarded("deregister_client", [&] { server.part<sessiondirs::SessionDirs>().release_proc(nspace, rank); });
}

void on_deregister_nspace(Server &server, const std::string &nspace)
{
    guarded("deregister_nspace", [&] { server.part<sessiondirs::SessionDirs>().release_nspace(nspace); });
}

void on_finalize(Server &server)
{
    guarded("finalize", [&] { server.part<sessiondirs::SessionDirs>().release_all(); });
}

}  // namespace pmixpp::sessiondirs
