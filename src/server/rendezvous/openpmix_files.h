// The rendezvous files OpenPMIx's servers write, written by ours beside our
// own so that OpenPMIx's tools find us (docs/rendezvous.md, "OpenPMIx's
// files"): pmix.<host>.tool for session support, pmix.<host>.tool.<pid> and
// pmix.<host>.tool.<nspace> for tool support, each naming our tcp listener.
// Only written when the server listens on tcp: OpenPMIx's tools know no
// other transport. Touched on the progress thread only (and by start_server
// before the server is published).
#ifndef PMIXPP_SERVER_RENDEZVOUS_OPENPMIX_FILES_H
#define PMIXPP_SERVER_RENDEZVOUS_OPENPMIX_FILES_H

#include <sys/types.h>

#include <ctime>
#include <string>
#include <vector>

namespace pmixpp::server {
class Server;
}  // namespace pmixpp::server

namespace pmixpp::rendezvous {

// The text of OpenPMIx's file, one item a line: the URI, the version (no
// 'v'), the pid, "uid:gid" and ctime() of now (which ends with its own
// newline, so the file ends with an empty line, as OpenPMIx's does).
std::string openpmix_text(const std::string &uri, pid_t pid, uid_t uid, gid_t gid, std::time_t now);

// Writes the files the server's config asks for (mode 0640, created with
// O_EXCL|O_NOFOLLOW; a stale one of our uid whose pid is gone is replaced,
// anything else is left alone with a warning). Never fails the server.
void publish_openpmix_files(const server::Server &server);

// Removes the files publish_openpmix_files wrote, each only while it still
// names this process.
void withdraw_openpmix_files();

}  // namespace pmixpp::rendezvous

#endif
