#include "simfabric_files.h"

#include <pmixpp/util.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace simfabric {

std::string table_path(const std::string &nsdir)
{
    return nsdir + "/simfab.table";
}
std::string app_path(const std::string &nsdir, uint32_t appnum)
{
    return nsdir + "/simfab.app" + std::to_string(appnum) + ".ctx";
}
std::string port_path(const std::string &nsdir, uint32_t rank)
{
    return nsdir + "/simfab.rank" + std::to_string(rank) + ".port";
}

bool write_file(const std::string &path, const std::string &text, std::string *why_p)
{
    const std::string tmp = path + ".tmp";
    pmixpp::util::UniqueFd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600));
    if (!fd) {
        *why_p = "cannot create " + tmp + ": " + std::strerror(errno);
        return false;
    }
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd.get(), text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            *why_p = "cannot write " + tmp + ": " + std::strerror(errno);
            ::unlink(tmp.c_str());
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    fd.reset();
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        *why_p = "cannot rename " + tmp + ": " + std::strerror(errno);
        ::unlink(tmp.c_str());
        return false;
    }
    return true;
}

void remove_file(const std::string &path)
{
    (void)::unlink(path.c_str());
}

}  // namespace simfabric
