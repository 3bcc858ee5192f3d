#include "output_files.h"

#include <pmixpp/util.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace pmixrun {
namespace {

// mkdir -p: every missing component of path, 0755.
bool make_directories(const std::string &path, std::string *why_p)
{
    for (std::size_t at = 1; at <= path.size(); ++at) {
        if (at != path.size() && path[at] != '/') continue;
        const std::string part = path.substr(0, at);
        if (::mkdir(part.c_str(), 0755) == 0 || errno == EEXIST) continue;
        *why_p = "--output-filename: cannot make " + part + ": " + std::strerror(errno);
        return false;
    }
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        *why_p = "--output-filename: " + path + " is not a directory (give a directory)";
        return false;
    }
    return true;
}

int open_output(const std::string &path, std::string *why_p)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) *why_p = "--output-filename: cannot write " + path + ": " + std::strerror(errno);
    return fd;
}

}  // namespace

bool open_rank_files(const std::string &dir, const std::string &job_number, uint32_t rank, bool with_stderr,
                     RankFiles *files_p, std::string *why_p)
{
    const std::string where = dir + "/" + job_number + "/rank." + std::to_string(rank);
    if (!make_directories(where, why_p)) return false;
    RankFiles files;
    pmixpp::util::UniqueFd out(open_output(where + "/stdout", why_p));
    if (!out) return false;
    if (with_stderr) {
        files.err = open_output(where + "/stderr", why_p);
        if (files.err < 0) return false;
    }
    files.out = out.release();
    *files_p = files;
    return true;
}

}  // namespace pmixrun
