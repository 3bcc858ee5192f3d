// Searching a directory tree for rendezvous files, as an OpenPMIx tool
// does: its servers may keep their files in a session directory below the
// system tmpdir (Open MPI's mpirun: <tmpdir>/ompi.<host>.<uid>/pid.<pid>/).
#include "common/rendezvous/rendezvous.h"

#include <pmixpp/util.hpp>

#include <algorithm>
#include <new>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pmixpp::rendezvous {

namespace {

// Bounds, so that a tool never walks a huge or hostile tree: a session
// directory sits two or three levels down.
constexpr int kMaxDepth = 4;
constexpr std::size_t kMaxEntries = 20000;

struct Search {
    std::string prefix;
    std::size_t visited = 0;
    std::vector<std::string> found;
};

std::string joined(const std::string &dir, const char *name)
{
    return dir.empty() || dir.back() != '/' ? dir + "/" + name : dir + name;
}

void search_dir(const std::string &dir, int depth, Search &search)
{
    util::UniqueFd owner(open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!owner) return;
    DIR *stream = fdopendir(owner.get());
    if (stream == nullptr) return;
    const int fd = owner.release();  // the stream owns it now
    std::vector<std::string> files;
    std::vector<std::string> below;
    while (const struct dirent *entry = readdir(stream)) {
        if (++search.visited > kMaxEntries) break;
        const std::string_view name = entry->d_name;
        if (name == "." || name == "..") continue;
        struct stat info {};
        if (fstatat(fd, entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0) continue;
        if (S_ISDIR(info.st_mode) && depth < kMaxDepth) {
            below.push_back(joined(dir, entry->d_name));
        } else if (S_ISREG(info.st_mode) && name.substr(0, search.prefix.size()) == search.prefix) {
            files.push_back(joined(dir, entry->d_name));
        }
    }
    closedir(stream);  // closes fd
    std::sort(files.begin(), files.end());
    search.found.insert(search.found.end(), files.begin(), files.end());
    std::sort(below.begin(), below.end());
    for (const std::string &sub : below) search_dir(sub, depth + 1, search);
}

}  // namespace

std::vector<std::string> find_below(const std::string &dir, const std::string &prefix)
try {
    Search search;
    search.prefix = prefix;
    search_dir(dir, 0, search);
    return search.found;
} catch (const std::bad_alloc &) {
    return {};
}

}  // namespace pmixpp::rendezvous
