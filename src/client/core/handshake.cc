#include "client/core/handshake.h"

#include <unistd.h>

#include <algorithm>
#include <functional>
#include <string_view>
#include <vector>

#include <pmix.h>
#include <pmixpp/gds.h>
#include <pmixpp/psec.h>
#include <pmixpp/ptl.h>
#include <pmixpp/util.hpp>

#include "common/runtime/log.h"
#include "common/wire/connection.h"
#include "framework/src/selected_modules.h"

namespace pmixpp::client {

namespace {

constexpr int kConnectTimeoutMs = 10000;
constexpr int kHandshakeTimeoutMs = 30000;
constexpr const char *kVerbose = "PMIX_MCA_pmix_client_verbose";

template <typename Module> const Module *module_table(const framework::SelectedModule &selected, size_t needed_size)
{
    const auto *module = static_cast<const Module *>(selected.module);
    if (module == nullptr || module->struct_size < needed_size) {
        return nullptr;
    }
    return module;
}

// Tries the modules of fw that `preferred` names, in that order, loading
// each only when the ones before it did not do; when none of them does,
// every other usable module by priority (which loads the rest). try_one returns true once done.
// *done_p says whether one did; the status is the selection's.
pmix_status_t try_modules(std::string_view fw, const std::vector<std::string> &preferred,
                          const std::function<bool(const framework::SelectedModule &)> &try_one, bool *done_p)
{
    *done_p = false;
    for (const std::string &name : preferred) {
        // One at a time: the first that works is often the only one loaded.
        std::vector<framework::SelectedModule> named;
        (void)framework::select_named(fw, {name}, &named);
        if (!named.empty() && try_one(named.front())) {
            *done_p = true;
            return PMIX_SUCCESS;
        }
    }
    std::vector<framework::SelectedModule> all;
    const pmix_status_t rc = framework::select(fw, &all);
    for (const auto &module : all) {
        if (std::find(preferred.begin(), preferred.end(), module.component) != preferred.end()) continue;
        if (try_one(module)) {
            *done_p = true;
            return PMIX_SUCCESS;
        }
    }
    return rc;
}

// Connects with one transport to the first of the server's URIs it handles.
bool connect_with(const framework::SelectedModule &selected, const ServerContact &contact, bool *handled_p,
                  pmix_status_t *last_p, int *fd_p)
{
    const auto *ptl =
        module_table<pmixpp_ptl_module_t>(selected, offsetof(pmixpp_ptl_module_t, connect) + sizeof(void *));
    if (ptl == nullptr || ptl->handles_uri == nullptr || ptl->connect == nullptr) {
        return false;
    }
    for (const std::string &uri : contact.uris) {
        if (ptl->handles_uri(uri.c_str()) != 1) {
            continue;
        }
        *handled_p = true;
        *last_p = ptl->connect(uri.c_str(), kConnectTimeoutMs, fd_p);
        if (*last_p == PMIX_SUCCESS) {
            return true;
        }
        runtime::log_trace(kVerbose, "client", "cannot connect to " + uri + " with ptl/" + selected.component);
    }
    return false;
}

// Tries the transports by priority, each against the server's URIs in
// order, loading each only when the ones before it could not connect (the
// component index knows their order without loading them).
pmix_status_t connect_transport(const ServerContact &contact, int *fd_p, std::string *ptl_p)
{
    std::vector<std::string> ranked;
    pmix_status_t rc = framework::ranked_components("ptl", &ranked);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    pmix_status_t last = PMIX_ERR_UNREACH;
    bool any_handled = false;
    for (const std::string &name : ranked) {
        std::vector<framework::SelectedModule> transport;
        if (framework::select_named("ptl", {name}, &transport) != PMIX_SUCCESS || transport.empty()) {
            continue;
        }
        int fd = -1;
        if (connect_with(transport.front(), contact, &any_handled, &last, &fd)) {
            *fd_p = fd;
            *ptl_p = name;
            return PMIX_SUCCESS;
        }
    }
    std::string uris;
    for (const auto &uri : contact.uris) {
        uris += (uris.empty() ? "" : ";") + uri;
    }
    runtime::log_warning("client", any_handled ? "cannot connect to the PMIx server at " + uris +
                                                     " (is the server still running?)"
                                               : "no selected transport handles the server's URIs " + uris +
                                                     " (check PMIX_MCA_ptl and the installed ptl components)");
    return last == PMIX_SUCCESS ? PMIX_ERR_UNREACH : last;
}

// A credential from the psec module the server asked for, else the best one.
pmix_status_t make_credential(const ServerContact &contact, wire::Hello *hello)
{
    bool made = false;
    const pmix_status_t rc = try_modules(
        "psec", contact.psec,
        [hello](const framework::SelectedModule &selected) {
            const auto *psec = module_table<pmixpp_psec_module_t>(
                selected, offsetof(pmixpp_psec_module_t, create_credential) + sizeof(void *));
            pmix_byte_object_t cred{};
            if (psec == nullptr || psec->create_credential == nullptr ||
                psec->create_credential(&cred) != PMIX_SUCCESS) {
                return false;
            }
            const auto *first = reinterpret_cast<const uint8_t *>(cred.bytes);
            hello->credential.assign(first, first + (cred.bytes == nullptr ? 0 : cred.size));
            free(cred.bytes);
            hello->psec_module = selected.component;
            return true;
        },
        &made);
    if (made) {
        return PMIX_SUCCESS;
    }
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    runtime::log_warning("client", "no psec module could make a credential "
                                   "(check PMIX_SECURITY_MODE and PMIX_MCA_psec)");
    return PMIX_ERR_INVALID_CRED;
}

// The gds modules this client can use, those the server named first: names
// only (the component index knows them), so none is loaded for the list.
std::vector<std::string> usable_gds(const std::vector<std::string> &preferred)
{
    std::vector<std::string> names = preferred;
    std::vector<std::string> ranked;
    (void)framework::ranked_components("gds", &ranked);
    for (const auto &name : ranked) {
        if (std::find(names.begin(), names.end(), name) == names.end()) {
            names.push_back(name);
        }
    }
    return names;
}

pmix_status_t build_hello(const ServerContact &contact, const std::string &ptl, wire::Hello *hello_p)
{
    wire::Hello hello;
    hello.peer_type = contact.nspace.empty() ? wire::PeerType::Singleton : wire::PeerType::Client;
    if (contact.tool) {
        hello.peer_type = contact.launcher ? wire::PeerType::Launcher : wire::PeerType::Tool;
    }
    hello.nspace = contact.nspace;
    hello.rank = contact.rank;
    hello.pid = static_cast<int32_t>(::getpid());
    hello.ptl_module = ptl;
    hello.library_version = PMIx_Get_version();
    for (const auto &gds : usable_gds(contact.gds)) {
        if (hello.gds_modules.size() < wire::kMaxGdsModules) {
            hello.gds_modules.push_back(gds);
        }
    }
    const pmix_status_t rc = make_credential(contact, &hello);
    if (rc == PMIX_SUCCESS) {
        *hello_p = std::move(hello);
    }
    return rc;
}

// `probing`: the server may speak OpenPMIx's protocol only, and then closes
// on our hello; the caller tries that protocol next, so a close is no news.
pmix_status_t read_answer(int fd, bool probing, wire::Welcome *welcome_p)
{
    wire::Frame frame;
    std::string reason;
    pmix_status_t rc =
        wire::recv_frame_blocking(fd, wire::FrameLimits::from_environment(), kHandshakeTimeoutMs, &frame, &reason);
    if (rc != PMIX_SUCCESS) {
        const std::string what = "no answer from the PMIx server to our hello: " + reason;
        if (probing && rc == PMIX_ERR_LOST_CONNECTION) {
            runtime::log_trace(kVerbose, "client", what + "; trying OpenPMIx's protocol");
        } else {
            runtime::log_warning("client", what + " (check the server's log)");
        }
        return rc;
    }
    wire::HandshakeMessage type{};
    if (frame.header.kind != wire::FrameKind::handshake || wire::peek_handshake(frame.payload, &type) != PMIX_SUCCESS) {
        runtime::log_warning("client", "the PMIx server answered our hello with something else "
                                       "(is it a pmixpp server of a compatible version?)");
        return PMIX_ERR_UNPACK_FAILURE;
    }
    if (type == wire::HandshakeMessage::Refuse) {
        wire::Refuse refuse;
        rc = wire::decode_payload(frame.payload, &refuse);
        if (rc != PMIX_SUCCESS) {
            return rc;
        }
        runtime::log_warning("client", "the PMIx server refused us: " + refuse.reason + " (" +
                                           PMIx_Error_string(refuse.status) + ")");
        return refuse.status == PMIX_SUCCESS ? PMIX_ERR_UNREACH : refuse.status;
    }
    wire::Welcome welcome;
    rc = type == wire::HandshakeMessage::Welcome ? wire::decode_payload(frame.payload, &welcome)
                                                 : PMIX_ERR_UNPACK_FAILURE;
    if (rc != PMIX_SUCCESS) {
        runtime::log_warning("client", "malformed welcome from the PMIx server");
        return rc;
    }
    if (welcome.status != PMIX_SUCCESS) {
        return welcome.status;
    }
    *welcome_p = std::move(welcome);
    return PMIX_SUCCESS;
}

// PMIX_ERR_NOT_AVAILABLE from an import means "the data is fine but this
// process cannot reach it where it lives": *private_copy_p is set and the
// (empty) store is kept, so that the data can be fetched inline later.
pmix_status_t import_job_data(const wire::Welcome &welcome, std::unique_ptr<store::Store> *store_p,
                              bool *private_copy_p)
{
    std::unique_ptr<store::Store> store;
    pmix_status_t rc = create_store(welcome.gds_module, &store);
    if (rc != PMIX_SUCCESS || welcome.job_data.empty()) {
        *store_p = std::move(store);
        return rc;
    }
    pmix_byte_object_t blob{};
    blob.bytes = reinterpret_cast<char *>(const_cast<uint8_t *>(welcome.job_data.data()));
    blob.size = welcome.job_data.size();
    rc = store->import_nspace(welcome.peer_nspace.c_str(), blob);
    if (rc == PMIX_ERR_NOT_AVAILABLE) {
        // The component said why, in one line; the copy is fetched once connected.
        runtime::log_trace("PMIX_MCA_pmix_client_verbose", "client",
                           std::string("gds/") + store->module_name() + " cannot use the shared job data of " +
                               welcome.peer_nspace + ": fetching a private copy");
        *private_copy_p = true;
        *store_p = std::move(store);
        return PMIX_SUCCESS;
    }
    if (rc != PMIX_SUCCESS) {
        runtime::log_warning("client", std::string("cannot import the job data of ") + welcome.peer_nspace +
                                           " with gds/" + store->module_name() + ": " + PMIx_Error_string(rc));
        return rc;
    }
    *store_p = std::move(store);
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t create_store(const std::string &name, std::unique_ptr<store::Store> *store_p)
{
    std::vector<std::string> preferred;
    if (!name.empty()) {
        preferred.push_back(name);
    }
    bool created = false;
    const pmix_status_t rc = try_modules(
        "gds", preferred,
        [store_p](const framework::SelectedModule &selected) {
            const auto *gds = static_cast<const pmixpp_gds_module_t *>(selected.module);
            return store::Store::create(gds, store_p) == PMIX_SUCCESS;
        },
        &created);
    if (created) {
        return PMIX_SUCCESS;
    }
    runtime::log_warning("client", "no usable gds component (check PMIX_MCA_gds and the "
                                   "installed gds components)");
    return rc == PMIX_SUCCESS ? PMIX_ERR_NOT_FOUND : rc;
}

namespace {

// The same with an OpenPMIx server: its handshake, and its job data into a
// store of our own (gds/hash semantics: each client holds its copy).
pmix_status_t greet_openpmix(const ServerContact &contact, util::UniqueFd fd, const std::string &ptl,
                             Greeted *greeted_p)
{
    Greeted greeted;
    OpenPmixIdentity identity;
    if (contact.tool) identity.role = contact.launcher ? OpenPmixRole::launcher : OpenPmixRole::tool;
    PMIX_LOAD_PROCID(&identity.self, contact.nspace.c_str(), contact.rank);
    pmix_status_t rc = PMIX_SUCCESS;
    if (!contact.psec.empty() && contact.psec.front() != "native") {
        wire::Hello hello;
        rc = make_credential(contact, &hello);
        identity.psec = hello.psec_module;
        identity.credential = std::move(hello.credential);
    }
    if (rc == PMIX_SUCCESS) rc = create_store("hash", &greeted.store);
    if (rc == PMIX_SUCCESS) rc = greet_openpmix_server(fd.get(), identity, *greeted.store, &greeted.openpmix);
    if (rc != PMIX_SUCCESS) return rc;
    const pmix_proc_t &self = greeted.openpmix.self;
    const pmix_proc_t &server = greeted.openpmix.server;
    const bool told_server = server.nspace[0] != '\0';
    greeted.welcome.gds_module = greeted.store->module_name();
    greeted.welcome.server_nspace = told_server ? server.nspace : contact.server_nspace;
    greeted.welcome.server_rank = told_server ? server.rank : contact.server_rank;
    greeted.welcome.peer_nspace = self.nspace;
    greeted.welcome.peer_rank = self.rank;
    greeted.ptl = ptl;
    greeted.psec = identity.psec;
    greeted.fd = fd.release();
    *greeted_p = std::move(greeted);
    return PMIX_SUCCESS;
}

// Our Hello and the server's Welcome.
pmix_status_t greet_ours(const ServerContact &contact, util::UniqueFd fd, const std::string &ptl, Greeted *greeted_p)
{
    Greeted greeted;
    wire::Bytes payload;
    wire::Hello hello;
    pmix_status_t rc = build_hello(contact, ptl, &hello);
    if (rc == PMIX_SUCCESS) {
        rc = wire::encode_to_bytes(hello, &payload);
    }
    std::string reason;
    if (rc == PMIX_SUCCESS) {
        rc = wire::send_frame_blocking(fd.get(), wire::FrameKind::handshake, wire::kNoTag, payload, kHandshakeTimeoutMs,
                                       &reason);
    }
    if (rc == PMIX_SUCCESS && !hello.gds_modules.empty()) {
        // While the server works on the hello, load the gds component it
        // will most likely name (the first we offered, its own first): the
        // loading overlaps the server's work instead of following it. A
        // wrong guess is unloaded with the other unused components.
        std::vector<framework::SelectedModule> likely;
        (void)framework::select_named("gds", {hello.gds_modules.front()}, &likely);
    }
    if (rc == PMIX_SUCCESS) {
        rc = read_answer(fd.get(), contact.protocol == ServerProtocol::either, &greeted.welcome);
    }
    if (rc == PMIX_SUCCESS) {
        rc = import_job_data(greeted.welcome, &greeted.store, &greeted.needs_private_copy);
    }
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    greeted.ptl = ptl;
    greeted.psec = hello.psec_module;
    greeted.fd = fd.release();
    *greeted_p = std::move(greeted);
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t connect_and_greet(const ServerContact &contact, Greeted *greeted_p)
{
    int connected = -1;
    std::string ptl;
    pmix_status_t rc = connect_transport(contact, &connected, &ptl);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    util::UniqueFd fd(connected);  // closed unless the caller gets it
    if (contact.protocol == ServerProtocol::openpmix) return greet_openpmix(contact, std::move(fd), ptl, greeted_p);
    rc = greet_ours(contact, std::move(fd), ptl, greeted_p);
    if (rc != PMIX_ERR_LOST_CONNECTION || contact.protocol != ServerProtocol::either) return rc;
    rc = connect_transport(contact, &connected, &ptl);
    if (rc != PMIX_SUCCESS) return rc;
    return greet_openpmix(contact, util::UniqueFd(connected), ptl, greeted_p);
}

}  // namespace pmixpp::client
