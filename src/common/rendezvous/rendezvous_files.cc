// Rendezvous files on disk: read (refusing anything odd), atomic write,
// claim (exclusive create with reclaim of a dead server's file), release,
// and listing. docs/rendezvous.md gives the rules.
#include "common/rendezvous/rendezvous.h"

#include <pmixpp/util.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <new>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pmixpp::rendezvous {

namespace {

constexpr off_t kMaxFileSize = 64 * 1024;

std::atomic<unsigned> g_temp_counter{0};

pmix_status_t fail(pmix_status_t rc, const std::string &why, std::string *error_p)
{
    if (error_p != nullptr) *error_p = why;
    return rc;
}

std::string errno_text(int error)
{
    return std::strerror(error);
}

std::string parent_of(const std::string &path)
{
    const std::size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// An fd holding the lock of a directory: claims and releases in one
// directory are serialized among pmixpp processes, so two servers that both
// find a stale file cannot both remove "the stale one" and both win. The
// lock goes with the process if it dies.
//
// Never a blocking wait: any user who can open the directory (/tmp) can
// hold its lock for ever. After kLockPatience the work goes on unlocked;
// what the lock serialises is then guarded by O_EXCL links and owner checks
// alone (a rarer race between two servers of one user, not a hang).
class DirectoryLock {
public:
    static constexpr int kLockPatienceMs = 500;

    explicit DirectoryLock(const std::string &dir) : fd_(open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC))
    {
        if (!fd_) return;
        for (int waited = 0; flock(fd_.get(), LOCK_EX | LOCK_NB) != 0; waited += 10) {
            if ((errno != EWOULDBLOCK && errno != EINTR) || waited >= kLockPatienceMs) {
                fd_.reset();  // not ours: go on without it
                return;
            }
            usleep(10000);
        }
    }

private:
    util::UniqueFd fd_;  // closing it drops the lock
};

// Why the opened file (fd) is not one we read: it is not what lstat saw,
// not a regular file, too large, or writable by others. Empty when fine.
std::string refusal_of_opened(int fd, const struct stat &seen, const std::string &path)
{
    struct stat info {};
    if (fstat(fd, &info) != 0 || info.st_dev != seen.st_dev || info.st_ino != seen.st_ino) {
        return path + " changed while it was opened";
    }
    if (!S_ISREG(info.st_mode)) return path + " is not a regular file";
    if (info.st_size > kMaxFileSize) return path + " is larger than 64 KiB";
    if ((info.st_mode & (S_IWGRP | S_IWOTH)) != 0) return path + " is writable by others than its owner";
    return {};
}

// The text of path, refusing links and anything odd (read_file's rules);
// *owner_p (optional) is the file's owner.
pmix_status_t read_guarded(const std::string &path, std::string *text_p, std::string *why_p,
                           struct stat *owner_p = nullptr)
{
    struct stat seen {};
    if (lstat(path.c_str(), &seen) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) return fail(PMIX_ERR_NOT_FOUND, path + " does not exist", why_p);
        return fail(PMIX_ERR_NO_PERMISSIONS, "cannot look at " + path + ": " + errno_text(errno), why_p);
    }
    if (S_ISLNK(seen.st_mode)) return fail(PMIX_ERR_NO_PERMISSIONS, path + " is a symbolic link", why_p);
    if (!S_ISREG(seen.st_mode)) return fail(PMIX_ERR_NO_PERMISSIONS, path + " is not a regular file", why_p);
    // O_NONBLOCK: a FIFO swapped in after lstat must not block the open.
    util::UniqueFd fd(open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (!fd) {
        if (errno == ENOENT) return fail(PMIX_ERR_NOT_FOUND, path + " does not exist", why_p);
        return fail(PMIX_ERR_NO_PERMISSIONS, "cannot open " + path + ": " + errno_text(errno), why_p);
    }
    std::string why = refusal_of_opened(fd.get(), seen, path);
    char buffer[4096];
    ssize_t got = 0;
    while (why.empty() && (got = read(fd.get(), buffer, sizeof(buffer))) != 0) {
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) why = "cannot read " + path + ": " + errno_text(errno);
        else text_p->append(buffer, static_cast<std::size_t>(got));
        if (text_p->size() > static_cast<std::size_t>(kMaxFileSize)) why = path + " is larger than 64 KiB";
    }
    fd.reset();
    if (!why.empty()) return fail(PMIX_ERR_NO_PERMISSIONS, why, why_p);
    if (owner_p != nullptr) *owner_p = seen;
    return PMIX_SUCCESS;
}

// The finished text in a fresh, private temp file beside path.
pmix_status_t write_temp(const std::string &path, const Contact &contact, std::string *temp_p, std::string *error_p)
{
    const std::string text = format(contact);
    std::string why;
    Contact check;
    if (parse(text, &check, &why) != PMIX_SUCCESS) {
        return fail(PMIX_ERR_BAD_PARAM, "cannot write " + path + ": " + why, error_p);
    }
    const std::string temp = parent_of(path) + "/.pmixpp-rdv." + std::to_string(getpid()) + "." +
                             std::to_string(g_temp_counter.fetch_add(1)) + ".tmp";
    util::UniqueFd fd(open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!fd) {
        return fail(PMIX_ERR_FILE_OPEN_FAILURE, "cannot create " + temp + ": " + errno_text(errno), error_p);
    }
    bool written = fchmod(fd.get(), 0600) == 0;  // the umask may have taken bits, never added
    std::size_t done = 0;
    while (written && done < text.size()) {
        const ssize_t got = write(fd.get(), text.data() + done, text.size() - done);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) written = false;
        else done += static_cast<std::size_t>(got);
    }
    const int saved = errno;
    // No fsync: the file names a live server, and after a crash of the
    // machine there is none to name. rename(2) and link(2) already give a
    // reader the whole file or none. An fsync waits for the file system's
    // journal, tens of milliseconds on a disk that a finished job's
    // directories keep busy, at every server start.
    if (fd.close() != 0) written = false;
    if (!written) {
        unlink(temp.c_str());
        return fail(PMIX_ERR_FILE_WRITE_FAILURE, "cannot write " + temp + ": " + errno_text(saved), error_p);
    }
    *temp_p = temp;
    return PMIX_SUCCESS;
}

// Why the existing file at path may not be taken over; PMIX_SUCCESS when it
// is a dead server's file of ours that may be removed.
pmix_status_t judge_existing(const std::string &path, std::string *error_p)
{
    struct stat info {};
    if (lstat(path.c_str(), &info) != 0) return PMIX_SUCCESS;  // gone meanwhile
    if (info.st_uid != geteuid()) {
        return fail(PMIX_ERR_EXISTS,
                    path + " exists and belongs to uid " + std::to_string(info.st_uid) +
                        " (another user's server; use a different PMIX_SYSTEM_TMPDIR)",
                    error_p);
    }
    Contact owner;
    std::string why;
    if (read_file(path, &owner, &why) != PMIX_SUCCESS) {
        return fail(PMIX_ERR_EXISTS,
                    path + " exists and is not a pmixpp rendezvous file (" + why + "; remove it if no server uses it)",
                    error_p);
    }
    if (server_alive(owner)) {
        return fail(PMIX_ERR_EXISTS,
                    path + " is held by the live server pid " + std::to_string(owner.pid) +
                        " (stop that server or use a different PMIX_SYSTEM_TMPDIR)",
                    error_p);
    }
    return PMIX_SUCCESS;
}

pmix_status_t claim_locked(const std::string &path, const std::string &temp, std::string *error_p)
{
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (link(temp.c_str(), path.c_str()) == 0) return PMIX_SUCCESS;
        if (errno != EEXIST) {
            return fail(PMIX_ERR_FILE_OPEN_FAILURE, "cannot create " + path + ": " + errno_text(errno), error_p);
        }
        if (attempt > 0) break;
        const pmix_status_t rc = judge_existing(path, error_p);
        if (rc != PMIX_SUCCESS) return rc;
        if (unlink(path.c_str()) != 0 && errno != ENOENT) {
            return fail(PMIX_ERR_EXISTS, "cannot remove the stale " + path + ": " + errno_text(errno), error_p);
        }
    }
    return fail(PMIX_ERR_EXISTS, path + " was created again by another process while we reclaimed it", error_p);
}

}  // namespace

pmix_status_t read_file(const std::string &path, Contact *contact_p, std::string *error_p)
try {
    std::string text;
    std::string why;
    const pmix_status_t rc = read_guarded(path, &text, &why);
    if (rc != PMIX_SUCCESS) return fail(rc, why, error_p);
    if (parse(text, contact_p, &why) != PMIX_SUCCESS) return fail(PMIX_ERR_BAD_PARAM, path + ": " + why, error_p);
    return PMIX_SUCCESS;
} catch (const std::bad_alloc &) {
    return PMIX_ERR_NOMEM;
}

pmix_status_t read_any_file(const std::string &path, Contact *contact_p, std::string *error_p)
try {
    std::string text;
    std::string why;
    struct stat owner {};
    const pmix_status_t rc = read_guarded(path, &text, &why, &owner);
    if (rc != PMIX_SUCCESS) return fail(rc, why, error_p);
    if (parse(text, contact_p, &why) == PMIX_SUCCESS) return PMIX_SUCCESS;
    std::string openpmix_why;
    Contact contact;
    if (parse_openpmix(text, &contact, &openpmix_why) != PMIX_SUCCESS) {
        return fail(PMIX_ERR_BAD_PARAM, path + ": neither ours (" + why + ") nor OpenPMIx's (" + openpmix_why + ")",
                    error_p);
    }
    if (contact.pid == 0) {
        contact.uid = owner.st_uid;
        contact.gid = owner.st_gid;
    }
    *contact_p = std::move(contact);
    return PMIX_SUCCESS;
} catch (const std::bad_alloc &) {
    return PMIX_ERR_NOMEM;
}

pmix_status_t write_file(const std::string &path, const Contact &contact, std::string *error_p)
try {
    std::string temp;
    const pmix_status_t rc = write_temp(path, contact, &temp, error_p);
    if (rc != PMIX_SUCCESS) return rc;
    if (rename(temp.c_str(), path.c_str()) != 0) {
        const int saved = errno;
        unlink(temp.c_str());
        return fail(PMIX_ERR_FILE_WRITE_FAILURE, "cannot rename " + temp + " to " + path + ": " + errno_text(saved),
                    error_p);
    }
    return PMIX_SUCCESS;
} catch (const std::bad_alloc &) {
    return PMIX_ERR_NOMEM;
}

pmix_status_t claim_file(const std::string &path, const Contact &contact, std::string *error_p)
try {
    std::string temp;
    pmix_status_t rc = write_temp(path, contact, &temp, error_p);
    if (rc != PMIX_SUCCESS) return rc;
    {
        DirectoryLock lock(parent_of(path));
        rc = claim_locked(path, temp, error_p);
    }
    unlink(temp.c_str());
    return rc;
} catch (const std::bad_alloc &) {
    return PMIX_ERR_NOMEM;
}

void release_file(const std::string &path)
try {
    DirectoryLock lock(parent_of(path));
    Contact owner;
    if (read_file(path, &owner, nullptr) != PMIX_SUCCESS) return;
    if (owner.pid != getpid() || owner.start_time != process_start_time(getpid())) return;
    (void)unlink(path.c_str());
} catch (const std::bad_alloc &) {
}

bool reap_if_stale(const std::string &path, Contact *owner_p)
try {
    DirectoryLock lock(parent_of(path));
    struct stat info {};
    if (lstat(path.c_str(), &info) != 0 || info.st_uid != geteuid()) return false;
    Contact owner;
    if (read_file(path, &owner, nullptr) != PMIX_SUCCESS || server_alive(owner)) return false;
    if (unlink(path.c_str()) != 0) return false;
    if (owner_p != nullptr) *owner_p = std::move(owner);
    return true;
} catch (const std::bad_alloc &) {
    return false;
}

std::vector<std::string> list_files(const std::string &dir)
try {
    std::vector<std::string> names;
    util::UniqueFd owner(open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!owner) return names;
    DIR *stream = fdopendir(owner.get());
    if (stream == nullptr) return names;
    const int fd = owner.release();  // the stream owns it now
    while (const struct dirent *entry = readdir(stream)) {
        const std::string_view name = entry->d_name;
        if (name.substr(0, 5) != "pmix.") continue;
        struct stat info {};
        if (fstatat(fd, entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(info.st_mode)) continue;
        try {
            names.emplace_back(name);
        } catch (const std::bad_alloc &) {
            break;  // a partial list: the stream must still be closed
        }
    }
    closedir(stream);  // closes fd
    std::sort(names.begin(), names.end());
    return names;
} catch (const std::bad_alloc &) {
    return {};
}

}  // namespace pmixpp::rendezvous
