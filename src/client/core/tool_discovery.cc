#include "client/core/tool_discovery.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "common/rendezvous/rendezvous.h"
#include "common/runtime/log.h"

namespace pmixpp::client {

namespace {

constexpr int kDebugLevelForTrace = 10;

std::string join_path(const std::string &dir, const std::string &name)
{
    if (!dir.empty() && dir.back() == '/') return dir + name;
    return dir + "/" + name;
}

bool all_digits(const std::string &text)
{
    if (text.empty()) return false;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

// OpenPMIx's name of a server's tool file: pmix.<host>.tool.<pid|nspace>,
// and with an empty suffix the prefix of all of them (its session file
// pmix.<host>.tool too).
std::string openpmix_tool_file_name(const std::string &host, const std::string &suffix)
{
    return "pmix." + host + ".tool" + (suffix.empty() ? "" : "." + suffix);
}

// OpenPMIx's files named `name` (or starting with it, when `prefix`) in the
// server tmpdir and below the system tmpdir, as OpenPMIx's tools look.
std::vector<std::string> openpmix_files_named(const ToolOptions &o, const std::string &name, bool prefix)
{
    std::vector<std::string> paths;
    for (const std::string *dir : {&o.server_tmpdir, &o.system_tmpdir}) {
        for (std::string &path : rendezvous::find_below(*dir, name)) {
            const std::string base = path.substr(path.rfind('/') + 1);
            if (!prefix && base != name) continue;
            if (std::find(paths.begin(), paths.end(), path) == paths.end()) paths.push_back(std::move(path));
        }
    }
    return paths;
}

ServerContact contact_from(const rendezvous::Contact &found, const std::string &where)
{
    ServerContact contact;
    contact.uris = found.uris;
    contact.server_nspace = found.server_nspace;
    contact.server_rank = found.server_rank;
    contact.found_in = where;
    contact.protocol = found.openpmix_only ? ServerProtocol::openpmix : ServerProtocol::pmixpp;
    return contact;
}

// The contact of a rendezvous file (ours or OpenPMIx's) of a live server of
// our uid; false (and *why_p) otherwise. A 3.x OpenPMIx file names no pid:
// such a server is taken as alive, the connection tells.
bool usable_file(const std::string &path, rendezvous::Contact *found_p, std::string *why_p)
{
    rendezvous::Contact found;
    std::string error;
    pmix_status_t rc = rendezvous::read_any_file(path, &found, &error);
    if (rc != PMIX_SUCCESS) {
        *why_p = rc == PMIX_ERR_NOT_FOUND ? path + " does not exist" : path + ": " + error;
        return false;
    }
    if (found.uid != ::geteuid()) {
        *why_p = path + " belongs to uid " + std::to_string(found.uid) + ", not ours";
        return false;
    }
    if (found.pid != 0 && !rendezvous::server_alive(found)) {
        *why_p = path + " names server pid " + std::to_string(found.pid) + ", which no longer runs";
        return false;
    }
    if (found.uris.empty()) {
        *why_p = path + " lists no URI";
        return false;
    }
    *found_p = std::move(found);
    return true;
}

// One named file: found, or UNREACH with the reason.
pmix_status_t from_file(const std::string &path, const char *what, ServerContact *contact_p, std::string *problem_p)
{
    rendezvous::Contact found;
    std::string why;
    if (!usable_file(path, &found, &why)) {
        tool_trace("skipped " + why);
        *problem_p = std::string("no ") + what + " server: " + why;
        return PMIX_ERR_UNREACH;
    }
    *contact_p = contact_from(found, path);
    return PMIX_SUCCESS;
}

// Our file for one server, else OpenPMIx's: it names its files
// pmix.<host>.tool.<pid|nspace> and may keep them in a session directory
// below the system tmpdir (Open MPI's mpirun does), so that tree is
// searched too (openpmix_files_named).
pmix_status_t from_file_of_one(const ToolOptions &o, const std::string &ours, const std::string &theirs,
                               ServerContact *contact_p, std::string *problem_p)
{
    const std::string path = join_path(o.server_tmpdir, ours);
    pmix_status_t rc = from_file(path, "such", contact_p, problem_p);
    if (rc == PMIX_SUCCESS) return rc;
    const std::string first_problem = *problem_p;
    for (const std::string &found : openpmix_files_named(o, theirs, false)) {
        if (from_file(found, "such", contact_p, problem_p) == PMIX_SUCCESS) return PMIX_SUCCESS;
    }
    *problem_p = first_problem + ", and no live " + theirs + " (OpenPMIx's name) in " + o.server_tmpdir + " or below " +
                 o.system_tmpdir;
    return PMIX_ERR_UNREACH;
}

// The protocol of the server at a tcp URI, from the rendezvous files in the
// tmpdirs that name it (ours: pmixpp; only OpenPMIx's: openpmix); either
// when no file names it, and the handshake finds out.
ServerProtocol protocol_at(const ToolOptions &o, const std::string &uri)
{
    bool named_by_openpmix = false;
    for (const std::string *dir : {&o.server_tmpdir, &o.system_tmpdir}) {
        for (const std::string &path : rendezvous::find_below(*dir, "pmix.")) {
            rendezvous::Contact found;
            std::string ignored;
            if (rendezvous::read_any_file(path, &found, &ignored) != PMIX_SUCCESS) continue;
            if (std::find(found.uris.begin(), found.uris.end(), uri) == found.uris.end()) continue;
            if (!found.openpmix_only) return ServerProtocol::pmixpp;
            named_by_openpmix = true;
        }
    }
    return named_by_openpmix ? ServerProtocol::openpmix : ServerProtocol::either;
}

pmix_status_t from_uri(const ToolOptions &o, const std::string &given, ServerContact *contact_p)
{
    ServerContact contact;
    std::string uri;
    if (parse_server_uri(given, &contact.server_nspace, &contact.server_rank, &uri)) {
        contact.uris.push_back(uri);
    } else {
        contact.uris = split_list(given, ';');
    }
    if (contact.uris.empty()) return PMIX_ERR_BAD_PARAM;
    contact.found_in = "PMIX_SERVER_URI";
    // A tcp URI may be an OpenPMIx server's: its --report-uri line looks
    // like ours.
    if (is_tcp_uri(contact.uris.front())) contact.protocol = protocol_at(o, contact.uris.front());
    *contact_p = std::move(contact);
    return PMIX_SUCCESS;
}

pmix_status_t from_explicit(const ToolOptions &o, ServerContact *contact_p, std::string *problem_p)
{
    if (!o.server_uri.empty()) {
        pmix_status_t rc = from_uri(o, o.server_uri, contact_p);
        if (rc != PMIX_SUCCESS) *problem_p = "PMIX_SERVER_URI '" + o.server_uri + "' names no URI";
        return rc;
    }
    if (!o.attachment_file.empty()) return from_file(o.attachment_file, "attachment-file", contact_p, problem_p);
    if (o.server_pid != 0) {
        return from_file_of_one(o, rendezvous::pid_file_name(o.hostname, o.server_pid),
                                openpmix_tool_file_name(o.hostname, std::to_string(o.server_pid)), contact_p,
                                problem_p);
    }
    if (!o.server_nspace.empty()) {
        return from_file_of_one(o, rendezvous::nspace_file_name(o.hostname, o.server_nspace),
                                openpmix_tool_file_name(o.hostname, o.server_nspace), contact_p, problem_p);
    }
    if (o.to_system) {
        return from_file(join_path(o.system_tmpdir, rendezvous::system_file_name(o.hostname)), "system", contact_p,
                         problem_p);
    }
    if (o.to_scheduler) {
        return from_file(join_path(o.system_tmpdir, rendezvous::scheduler_file_name(o.hostname)), "scheduler",
                         contact_p, problem_p);
    }
    return from_file(join_path(o.system_tmpdir, rendezvous::controller_file_name(o.hostname)), "system-controller",
                     contact_p, problem_p);
}

// The pmix.<host>.<pid> files of live servers of our uid.
std::vector<std::pair<std::string, rendezvous::Contact>> live_pid_files(const ToolOptions &o)
{
    const std::string prefix = "pmix." + o.hostname + ".";
    std::vector<std::pair<std::string, rendezvous::Contact>> live;
    for (const std::string &name : rendezvous::list_files(o.server_tmpdir)) {
        if (name.compare(0, prefix.size(), prefix) != 0 || !all_digits(name.substr(prefix.size()))) {
            continue;
        }
        const std::string path = join_path(o.server_tmpdir, name);
        rendezvous::Contact found;
        std::string why;
        if (usable_file(path, &found, &why)) {
            live.emplace_back(path, std::move(found));
        } else {
            tool_trace("skipped " + why);
        }
    }
    return live;
}

// The servers that wrote OpenPMIx's tool files (pmix.<host>.tool,
// .tool.<pid>, .tool.<nspace>: one server writes all three), live and of our
// uid: exactly one is used, as our own pid files are; PMIX_ERR_NOT_FOUND
// when there is none.
pmix_status_t from_openpmix_session_files(const ToolOptions &o, ServerContact *contact_p, std::string *problem_p)
{
    std::vector<std::pair<std::string, rendezvous::Contact>> servers;
    for (const std::string &path : openpmix_files_named(o, openpmix_tool_file_name(o.hostname, ""), true)) {
        rendezvous::Contact found;
        std::string why;
        if (!usable_file(path, &found, &why)) {
            tool_trace("skipped " + why);
            continue;
        }
        const bool known = std::any_of(servers.begin(), servers.end(), [&](const auto &server) {
            return server.second.uris == found.uris && server.second.pid == found.pid;
        });
        if (!known) servers.emplace_back(path, std::move(found));
    }
    if (servers.empty()) return PMIX_ERR_NOT_FOUND;
    if (servers.size() == 1) {
        *contact_p = contact_from(servers.front().second, servers.front().first);
        return PMIX_SUCCESS;
    }
    std::string which;
    for (const auto &[path, found] : servers) which += (which.empty() ? "" : ", ") + path;
    *problem_p = "several OpenPMIx servers of this user run on this node (" + which +
                 "): pass PMIX_SERVER_PIDINFO, PMIX_SERVER_URI or PMIX_TOOL_ATTACHMENT_FILE to choose";
    return PMIX_ERR_BAD_PARAM;
}

pmix_status_t from_search(const ToolOptions &o, ServerContact *contact_p, std::string *problem_p)
{
    std::string ignored;
    ServerContact launcher;
    if (discover_server(&launcher, &ignored)) {
        launcher.found_in = "the environment (PMIX_SERVER_URI*)";
        *contact_p = std::move(launcher);
        return PMIX_SUCCESS;
    }
    const std::string system_path = join_path(o.system_tmpdir, rendezvous::system_file_name(o.hostname));
    std::string why;
    if (o.system_first && from_file(system_path, "system", contact_p, &why) == PMIX_SUCCESS) {
        return PMIX_SUCCESS;
    }
    auto live = live_pid_files(o);
    if (live.size() == 1) {
        *contact_p = contact_from(live.front().second, live.front().first);
        return PMIX_SUCCESS;
    }
    if (live.size() > 1) {
        std::string pids;
        for (const auto &[path, found] : live) pids += (pids.empty() ? "" : ", ") + std::to_string(found.pid);
        *problem_p = "several PMIx servers of this user run on this node (pids " + pids + " in " + o.server_tmpdir +
                     "): pass PMIX_SERVER_PIDINFO with the pid of the one to use";
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_status_t rc = from_openpmix_session_files(o, contact_p, problem_p);
    if (rc != PMIX_ERR_NOT_FOUND) return rc;
    if (from_file(system_path, "system", contact_p, &why) == PMIX_SUCCESS) return PMIX_SUCCESS;
    *problem_p = "no PMIx server found: no PMIX_SERVER_URI* in the environment, no live pmix." + o.hostname +
                 ".<pid> file of our uid in " + o.server_tmpdir + " nor OpenPMIx's pmix." + o.hostname +
                 ".tool* files there or below " + o.system_tmpdir + ", no " + system_path +
                 " (start a server with tool support, or pass PMIX_SERVER_URI, PMIX_SERVER_PIDINFO, "
                 "PMIX_TOOL_ATTACHMENT_FILE or PMIX_SERVER_TMPDIR/PMIX_SYSTEM_TMPDIR)";
    return PMIX_ERR_UNREACH;
}

}  // namespace

void tool_trace(const std::string &what)
{
    const char *debug = std::getenv("PMIX_DEBUG");
    if (debug != nullptr && std::atoi(debug) >= kDebugLevelForTrace) {
        runtime::log_warning("tool", what);
        return;
    }
    runtime::log_trace("PMIX_MCA_pmix_client_verbose", "tool", what);
}

pmix_status_t find_tool_server(const ToolOptions &options, ServerContact *contact_p, std::string *problem_p)
{
    ServerContact contact;
    pmix_status_t rc = options.explicit_target() ? from_explicit(options, &contact, problem_p)
                                                 : from_search(options, &contact, problem_p);
    if (rc != PMIX_SUCCESS) return rc;
    contact.tool = true;
    contact.launcher = options.launcher;
    contact.nspace = options.nspace;
    contact.rank = options.nspace.empty() ? PMIX_RANK_UNDEF : options.rank;
    if (!options.nspace.empty() && options.rank == PMIX_RANK_UNDEF) contact.rank = 0;
    tool_trace("connecting to the server found in " + contact.found_in);
    *contact_p = std::move(contact);
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::client
