#include "tool/tool_support.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

std::string make_tmpdir()
{
    char templ[] = "/tmp/pmixpp-tooltest-XXXXXX";
    const char *dir = mkdtemp(templ);
    return dir == nullptr ? std::string() : std::string(dir);
}

void remove_tmpdir(const std::string &dir)
{
    std::error_code ignored;
    if (!dir.empty()) std::filesystem::remove_all(dir, ignored);
}

static bool wait_ready(int fd)
{
    std::string text;
    for (int waited = 0; waited < 300; ++waited) {  // 300 x 100 ms
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 100) <= 0) continue;
        char c = 0;
        if (read(fd, &c, 1) != 1) return false;
        if (c == '\n') return text.rfind("ready", 0) == 0;
        text += c;
    }
    return false;
}

bool start_server(TestServer *server, const std::string &name, const std::string &tmpdir,
                  const std::vector<std::string> &flags)
{
    int in[2];
    int out[2];
    if (pipe(in) != 0 || pipe(out) != 0) return false;
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[1]);
        close(out[0]);
        std::vector<std::string> args = {TOOL_SERVER_PATH, "--name", name, "--tmpdir", tmpdir};
        args.insert(args.end(), flags.begin(), flags.end());
        std::vector<char *> argv;
        for (auto &a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(TOOL_SERVER_PATH, argv.data());
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    server->pid = pid;
    server->to_child = in[1];
    server->from_child = out[0];
    return wait_ready(out[0]);
}

void stop_server(TestServer *server)
{
    if (server->pid <= 0) return;
    close(server->to_child);
    for (int waited = 0; waited < 200; ++waited) {  // 200 x 50 ms
        if (waitpid(server->pid, nullptr, WNOHANG) == server->pid) {
            server->pid = -1;
            close(server->from_child);
            return;
        }
        usleep(50000);
    }
    kill(server->pid, SIGKILL);
    waitpid(server->pid, nullptr, 0);
    server->pid = -1;
    close(server->from_child);
}

std::string hostname()
{
    char name[HOST_NAME_MAX + 1] = {};
    if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost";
    return name;
}

std::string first_line(const std::string &path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

void load_string(pmix_info_t *info, const char *key, const std::string &value)
{
    PMIX_INFO_LOAD(info, key, value.c_str(), PMIX_STRING);
}

void load_flag(pmix_info_t *info, const char *key)
{
    bool yes = true;
    PMIX_INFO_LOAD(info, key, &yes, PMIX_BOOL);
}

std::string whole_file(const std::string &path)
{
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool write_private_file(const std::string &path, const std::string &text)
{
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return false;
    bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    return close(fd) == 0 && ok;
}
