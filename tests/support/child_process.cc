#include "support/child_process.h"

#include <criterion/criterion.h>

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace test_support {
namespace {

std::vector<char *> argv_of(const char *program, const std::vector<std::string> &args)
{
    std::vector<char *> argv;
    argv.push_back(const_cast<char *>(program));
    for (const std::string &arg : args) argv.push_back(const_cast<char *>(arg.c_str()));
    argv.push_back(nullptr);
    return argv;
}

int code_of(int status)
{
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int remove_entry(const char *path, const struct stat *, int, struct FTW *)
{
    return ::remove(path);
}

// Reads both pipes until the child closes them or the deadline passes.
void collect(int out, int err, int seconds, Result &result)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    int fds_open[2] = {out, err};
    int open = 2;
    while (open > 0 && std::chrono::steady_clock::now() < deadline) {
        pollfd fds[2] = {{fds_open[0], POLLIN, 0}, {fds_open[1], POLLIN, 0}};
        if (::poll(fds, 2, 200) <= 0) continue;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) continue;
            char buffer[4096];
            const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
            if (n > 0) {
                (i == 0 ? result.out : result.err).append(buffer, static_cast<std::size_t>(n));
            } else {
                ::close(fds[i].fd);
                fds_open[i] = -1;
                --open;
            }
        }
    }
    for (int fd : fds_open) {
        if (fd >= 0) ::close(fd);
    }
}

}  // namespace

Result run(const char *program, const std::vector<std::string> &args, const std::string &input, int seconds)
{
    Result result = run_quietly(program, args, input, seconds);
    if (result.timed_out) cr_log_error("%s did not end within %d s: killed its process group", program, seconds);
    return result;
}

Result run_quietly(const char *program, const std::vector<std::string> &args, const std::string &input, int seconds)
{
    int out[2], err[2], in[2];
    cr_assert_eq(::pipe(out), 0);
    cr_assert_eq(::pipe(err), 0);
    cr_assert_eq(::pipe(in), 0);
    std::vector<char *> argv = argv_of(program, args);
    const pid_t pid = ::fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        ::setpgid(0, 0);
        ::dup2(in[0], 0);
        ::dup2(out[1], 1);
        ::dup2(err[1], 2);
        for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
        ::execv(program, argv.data());
        _exit(126);
    }
    ::setpgid(pid, pid);
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    if (!input.empty()) (void)!::write(in[1], input.data(), input.size());
    ::close(in[1]);
    Result result;
    collect(out[0], err[0], seconds, result);
    int status = 0;
    for (int i = 0; i < 100 && result.code < 0; ++i) {  // 5 s to exit once its pipes closed
        if (::waitpid(pid, &status, WNOHANG) == pid) result.code = code_of(status);
        else ::usleep(50000);
    }
    if (result.code < 0) {
        result.timed_out = true;
        ::kill(-pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        result.code = code_of(status);
    }
    return result;
}

pid_t start(const char *program, const std::vector<std::string> &args, const std::string &output)
{
    std::vector<char *> argv = argv_of(program, args);
    const pid_t pid = ::fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        const int null = ::open("/dev/null", O_RDONLY);
        const int sink = ::open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0600);
        ::dup2(null, 0);
        ::dup2(sink, 1);
        ::dup2(sink, 2);
        ::execv(program, argv.data());
        _exit(126);
    }
    return pid;
}

int finish(pid_t pid, int seconds)
{
    int status = 0;
    for (int i = 0; i < seconds * 20; ++i) {
        if (::waitpid(pid, &status, WNOHANG) == pid) return code_of(status);
        ::usleep(50000);
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    cr_assert_fail("process %d did not end within %d s", static_cast<int>(pid), seconds);
    return -1;
}

pid_t dead_pid()
{
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    int status = 0;
    ::waitpid(child, &status, 0);
    return child;
}

std::string scratch_dir(const char *prefix)
{
    std::string pattern = std::string("/tmp/") + prefix + ".XXXXXX";
    const char *dir = ::mkdtemp(pattern.data());
    cr_assert_not_null(dir);
    return dir;
}

bool empty_dir(const std::string &dir)
{
    DIR *d = ::opendir(dir.c_str());
    if (d == nullptr) return false;
    int entries = 0;
    while (const dirent *e = ::readdir(d)) {
        if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) ++entries;
    }
    ::closedir(d);
    return entries == 0;
}

void remove_tree(const std::string &dir)
{
    (void)::nftw(dir.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

std::string read_text(const std::string &path)
{
    std::ifstream file(path);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

std::string wait_for_first_line(const std::string &path)
{
    for (int i = 0; i < 200; ++i) {
        const std::string text = read_text(path);
        const std::size_t end = text.find('\n');
        if (end != std::string::npos) return text.substr(0, end);
        ::usleep(50000);
    }
    return "";
}

bool has_line(const std::string &text, const std::string &line)
{
    return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

std::vector<std::string> lines_with(const std::string &text, const std::string &part)
{
    std::vector<std::string> found;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.find(part) != std::string::npos) found.push_back(line);
    }
    return found;
}

std::vector<std::string> lines_of(const std::string &text)
{
    return lines_with(text, "");
}

int count_lines_with(const std::string &text, const std::string &part)
{
    return static_cast<int>(lines_with(text, part).size());
}

}  // namespace test_support
