#include "server/rendezvous/server_files.h"

#include "common/rendezvous/rendezvous.h"
#include "common/runtime/log.h"
#include "server/rendezvous/openpmix_files.h"
#include "server/state/info_read.h"
#include "server/state/server.h"
#include "server/sessiondirs/stale_reaper.h"

#include <pmix.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace pmixpp::rendezvous {

namespace {

using server::Server;

constexpr const char *kVerbose = "PMIX_MCA_pmix_server_verbose";

// One file to write: exclusive files are claimed (one live holder per node).
struct Planned {
    std::string path;
    bool exclusive = false;
};

// What this process's server wrote; removed at finalize.
struct Published {
    std::vector<std::string> files;
    std::vector<std::string> created_dirs;  // in creation order (parents first)
};

Published &published()
{
    static Published state;
    return state;
}

std::string launcher_file(const pmix_info_t info[], std::size_t ninfo)
{
    std::string path;
    if (const pmix_info_t *item = server::find_info(info, ninfo, PMIX_LAUNCHER_RENDEZVOUS_FILE)) {
        (void)server::read_string(item->value, &path);
    }
    if (path.empty()) {
        const char *env = std::getenv(PMIX_LAUNCHER_RENDEZVOUS_FILE);
        if (env != nullptr) path = env;
    }
    return path;
}

void add(std::vector<Planned> &plan, std::string path, bool exclusive)
{
    // Two kinds may name one path (system and session server sharing a
    // tmpdir): written once, exclusive if either is.
    for (Planned &entry : plan) {
        if (entry.path == path) {
            entry.exclusive = entry.exclusive || exclusive;
            return;
        }
    }
    plan.push_back(Planned{std::move(path), exclusive});
}

std::vector<Planned> plan_files(const server::Config &config, const pmix_info_t info[], std::size_t ninfo)
{
    const std::string &host = config.hostname;
    const std::string system = config.system_tmpdir + "/";
    const std::string session = config.server_tmpdir + "/";
    std::vector<Planned> plan;
    if (config.system_support) add(plan, system + system_file_name(host), true);
    if (config.session_support) add(plan, session + system_file_name(host), true);
    if (config.tool_support) {
        add(plan, session + pid_file_name(host, getpid()), false);
        add(plan, session + nspace_file_name(host, config.nspace), false);
    }
    if (config.scheduler) add(plan, system + scheduler_file_name(host), true);
    if (server::directive_flag(info, ninfo, PMIX_SERVER_SYS_CONTROLLER)) {
        add(plan, system + controller_file_name(host), true);
    }
    const std::string launcher = launcher_file(info, ninfo);
    if (!launcher.empty()) add(plan, launcher, false);
    return plan;
}

// Creates the missing directories above path (0700), remembering them.
pmix_status_t make_parents(const std::string &path, std::string *error_p)
{
    const std::size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return PMIX_SUCCESS;  // in the current directory
    std::vector<std::string> missing;
    std::string dir = path.substr(0, slash);
    struct stat info {};
    while (!dir.empty() && stat(dir.c_str(), &info) != 0) {
        missing.push_back(dir);
        const std::size_t up = dir.find_last_of('/');
        dir = up == std::string::npos ? std::string() : dir.substr(0, up);
    }
    if (!dir.empty() && !S_ISDIR(info.st_mode)) {
        *error_p = dir + " is not a directory";
        return PMIX_ERR_FILE_OPEN_FAILURE;
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
        if (mkdir(it->c_str(), 0700) == 0) {
            (void)chmod(it->c_str(), 0700);  // exactly 0700 whatever the umask
            published().created_dirs.push_back(*it);
        } else if (errno != EEXIST) {
            *error_p = "cannot create " + *it + ": " + std::strerror(errno);
            return PMIX_ERR_FILE_OPEN_FAILURE;
        }
    }
    return PMIX_SUCCESS;
}

Contact server_contact(const Server &server)
{
    Contact contact;
    contact.uris = server.uris();
    contact.server_nspace = server.config.nspace;
    contact.server_rank = server.config.rank;
    contact.library_version = PMIx_Get_version();
    fill_identity(&contact);
    return contact;
}

void store_start_time(Server &server, const std::string &start_time)
{
    if (server.store == nullptr || start_time.empty()) return;
    pmix_value_t value{};
    value.type = PMIX_STRING;
    value.data.string = const_cast<char *>(start_time.c_str());  // copied by the store
    if (server.store->put_value(server.config.nspace.c_str(), PMIXPP_GDS_LEVEL_PROC, server.config.rank,
                                PMIX_SERVER_START_TIME, &value) != PMIX_SUCCESS) {
        runtime::log_warning("server", "cannot store " PMIX_SERVER_START_TIME " (PMIx_Get of it will not find it)");
    }
}

pmix_status_t write_one(const Planned &entry, const Contact &contact)
{
    std::string error;
    pmix_status_t rc = make_parents(entry.path, &error);
    if (rc == PMIX_SUCCESS) {
        rc = entry.exclusive ? claim_file(entry.path, contact, &error) : write_file(entry.path, contact, &error);
    }
    if (rc == PMIX_SUCCESS) {
        published().files.push_back(entry.path);
        runtime::log_trace(kVerbose, "server", "wrote the rendezvous file " + entry.path);
        return PMIX_SUCCESS;
    }
    if (entry.exclusive) {
        runtime::log_warning("server", "PMIx_server_init refused: " + error);
        return rc;
    }
    // A tool file that cannot be written costs only the tools that look for it.
    runtime::log_warning("server",
                         "no rendezvous file " + entry.path + ": " + error + " (tools will not find the server there)");
    return PMIX_SUCCESS;
}

}  // namespace

void reap_before_start(const server::Config &config)
{
    sessiondirs::reap_stale({config.system_tmpdir, config.server_tmpdir});
}

pmix_status_t publish_server_files(Server &server, const pmix_info_t info[], std::size_t ninfo)
try {
    const Contact contact = server_contact(server);
    store_start_time(server, contact.start_time);
    const std::vector<Planned> plan = plan_files(server.config, info, ninfo);
    if (plan.empty()) return PMIX_SUCCESS;
    if (contact.uris.empty()) {
        runtime::log_warning("server", "no listener is open: no rendezvous files are written "
                                       "(tools cannot find this server; check PMIX_MCA_ptl)");
        return PMIX_SUCCESS;
    }
    for (const Planned &entry : plan) {
        const pmix_status_t rc = write_one(entry, contact);
        if (rc != PMIX_SUCCESS) return rc;
    }
    publish_openpmix_files(server);
    return PMIX_SUCCESS;
} catch (const std::bad_alloc &) {
    return PMIX_ERR_NOMEM;
}

void withdraw_server_files()
{
    Published &state = published();
    withdraw_openpmix_files();
    for (const std::string &path : state.files) release_file(path);
    // Children before parents; a directory someone else put files in stays.
    for (auto it = state.created_dirs.rbegin(); it != state.created_dirs.rend(); ++it) (void)rmdir(it->c_str());
    state = Published{};
}

}  // namespace pmixpp::rendezvous
