#include "server/sessiondirs/session_dirs.h"

#include "common/runtime/log.h"
#include "server/sessiondirs/owner_marker.h"
#include "server/sessiondirs/tree_removal.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include <sys/stat.h>
#include <unistd.h>

namespace pmixpp::sessiondirs {

namespace {

// A namespace as one path component: '/' cannot be part of a name, and
// "." / ".." would point elsewhere.
std::string component_for(const std::string &nspace)
{
    std::string name = nspace;
    for (char &c : name) {
        if (c == '/') c = '_';
    }
    if (name.empty() || name == "." || name == "..") name = "_" + name;
    return name;
}

void remove_if_ours(const Directory &dir)
{
    if (!(dir.created || dir.deferred) || dir.host_cleans || dir.path.empty()) return;
    if (!remove_tree(dir.path)) {
        runtime::log_warning("sessiondirs", "could not remove all of " + dir.path + " (remove it by hand)");
    }
}

}  // namespace

pmix_status_t make_private_dir(const std::string &path, bool *created_p, DirOwner owner)
{
    if (path.empty()) return PMIX_ERR_BAD_PARAM;
    const bool give_away =
        geteuid() == 0 && (owner.uid != static_cast<uid_t>(-1) || owner.gid != static_cast<gid_t>(-1));
    if (mkdir(path.c_str(), 0700) == 0) {
        // The umask may have taken bits away, never added: 0700 exactly.
        if (chmod(path.c_str(), 0700) != 0 || (give_away && chown(path.c_str(), owner.uid, owner.gid) != 0)) {
            runtime::log_warning("sessiondirs", "cannot set the mode or owner of " + path + ": " +
                                                    std::strerror(errno) + " (check the tmpdir attributes)");
            rmdir(path.c_str());
            return PMIX_ERR_FILE_OPEN_FAILURE;
        }
        *created_p = true;
        return PMIX_SUCCESS;
    }
    if (errno != EEXIST) {
        runtime::log_warning("sessiondirs", "cannot create " + path + ": " + std::strerror(errno) +
                                                " (check the tmpdir attributes and permissions)");
        return PMIX_ERR_FILE_OPEN_FAILURE;
    }
    struct stat info {};
    const bool found = lstat(path.c_str(), &info) == 0;
    const bool ours = found && (info.st_uid == geteuid() || (give_away && info.st_uid == owner.uid));
    if (!found || !S_ISDIR(info.st_mode) || !ours) {
        runtime::log_warning("sessiondirs", path + " exists but is not a directory of ours "
                                                   "(remove it or choose another tmpdir)");
        return PMIX_ERR_FILE_OPEN_FAILURE;
    }
    *created_p = false;
    return PMIX_SUCCESS;
}

namespace {

constexpr int kAlternateNames = 16;

// base, or base-1, base-2 ... when somebody else made a file or directory
// at the name first (any local user can guess our pid): one line names it
// and its owner. Empty when every name is taken.
std::string unsquatted_name(const std::string &base, DirOwner owner)
{
    const bool give_away = geteuid() == 0 && owner.uid != static_cast<uid_t>(-1);
    for (int attempt = 0; attempt < kAlternateNames; ++attempt) {
        const std::string path = attempt == 0 ? base : base + "-" + std::to_string(attempt);
        struct stat info {};
        if (lstat(path.c_str(), &info) != 0) return path;
        const bool ours =
            S_ISDIR(info.st_mode) && (info.st_uid == geteuid() || (give_away && info.st_uid == owner.uid));
        if (ours) return path;
        runtime::log_warning("sessiondirs", path + " exists and belongs to uid " + std::to_string(info.st_uid) +
                                                ": not ours, left alone; using another name");
    }
    runtime::log_warning("sessiondirs", "every name from " + base + " to " + base + "-" +
                                            std::to_string(kAlternateNames - 1) +
                                            " is taken by somebody else (clean the tmpdir or choose another)");
    return {};
}

}  // namespace

void SessionDirs::configure(std::string server_tmpdir, std::string host_tmpdir, bool host_cleans, DirOwner owner)
{
    server_tmpdir_ = std::move(server_tmpdir);
    owner_ = owner;
    session_ = Directory{std::move(host_tmpdir), false, host_cleans};
    host_cleans_ = host_cleans;
}

pmix_status_t SessionDirs::session_dir(std::string *path_p)
{
    if (session_.path.empty()) {
        // Unique per user and per server: two servers of one user, or two
        // users, never share (nor remove) each other's tree.
        const std::string base =
            server_tmpdir_ + "/pmix-session." + std::to_string(geteuid()) + "." + std::to_string(getpid());
        std::string path = unsquatted_name(base, owner_);
        if (path.empty()) return PMIX_ERR_FILE_OPEN_FAILURE;
        bool created = false;
        const pmix_status_t rc = make_private_dir(path, &created, owner_);
        if (rc != PMIX_SUCCESS) return rc;
        // Lets a later server tell our death from a reuse of our pid.
        if (created && !write_owner_marker(path)) {
            runtime::log_warning("sessiondirs", "cannot write the owner marker in " + path +
                                                    " (a later server may not reap it after a crash)");
        }
        session_ = Directory{std::move(path), created, host_cleans_};
    }
    *path_p = session_.path;
    return PMIX_SUCCESS;
}

pmix_status_t SessionDirs::nspace_dir(const std::string &nspace, const std::string &host_tmpdir,
                                      const std::string &host_nsdir, bool host_cleans, std::string *path_p)
{
    auto found = nspaces_.find(nspace);
    if (found != nspaces_.end()) {
        *path_p = found->second.dir.path;
        return PMIX_SUCCESS;
    }
    Directory dir{host_nsdir, false, host_cleans || host_cleans_};
    if (dir.path.empty()) {
        std::string parent = host_tmpdir;
        if (parent.empty()) {
            const pmix_status_t rc = session_dir(&parent);
            if (rc != PMIX_SUCCESS) return rc;
        }
        dir.path = parent + "/" + component_for(nspace);
        const pmix_status_t rc = make_private_dir(dir.path, &dir.created, owner_);
        if (rc != PMIX_SUCCESS) return rc;
    }
    nspaces_[nspace].dir = dir;
    *path_p = dir.path;
    return PMIX_SUCCESS;
}

pmix_status_t SessionDirs::proc_dir(const std::string &nspace, pmix_rank_t rank, std::string *path_p)
{
    auto found = nspaces_.find(nspace);
    if (found == nspaces_.end()) return PMIX_ERR_NOT_FOUND;
    NspaceDirs &entry = found->second;
    auto proc = entry.procs.find(rank);
    if (proc != entry.procs.end()) {
        *path_p = proc->second.path;
        return PMIX_SUCCESS;
    }
    Directory dir{entry.dir.path + "/" + std::to_string(rank), false, entry.dir.host_cleans};
    dir.deferred = entry.dir.created && !entry.dir.host_cleans;
    if (!dir.deferred) {
        const pmix_status_t rc = make_private_dir(dir.path, &dir.created, owner_);
        if (rc != PMIX_SUCCESS) return rc;
    }
    entry.procs[rank] = dir;
    *path_p = dir.path;
    return PMIX_SUCCESS;
}

pmix_status_t SessionDirs::make_proc_dir(const std::string &nspace, pmix_rank_t rank)
{
    auto found = nspaces_.find(nspace);
    if (found == nspaces_.end()) return PMIX_ERR_NOT_FOUND;
    auto proc = found->second.procs.find(rank);
    if (proc == found->second.procs.end()) return PMIX_ERR_NOT_FOUND;
    if (!proc->second.deferred) return PMIX_SUCCESS;
    bool created = false;
    return make_private_dir(proc->second.path, &created, owner_);
}

void SessionDirs::release_proc(const std::string &nspace, pmix_rank_t rank)
{
    auto found = nspaces_.find(nspace);
    if (found == nspaces_.end()) return;
    auto proc = found->second.procs.find(rank);
    if (proc == found->second.procs.end()) return;
    remove_if_ours(proc->second);
    found->second.procs.erase(proc);
}

void SessionDirs::release_nspace(const std::string &nspace)
{
    auto found = nspaces_.find(nspace);
    if (found == nspaces_.end()) return;
    // A host-made nspace dir stays, with anything the host put in it; only
    // the proc dirs we made inside it go.
    for (const auto &[rank, proc] : found->second.procs) remove_if_ours(proc);
    remove_if_ours(found->second.dir);
    nspaces_.erase(found);
}

void SessionDirs::release_all()
{
    while (!nspaces_.empty()) release_nspace(nspaces_.begin()->first);
    remove_if_ours(session_);
    session_ = Directory{};
}

}  // namespace pmixpp::sessiondirs
