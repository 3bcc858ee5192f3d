// Who a process is: pid plus its start time, read from /proc/<pid>/stat.
// A pid alone is not enough, the kernel hands it out again after the
// process is gone.
#include "common/rendezvous/rendezvous.h"

#include <pmixpp/util.hpp>

#include <cerrno>
#include <cstdio>
#include <string_view>

#include <fcntl.h>
#include <unistd.h>

namespace pmixpp::rendezvous {

namespace {

struct ProcessStat {
    char state = '\0';
    std::string start_time;
};

// Field 22 (starttime) of /proc/<pid>/stat. The second field, the command
// name in parentheses, may contain spaces and ')': the fields after it are
// counted from its LAST ')'.
bool read_stat(pid_t pid, ProcessStat *stat_p)
{
    if (pid <= 0) return false;
    const std::string path = "/proc/" + std::to_string(pid) + "/stat";
    util::UniqueFd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd) return false;
    char buffer[4096];
    std::string text;
    ssize_t got = 0;
    while ((got = read(fd.get(), buffer, sizeof(buffer))) > 0 && text.size() < 65536) {
        text.append(buffer, static_cast<std::size_t>(got));
    }
    fd.reset();
    const std::size_t paren = text.rfind(')');
    if (paren == std::string::npos) return false;
    // Fields 3.. after the command name, blank-separated (no stream: the
    // library's static C++ runtime would set up its locales for it).
    std::string_view rest = std::string_view(text).substr(paren + 1);
    ProcessStat stat;
    for (int number = 3; number <= 22; ++number) {
        const auto start = rest.find_first_not_of(" \t\n");
        if (start == std::string_view::npos) break;
        rest.remove_prefix(start);
        const std::string_view field = rest.substr(0, rest.find_first_of(" \t\n"));
        rest.remove_prefix(field.size());
        if (number == 3) stat.state = field[0];
        if (number == 22) stat.start_time = std::string(field);
    }
    if (stat.start_time.empty()) return false;
    *stat_p = std::move(stat);
    return true;
}

}  // namespace

std::string process_start_time(pid_t pid)
{
    ProcessStat stat;
    return read_stat(pid, &stat) ? stat.start_time : std::string();
}

void fill_identity(Contact *contact_p)
{
    contact_p->pid = getpid();
    contact_p->uid = geteuid();
    contact_p->gid = getegid();
    contact_p->start_time = process_start_time(contact_p->pid);
}

bool server_alive(const Contact &contact)
{
    ProcessStat stat;
    if (!read_stat(contact.pid, &stat)) return false;
    // A zombie has exited: its sockets are closed, nobody answers there.
    if (stat.state == 'Z' || stat.state == 'X' || stat.state == 'x') return false;
    if (contact.openpmix_only) return true;  // OpenPMIx's files name no start time
    return !contact.start_time.empty() && stat.start_time == contact.start_time;
}

}  // namespace pmixpp::rendezvous
