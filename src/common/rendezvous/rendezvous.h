// Rendezvous files (seed session-directories.rst): the small text
// files a server leaves in a tmpdir so that a tool can find and connect to
// it without being told its address. docs/rendezvous.md gives the format.
//
// Shared by the server (writes, reclaims, reaps) and the tool (reads,
// searches). Nothing here keeps state; every function is safe on any thread.
#ifndef PMIXPP_COMMON_RENDEZVOUS_RENDEZVOUS_H
#define PMIXPP_COMMON_RENDEZVOUS_RENDEZVOUS_H

#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

#include <pmix_common.h>

namespace pmixpp::rendezvous {

// What a rendezvous file says about its server.
struct Contact {
    std::vector<std::string> uris;  // every URI it listens on, priority order
    std::string server_nspace;
    pmix_rank_t server_rank = PMIX_RANK_UNDEF;
    std::string library_version;  // PMIx_Get_version() of the server
    pid_t pid = 0;
    uid_t uid = 0;
    gid_t gid = 0;
    // PMIX_SERVER_START_TIME: the server process's start time as the kernel
    // records it (process_start_time below); with pid it names one process,
    // so a pid reused by another program is told apart.
    std::string start_time;
    // An OpenPMIx server's file (parse_openpmix): its URI speaks only
    // OpenPMIx's protocol, and it names no start time (pid 0: nor a pid).
    bool openpmix_only = false;
};

// The kinds of file of the seed, by the name they get.
//   system:     <system tmpdir>/pmix.sys.<host>   (PMIX_SERVER_SYSTEM_SUPPORT)
//   session:    <server tmpdir>/pmix.sys.<host>   (PMIX_SERVER_SESSION_SUPPORT)
//   tool pid:   <server tmpdir>/pmix.<host>.<pid> (PMIX_SERVER_TOOL_SUPPORT)
//   tool nspace:<server tmpdir>/pmix.<host>.<nspace>
//   scheduler:  <system tmpdir>/pmix.sched.<host>
//   controller: <system tmpdir>/pmix.sysctrlr.<host>
//   launcher:   the path of PMIX_LAUNCHER_RENDEZVOUS_FILE
std::string system_file_name(const std::string &host);      // "pmix.sys.<host>"
std::string scheduler_file_name(const std::string &host);   // "pmix.sched.<host>"
std::string controller_file_name(const std::string &host);  // "pmix.sysctrlr.<host>"
std::string pid_file_name(const std::string &host, pid_t pid);
std::string nspace_file_name(const std::string &host, const std::string &nspace);

// The file's text (docs/rendezvous.md). Line 1 is "<nspace>.<rank>;<uri>"
// as OpenPMIx writes it, so a reader that only wants one URI finds it (the
// tcp URI when there is one: OpenPMIx's tools speak nothing else).
std::string format(const Contact &contact);
// Parses format()'s text. PMIX_ERR_BAD_PARAM with *error_p naming the
// problem for anything else (a file of another program is not ours).
pmix_status_t parse(std::string_view text, Contact *contact_p, std::string *error_p);

// OpenPMIx's text (its servers' pmix.sys.<host>, pmix.<host>.tool*):
// "<nspace>.<rank>;<uri>", the version, then from 4.x on the pid and
// "uid:gid". PMIX_ERR_BAD_PARAM with *error_p naming the problem otherwise.
pmix_status_t parse_openpmix(std::string_view text, Contact *contact_p, std::string *error_p);

// Reads and parses path. Refuses (PMIX_ERR_NO_PERMISSIONS) a file that is a
// symbolic link, not a regular file, larger than 64 KiB, or writable by
// anyone but its owner; PMIX_ERR_NOT_FOUND when it does not exist.
pmix_status_t read_file(const std::string &path, Contact *contact_p, std::string *error_p);
// read_file's rules, but the text may be ours or OpenPMIx's (for tools,
// which may find either server); an OpenPMIx file without "uid:gid" gets
// its owner's. Only read_file decides what a server may reclaim.
pmix_status_t read_any_file(const std::string &path, Contact *contact_p, std::string *error_p);

// Writes contact to path atomically (a temp file in the same directory,
// renamed), mode 0600. Replaces an existing file. Not synced to disk: the
// file names a live server.
pmix_status_t write_file(const std::string &path, const Contact &contact, std::string *error_p);

// Like write_file, but the file must not exist yet (link(2) of the finished
// temp file, so readers never see a half-written one and two servers never
// both win). When it exists and its server is alive:
// PMIX_ERR_EXISTS with *error_p naming the live owner (pid) and the
// path; when it is a valid rendezvous file of our uid whose server is dead,
// the stale file is removed and the claim retried once. A file of another
// uid, or one that does not parse as ours (maybe another program's), is
// never removed: PMIX_ERR_EXISTS with *error_p saying why.
pmix_status_t claim_file(const std::string &path, const Contact &contact, std::string *error_p);

// Removes path if it is a rendezvous file naming this very process (pid and
// start time): never a file another server claimed in between.
void release_file(const std::string &path);

// Removes path when it is a stale rendezvous file of ours: owned by our
// effective uid, parses, and its server is not alive. Done under the same
// directory lock as claim_file, so a file another server just claimed in
// its place is never taken for the stale one. True when it was removed;
// *owner_p (optional) is then the dead server's Contact.
bool reap_if_stale(const std::string &path, Contact *owner_p);

// The start time of process pid as a string (field 22 of /proc/<pid>/stat,
// clock ticks since boot); empty when there is no such process.
std::string process_start_time(pid_t pid);
// This process's Contact fields pid/uid/gid/start_time filled in.
void fill_identity(Contact *contact_p);
// True when contact.pid runs and started at contact.start_time (for an
// OpenPMIx file, which names no start time: when the pid runs, not a zombie).
bool server_alive(const Contact &contact);

// The rendezvous files in dir whose name starts with "pmix." (names only,
// sorted). Never follows a symbolic link to a directory.
std::vector<std::string> list_files(const std::string &dir);

// The paths of the regular files whose name starts with prefix, in dir and
// the directories below it (a few levels, a bounded number of entries, no
// symbolic links followed), the shallower first.
std::vector<std::string> find_below(const std::string &dir, const std::string &prefix);

}  // namespace pmixpp::rendezvous

#endif
