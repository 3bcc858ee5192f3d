// Session directories of a server (seed
// session-directories.rst): PMIX_TMPDIR for the session, PMIX_NSDIR per
// namespace and PMIX_PROCDIR per local process, created for the host when it
// gave none. Only levels that did not exist are created, every created level
// is remembered, and only those are removed (deregister_client,
// deregister_nspace, finalize) unless the host said it cleans
// (PMIX_TDIR_RMCLEAN).
//
// A proc dir inside a namespace directory of ours is only named at
// registration: our client library makes it when its process first asks for
// PMIX_PROCDIR, and the server when a client of another library connects
// (make_proc_dir). A mkdir and an rmdir per process on a disk file system
// cost a 128-process start tens of milliseconds (docs/session-dirs.md), and
// most processes never ask. Whatever is there when the process is
// deregistered goes, as everything in a directory of ours does. Directories are mode 0700, and belong to the job's
// user when the host named one (PMIX_USERID / PMIX_GRPID at init: Slurm's
// root slurmstepd runs users' jobs, whose processes must use them).
//
// Threading: owned by the Server, touched on the progress thread only.
#ifndef PMIXPP_SERVER_SESSIONDIRS_SESSION_DIRS_H
#define PMIXPP_SERVER_SESSIONDIRS_SESSION_DIRS_H

#include <pmix_common.h>

#include <sys/types.h>

#include <map>
#include <string>

namespace pmixpp::sessiondirs {

// Who the directories are made for; -1: this process's user (or group).
struct DirOwner {
    uid_t uid = static_cast<uid_t>(-1);
    gid_t gid = static_cast<gid_t>(-1);
};

// One directory and whether this library made it (and so may remove it).
struct Directory {
    std::string path;
    bool created = false;
    bool host_cleans = false;
    // Named, made by whoever needs it first, inside a directory of ours: it
    // is removed if it is there.
    bool deferred = false;
};

class SessionDirs {
public:
    // server_tmpdir: the resolved PMIX_SERVER_TMPDIR; host_tmpdir: the
    // PMIX_TMPDIR of PMIx_server_init (empty: we make one below
    // server_tmpdir named after our uid and pid); host_cleans:
    // PMIX_TDIR_RMCLEAN of PMIx_server_init.
    void configure(std::string server_tmpdir, std::string host_tmpdir, bool host_cleans, DirOwner owner = {});

    // The session directory, created on first use.
    pmix_status_t session_dir(std::string *path_p);
    // The namespace's directory: host_nsdir when the host gave one, else
    // <host_tmpdir or our session dir>/<nspace>, created if missing.
    pmix_status_t nspace_dir(const std::string &nspace, const std::string &host_tmpdir, const std::string &host_nsdir,
                             bool host_cleans, std::string *path_p);
    // <nspace dir>/<rank>; nspace_dir must have run. Created if missing,
    // unless the nspace dir is ours and we clean it (then deferred, above).
    pmix_status_t proc_dir(const std::string &nspace, pmix_rank_t rank, std::string *path_p);
    // Makes a deferred proc dir now (nothing for one made already).
    pmix_status_t make_proc_dir(const std::string &nspace, pmix_rank_t rank);

    // Removal of what was created (nothing when the host cleans).
    void release_proc(const std::string &nspace, pmix_rank_t rank);
    void release_nspace(const std::string &nspace);
    void release_all();

private:
    struct NspaceDirs {
        Directory dir;
        std::map<pmix_rank_t, Directory> procs;
    };

    std::string server_tmpdir_;
    DirOwner owner_;
    Directory session_;
    bool host_cleans_ = false;
    std::map<std::string, NspaceDirs> nspaces_;
};

// Makes `path` a private directory (mode 0700, given to `owner` when one is
// named) if it does not exist. *created_p says whether it was made now. An
// existing path must be a real directory (not a link) owned by us or by
// `owner`.
pmix_status_t make_private_dir(const std::string &path, bool *created_p, DirOwner owner = {});

}  // namespace pmixpp::sessiondirs

#endif
