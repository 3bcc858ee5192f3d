#include "rendezvous/rdv_support.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>

#include <dirent.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>

namespace {

constexpr int kWaitMs = 30000;  // a bound, never a timing assumption

std::string read_line(int fd)
{
    std::string line;
    char c = 0;
    while (true) {
        pollfd ready{fd, POLLIN, 0};
        if (poll(&ready, 1, kWaitMs) <= 0) return line.empty() ? "timeout" : line;
        const ssize_t got = read(fd, &c, 1);
        if (got <= 0 || c == '\n') return line.empty() && got <= 0 ? "eof" : line;
        line += c;
    }
}

int wait_bounded(pid_t pid)
{
    int status = 0;
    for (int i = 0; i < kWaitMs / 10; ++i) {
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) return status;
        if (done < 0) return -1;
        usleep(10000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
}

}  // namespace

TmpDirs::TmpDirs()
{
    cr_assert_eq(mkdir(system.c_str(), 0700), 0);
    cr_assert_eq(mkdir(server.c_str(), 0700), 0);
}

std::vector<std::string> names_in(const std::string &dir)
{
    std::vector<std::string> names;
    DIR *stream = opendir(dir.c_str());
    if (stream == nullptr) return names;
    while (const struct dirent *entry = readdir(stream)) {
        const std::string name = entry->d_name;
        if (name != "." && name != "..") names.push_back(name);
    }
    closedir(stream);
    std::sort(names.begin(), names.end());
    return names;
}

ServerChild::ServerChild(const TmpDirs &dirs, const std::vector<std::string> &flags)
{
    int in[2], out[2];
    cr_assert_eq(pipe(in), 0);
    cr_assert_eq(pipe(out), 0);
    const pid_t parent = getpid();
    pid_ = fork();
    cr_assert_geq(pid_, 0);
    if (pid_ == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);  // the test died before prctl
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        std::vector<std::string> args{RDV_SERVER, dirs.system, dirs.server};
        args.insert(args.end(), flags.begin(), flags.end());
        std::vector<char *> argv;
        for (std::string &arg : args) argv.push_back(arg.data());
        argv.push_back(nullptr);
        execv(RDV_SERVER, argv.data());
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_child_ = in[1];
    from_child_ = out[0];
    line_ = read_line(from_child_);
}

ServerChild::~ServerChild()
{
    if (pid_ > 0) stop();
}

void ServerChild::kill_hard()
{
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    close(to_child_);
    close(from_child_);
}

int ServerChild::stop()
{
    close(to_child_);
    const int status = wait_bounded(pid_);
    close(from_child_);
    pid_ = -1;
    return status;
}

pmix_status_t init_server(const TmpDirs &dirs, const std::vector<const char *> &flags,
                          const std::vector<pmix_info_t> &extra)
{
    std::vector<pmix_info_t> info(3 + flags.size());
    PMIX_INFO_LOAD(&info[0], PMIX_SYSTEM_TMPDIR, dirs.system.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_SERVER_TMPDIR, dirs.server.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_HOSTNAME, kHost, PMIX_STRING);
    bool yes = true;
    for (std::size_t i = 0; i < flags.size(); ++i) PMIX_INFO_LOAD(&info[3 + i], flags[i], &yes, PMIX_BOOL);
    info.insert(info.end(), extra.begin(), extra.end());
    static pmix_server_module_t module{};
    return PMIx_server_init(&module, info.data(), info.size());
}
