#include "shell.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <system_error>
#include <vector>

namespace pmixpp::tests {
namespace {

std::string read_file(const std::string &path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

bool exited_zero(int status)
{
    return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void report_failure(const std::string &command, const std::string &log_path)
{
    std::fprintf(stderr, "command failed: %s\n--- %s ---\n%s\n---\n", command.c_str(), log_path.c_str(),
                 read_file(log_path).c_str());
}

}  // namespace

std::string shell_quote(const std::string &text)
{
    std::string quoted = "'";
    for (const char c : text) {
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return quoted + "'";
}

std::string env_or_empty(const char *name)
{
    const char *value = std::getenv(name);
    return value ? value : "";
}

bool run_logged(const std::string &command, const std::string &log_path)
{
    const std::string full = "(" + command + ") >" + shell_quote(log_path) + " 2>&1";
    if (exited_zero(std::system(full.c_str()))) {
        return true;
    }
    report_failure(command, log_path);
    return false;
}

bool run_capture(const std::string &command, const std::string &log_path, std::string *out_p)
{
    const std::string out_path = log_path + ".stdout";
    const std::string full = "(" + command + ") >" + shell_quote(out_path) + " 2>" + shell_quote(log_path);
    if (!exited_zero(std::system(full.c_str()))) {
        report_failure(command, log_path);
        return false;
    }
    *out_p = read_file(out_path);
    return true;
}

std::string make_work_dir(const char *stem)
{
    std::string base = env_or_empty("PMIXPP_SDK_WORK_DIR");
    if (base.empty()) {
        base = std::filesystem::temp_directory_path().string();
    }
    std::error_code ignored;
    std::filesystem::create_directories(base, ignored);
    std::string pattern = base + "/" + stem + "-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (::mkdtemp(buffer.data()) == nullptr) {
        return "";
    }
    return buffer.data();
}

void remove_tree(const std::string &path)
{
    if (path.empty()) {
        return;
    }
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
}

bool install_pmixpp(const std::string &prefix, const std::string &log_path)
{
    const std::string command = shell_quote(env_or_empty("PMIXPP_CMAKE")) + " --install " +
                                shell_quote(env_or_empty("PMIXPP_BUILD_DIR")) + " --prefix " + shell_quote(prefix);
    return run_logged(command, log_path);
}

}  // namespace pmixpp::tests
