// Who is at the other end of an accepted TCP connection, from the kernel
// only. For a peer on this host the kernel still holds the peer's socket:
// NETLINK_SOCK_DIAG finds it by the exact 4-tuple and reports its owner uid
// and inode, in microseconds (identify_socket_owner, at accept). The
// process holding that inode, and so its gid and pid, is found by scanning
// /proc (identify_peer): that costs a read per descriptor of the uid's
// processes, so the core runs it on a worker thread, only for a peer that
// sent its hello. A peer on another host stays unknown, and psec must ask it
// for a credential.
#include "tcp.h"

#include "../shared/ptl_shared.hpp"

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace pmixpp::ptl::tcp {
namespace {

// Bounds on the /proc search, so that a node with huge fd tables costs a
// known amount per accepted connection.
constexpr size_t max_processes_examined = 8192;
constexpr size_t max_descriptors_examined = 262144;

struct SocketOwner {
    uid_t uid = 0;
    ino_t inode = 0;
};

void fill_diag_address(const Endpoint &endpoint, __be16 *port_p, __be32 address_p[4])
{
    if (endpoint.family() == AF_INET) {
        const auto *address = reinterpret_cast<const sockaddr_in *>(&endpoint.storage);
        *port_p = address->sin_port;
        std::memcpy(address_p, &address->sin_addr, sizeof(address->sin_addr));
    } else {
        const auto *address = reinterpret_cast<const sockaddr_in6 *>(&endpoint.storage);
        *port_p = address->sin6_port;
        std::memcpy(address_p, &address->sin6_addr, sizeof(address->sin6_addr));
    }
}

// The request names the PEER's socket: its own address first (src), ours second.
bool send_diag_request(int netlink, const Endpoint &peer, const Endpoint &local)
{
    struct {
        nlmsghdr header;
        inet_diag_req_v2 request;
    } message{};
    message.header.nlmsg_len = sizeof(message);
    message.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    message.header.nlmsg_flags = NLM_F_REQUEST;
    message.header.nlmsg_seq = 1;
    message.request.sdiag_family = static_cast<__u8>(peer.family());
    message.request.sdiag_protocol = IPPROTO_TCP;
    message.request.idiag_states = ~0U;
    fill_diag_address(peer, &message.request.id.idiag_sport, message.request.id.idiag_src);
    fill_diag_address(local, &message.request.id.idiag_dport, message.request.id.idiag_dst);
    message.request.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
    message.request.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
    sockaddr_nl kernel{};
    kernel.nl_family = AF_NETLINK;
    return sendto(netlink, &message, sizeof(message), 0, reinterpret_cast<const sockaddr *>(&kernel), sizeof(kernel)) ==
           static_cast<ssize_t>(sizeof(message));
}

// Parsed by hand: the NLMSG_* macros are C casts all the way down.
bool read_diag_reply(int netlink, SocketOwner *owner_p)
{
    alignas(nlmsghdr) unsigned char buffer[8192];
    ssize_t received = 0;
    do {
        received = recv(netlink, buffer, sizeof(buffer), 0);
    } while (received < 0 && errno == EINTR);
    if (received < static_cast<ssize_t>(sizeof(nlmsghdr))) return false;
    nlmsghdr header;
    std::memcpy(&header, buffer, sizeof(header));
    const size_t header_space = (sizeof(nlmsghdr) + 3) & ~size_t{3};
    if (header.nlmsg_type != SOCK_DIAG_BY_FAMILY || header.nlmsg_len > static_cast<size_t>(received) ||
        header.nlmsg_len < header_space + sizeof(inet_diag_msg)) {
        return false;  // NLMSG_ERROR (no such socket) or a short answer
    }
    inet_diag_msg reply;
    std::memcpy(&reply, buffer + header_space, sizeof(reply));
    owner_p->uid = reply.idiag_uid;
    owner_p->inode = reply.idiag_inode;
    return reply.idiag_inode != 0;
}

bool query_socket_owner(const Endpoint &peer, const Endpoint &local, SocketOwner *owner_p)
{
    const util::UniqueFd netlink(socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG));
    if (!netlink) {
        log(PMIXPP_LOG_TRACE, "no NETLINK_SOCK_DIAG socket (%s)", std::strerror(errno));
        return false;
    }
    timeval patience{1, 0};  // the kernel answers at once; never hang an accept on it
    setsockopt(netlink.get(), SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof(patience));
    return send_diag_request(netlink.get(), peer, local) && read_diag_reply(netlink.get(), owner_p);
}

bool parse_pid(const char *name, pid_t *pid_p)
{
    int value = 0;
    const char *end = name + std::strlen(name);
    const auto [stop, ec] = std::from_chars(name, end, value, 10);
    if (ec != std::errc() || stop != end || value <= 0) return false;
    *pid_p = value;
    return true;
}

// True when one of pid's descriptors is the socket `wanted` ("socket:[N]").
bool process_holds_socket(pid_t pid, const std::string &wanted, size_t *budget)
{
    const std::string directory = "/proc/" + std::to_string(pid) + "/fd";
    DIR *fds = opendir(directory.c_str());
    if (fds == nullptr) return false;
    bool found = false;
    char target[64];
    while (!found && *budget > 0) {
        const dirent *entry = readdir(fds);
        if (entry == nullptr) break;
        if (entry->d_name[0] == '.') continue;
        --*budget;
        const ssize_t length = readlinkat(dirfd(fds), entry->d_name, target, sizeof(target) - 1);
        if (length <= 0) continue;
        target[length] = '\0';
        found = wanted == target;
    }
    closedir(fds);
    return found;
}

// The processes of uid, newest first: the peer has just connected, and is
// most often a process just started (a launched client, a tool), so looking
// at the newest pids first finds it after a few fd tables instead of after
// every daemon of the uid (a 16-rank job spent as much CPU on this as on
// everything else the server did).
std::vector<pid_t> processes_of(uid_t uid)
{
    std::vector<pid_t> pids;
    DIR *proc = opendir("/proc");
    if (proc == nullptr) return pids;
    while (pids.size() < max_processes_examined) {
        const dirent *entry = readdir(proc);
        if (entry == nullptr) break;
        pid_t pid = 0;
        struct stat info {};
        if (parse_pid(entry->d_name, &pid) && fstatat(dirfd(proc), entry->d_name, &info, 0) == 0 &&
            info.st_uid == uid) {
            pids.push_back(pid);
        }
    }
    closedir(proc);
    std::sort(pids.begin(), pids.end(), std::greater<>());
    return pids;
}

bool find_process_of_socket(uid_t uid, ino_t inode, pid_t *pid_p)
{
    const std::string wanted = "socket:[" + std::to_string(inode) + "]";
    size_t budget = max_descriptors_examined;
    for (pid_t pid : processes_of(uid)) {
        if (budget == 0) break;
        if (process_holds_socket(pid, wanted, &budget)) {
            *pid_p = pid;
            return true;
        }
    }
    return false;
}

// The effective ids from /proc/<pid>/status ("Uid:\treal\teffective\t...").
// Read with stdio: an std::ifstream would link libstdc++'s whole locale
// machinery (800 KB) into this component, which carries its own copy of
// the C++ runtime.
bool read_effective_ids(pid_t pid, uid_t *uid_p, gid_t *gid_p)
{
    const std::string path = "/proc/" + std::to_string(pid) + "/status";
    FILE *status = std::fopen(path.c_str(), "re");
    if (status == nullptr) return false;
    char line[256];
    bool have_uid = false;
    bool have_gid = false;
    while ((!have_uid || !have_gid) && std::fgets(line, sizeof line, status) != nullptr) {
        unsigned real = 0;
        unsigned effective = 0;
        if (std::sscanf(line, "Uid: %u %u", &real, &effective) == 2) {
            *uid_p = effective;
            have_uid = true;
        } else if (std::sscanf(line, "Gid: %u %u", &real, &effective) == 2) {
            *gid_p = effective;
            have_gid = true;
        }
    }
    std::fclose(status);
    return have_uid && have_gid;
}

bool endpoints_of(int fd, Endpoint *peer_p, Endpoint *local_p)
{
    peer_p->length = sizeof(peer_p->storage);
    local_p->length = sizeof(local_p->storage);
    return getpeername(fd, peer_p->raw(), &peer_p->length) == 0 &&
           getsockname(fd, local_p->raw(), &local_p->length) == 0 &&
           (peer_p->family() == AF_INET || peer_p->family() == AF_INET6) && peer_p->family() == local_p->family();
}

// The kernel's owner of the peer's socket, for a peer on this host (one
// from our own address, not loopback, is on this host too); *remote_p is
// its address, for log lines.
bool owner_of_local_peer(int fd, Endpoint *remote_p, SocketOwner *owner_p)
{
    Endpoint local;
    if (!endpoints_of(fd, remote_p, &local)) return false;
    if (!is_loopback(*remote_p) && !same_host_address(*remote_p, local)) return false;
    if (query_socket_owner(*remote_p, local, owner_p)) return true;
    log(PMIXPP_LOG_TRACE, "the kernel does not know the peer socket %s", to_uri(*remote_p).c_str());
    return false;
}

}  // namespace

pmixpp_peer_identity_t identify_socket_owner(int fd)
{
    pmixpp_peer_identity_t peer{};
    peer.struct_size = sizeof(peer);
    Endpoint remote;
    SocketOwner owner;
    if (!owner_of_local_peer(fd, &remote, &owner)) return peer;
    peer.uid_known = 1;
    peer.uid = owner.uid;
    return peer;
}

pmixpp_peer_identity_t identify_peer(int fd)
{
    pmixpp_peer_identity_t peer{};
    peer.struct_size = sizeof(peer);
    Endpoint remote;
    SocketOwner owner;
    if (!owner_of_local_peer(fd, &remote, &owner)) return peer;
    pid_t pid = 0;
    uid_t uid = 0;
    gid_t gid = 0;
    // The gid is only in /proc: without the process, the identity stays
    // unknown rather than half known.
    if (!find_process_of_socket(owner.uid, owner.inode, &pid) || !read_effective_ids(pid, &uid, &gid) ||
        uid != owner.uid) {
        log(PMIXPP_LOG_TRACE, "no process of uid %u holds the peer socket %s", static_cast<unsigned>(owner.uid),
            to_uri(remote).c_str());
        return peer;
    }
    peer.known = 1;
    peer.pid_known = 1;
    peer.uid = owner.uid;
    peer.gid = gid;
    peer.pid = pid;
    return peer;
}

}  // namespace pmixpp::ptl::tcp
