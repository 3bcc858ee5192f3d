#include "server/sessiondirs/stale_reaper.h"

#include "common/rendezvous/rendezvous.h"
#include "common/runtime/log.h"
#include "server/sessiondirs/owner_marker.h"
#include "server/sessiondirs/tree_removal.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <new>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pmixpp::sessiondirs {

namespace {

constexpr const char *kVerbose = "PMIX_MCA_pmix_server_verbose";
constexpr std::string_view kTempPrefix = ".pmixpp-rdv.";

void trace(const std::string &what)
{
    runtime::log_trace(kVerbose, "sessiondirs", what);
}

std::vector<std::string> entries_of(const std::string &dir)
{
    std::vector<std::string> names;
    DIR *stream = opendir(dir.c_str());
    if (stream == nullptr) return names;
    try {
        while (const struct dirent *entry = readdir(stream)) names.emplace_back(entry->d_name);
    } catch (const std::bad_alloc &) {
        names.clear();  // reap nothing rather than leak the stream
    }
    closedir(stream);
    return names;
}

// "<digits>" at the front of text as a pid; the rest in *rest_p.
bool leading_pid(std::string_view text, pid_t *pid_p, std::string_view *rest_p)
{
    long long pid = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), pid);
    if (ec != std::errc() || end == text.data() || pid <= 0 || pid > 0x7fffffff) return false;
    *pid_p = static_cast<pid_t>(pid);
    *rest_p = text.substr(static_cast<std::size_t>(end - text.data()));
    return true;
}

// True unless the kernel says there is no such process (EPERM: there is
// one, of another user).
bool pid_runs(pid_t pid)
{
    return kill(pid, 0) == 0 || errno != ESRCH;
}

bool owned_directory(const std::string &path)
{
    struct stat info {};
    return lstat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode) && info.st_uid == geteuid();
}

// Dead = the marker's server is gone or its pid now runs another program;
// without a marker, only a pid that does not run at all proves it.
bool session_owner_dead(const std::string &path, pid_t pid, std::string *why_p)
{
    Owner owner;
    if (read_owner_marker(path, &owner) && owner.pid == pid) {
        rendezvous::Contact contact;
        contact.pid = owner.pid;
        contact.start_time = owner.start_time;
        if (rendezvous::server_alive(contact)) return false;
        *why_p = pid_runs(pid) ? "pid " + std::to_string(pid) + " now runs another program"
                               : "server pid " + std::to_string(pid) + " is gone";
        return true;
    }
    if (pid_runs(pid)) return false;  // cannot prove it is stale: keep it
    *why_p = "server pid " + std::to_string(pid) + " is gone (no owner marker)";
    return true;
}

// "pmixpp.<host>.<pid>.<n>.sock" (the usock listener's name): the pid.
bool socket_owner(const std::string &name, pid_t *pid_p)
{
    constexpr std::string_view kSocketPrefix = "pmixpp.";
    constexpr std::string_view kSocketSuffix = ".sock";
    std::string_view text = name;
    if (text.size() <= kSocketPrefix.size() + kSocketSuffix.size() ||
        text.substr(0, kSocketPrefix.size()) != kSocketPrefix ||
        text.substr(text.size() - kSocketSuffix.size()) != kSocketSuffix) {
        return false;
    }
    text.remove_suffix(kSocketSuffix.size());
    const std::size_t counter = text.find_last_of('.');
    if (counter == std::string_view::npos || counter == 0) return false;
    const std::size_t pid_start = text.find_last_of('.', counter - 1);
    if (pid_start == std::string_view::npos) return false;
    const std::string_view number = text.substr(counter + 1);
    if (number.empty() || number.find_first_not_of("0123456789") != std::string_view::npos) return false;
    std::string_view rest;
    return leading_pid(text.substr(pid_start + 1, counter - pid_start - 1), pid_p, &rest) && rest.empty();
}

}  // namespace

int reap_stale_socket_files(const std::string &dir)
{
    int reaped = 0;
    for (const std::string &name : entries_of(dir)) {
        pid_t pid = 0;
        if (!socket_owner(name, &pid) || pid_runs(pid)) continue;
        const std::string path = dir + "/" + name;
        struct stat info {};
        if (lstat(path.c_str(), &info) != 0 || !S_ISSOCK(info.st_mode) || info.st_uid != geteuid()) continue;
        if (unlink(path.c_str()) == 0) {
            trace("removed the stale socket " + path + " (server pid " + std::to_string(pid) + " is gone)");
            ++reaped;
        }
    }
    return reaped;
}

namespace {

// "" or "-N": a server whose own name was taken took "<name>-N" (session_dirs.cc).
bool alternate_suffix(std::string_view rest)
{
    return rest.empty() || (rest.size() > 1 && rest[0] == '-' &&
                            rest.substr(1).find_first_not_of("0123456789") == std::string_view::npos);
}

}  // namespace

int reap_stale_session_dirs(const std::string &dir)
{
    const std::string prefix = "pmix-session." + std::to_string(geteuid()) + ".";
    int reaped = 0;
    for (const std::string &name : entries_of(dir)) {
        if (name.compare(0, prefix.size(), prefix) != 0) continue;
        pid_t pid = 0;
        std::string_view rest;
        if (!leading_pid(std::string_view(name).substr(prefix.size()), &pid, &rest) || !alternate_suffix(rest)) {
            continue;
        }
        const std::string path = dir + "/" + name;
        std::string why;
        if (!owned_directory(path) || !session_owner_dead(path, pid, &why)) continue;
        if (remove_tree(path)) {
            trace("removed the stale session directory " + path + " (" + why + ")");
            ++reaped;
        } else {
            runtime::log_warning("sessiondirs", "could not remove all of the stale session directory " + path +
                                                    " (remove it by hand)");
        }
    }
    return reaped;
}

int reap_stale_rendezvous_files(const std::string &dir)
{
    int reaped = 0;
    for (const std::string &name : rendezvous::list_files(dir)) {
        const std::string path = dir + "/" + name;
        rendezvous::Contact owner;
        if (!rendezvous::reap_if_stale(path, &owner)) continue;
        trace("removed the stale rendezvous file " + path + " (server pid " + std::to_string(owner.pid) + " is gone)");
        ++reaped;
    }
    // A writer killed between writing its temp file and renaming it.
    for (const std::string &name : entries_of(dir)) {
        pid_t pid = 0;
        std::string_view rest;
        if (name.compare(0, kTempPrefix.size(), kTempPrefix) != 0) continue;
        if (!leading_pid(std::string_view(name).substr(kTempPrefix.size()), &pid, &rest)) continue;
        const std::string path = dir + "/" + name;
        struct stat info {};
        if (pid_runs(pid) || lstat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode) || info.st_uid != geteuid()) {
            continue;
        }
        if (unlink(path.c_str()) == 0) {
            trace("removed the stale temp file " + path + " (writer pid " + std::to_string(pid) + " is gone)");
            ++reaped;
        }
    }
    return reaped;
}

void reap_stale(const std::vector<std::string> &dirs)
{
    try {
        std::vector<std::string> seen;
        for (const std::string &dir : dirs) {
            if (dir.empty() || std::find(seen.begin(), seen.end(), dir) != seen.end()) continue;
            seen.push_back(dir);
            reap_stale_rendezvous_files(dir);
            reap_stale_session_dirs(dir);
            reap_stale_socket_files(dir);
        }
    } catch (const std::bad_alloc &) {
        // Reaping is a courtesy: without memory the server starts without it.
    }
}

}  // namespace pmixpp::sessiondirs
