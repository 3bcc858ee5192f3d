#include "component_index.h"

#include "framework_table.h"
#include "repository.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

namespace pmixpp::framework {
namespace {

constexpr const char *kHeader = "pmixpp-component-index 1";

// What an index line says of one file, and which file it was.
struct IndexedFile {
    IndexEntry entry;
    long long size = 0;
    long long mtime_s = 0;
    long long mtime_ns = 0;
};

using DirectoryIndex = std::map<std::string, IndexedFile>;  // by file name

constinit std::mutex indexes_mutex;
std::map<std::string, DirectoryIndex> *indexes = nullptr;  // by directory

std::string file_name_of(const IndexEntry &entry)
{
    return "pmixpp_" + entry.framework + "_" + entry.name + ".so";
}

// One line; false when it is not an entry (a damaged index counts as none).
bool parse_line(const std::string &line, IndexedFile *file_p)
{
    std::istringstream in(line);
    IndexedFile file;
    if (!(in >> file.entry.framework >> file.entry.name >> file.entry.priority >> file.size >> file.mtime_s >>
          file.mtime_ns)) {
        return false;
    }
    in >> std::ws;
    std::getline(in, file.entry.version);
    *file_p = std::move(file);
    return true;
}

DirectoryIndex read_index(const std::string &directory)
{
    DirectoryIndex index;
    std::ifstream in(directory + "/" + component_index_file);
    std::string line;
    if (!in || !std::getline(in, line) || line != kHeader) return index;
    while (std::getline(in, line)) {
        IndexedFile file;
        if (parse_line(line, &file)) index.emplace(file_name_of(file.entry), std::move(file));
    }
    return index;
}

bool stat_file(const std::string &path, long long *size_p, long long *mtime_s_p, long long *mtime_ns_p)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
    *size_p = static_cast<long long>(st.st_size);
    *mtime_s_p = static_cast<long long>(st.st_mtim.tv_sec);
    *mtime_ns_p = static_cast<long long>(st.st_mtim.tv_nsec);
    return true;
}

const DirectoryIndex &index_of(const std::string &directory)
{
    if (indexes == nullptr) indexes = new std::map<std::string, DirectoryIndex>;
    auto found = indexes->find(directory);
    if (found == indexes->end()) found = indexes->emplace(directory, read_index(directory)).first;
    return found->second;
}

// "pmixpp_<fw>_<name>.so" of a known framework: its framework and name.
bool component_file(const std::string &file, const FrameworkInfo **framework_p, std::string *name_p)
{
    constexpr std::string_view prefix = "pmixpp_";
    constexpr std::string_view suffix = ".so";
    if (!file.starts_with(prefix) || !file.ends_with(suffix)) return false;
    const std::string stem = file.substr(prefix.size(), file.size() - prefix.size() - suffix.size());
    const auto underscore = stem.find('_');
    if (underscore == std::string::npos || underscore + 1 == stem.size()) return false;
    *framework_p = find_framework(stem.substr(0, underscore));
    *name_p = stem.substr(underscore + 1);
    return *framework_p != nullptr;
}

struct CloseDir {
    void operator()(DIR *dir) const { ::closedir(dir); }
};

std::vector<std::string> files_in(const std::string &directory)
{
    std::vector<std::string> files;
    const std::unique_ptr<DIR, CloseDir> dir(::opendir(directory.c_str()));
    if (dir == nullptr) return files;
    while (const dirent *entry = ::readdir(dir.get())) files.emplace_back(entry->d_name);
    std::ranges::sort(files);
    return files;
}

// The index line of one component file, or why it has none.
bool index_line(const std::string &directory, const std::string &file, std::string *line_p, std::string *why_p)
{
    const FrameworkInfo *framework = nullptr;
    std::string name;
    if (!component_file(file, &framework, &name)) return false;
    Candidate candidate{name, directory + "/" + file, nullptr, nullptr, {}};
    load(*framework, &candidate);
    if (!candidate.rejection.empty()) {
        *why_p = candidate.path + ": " + candidate.rejection;
        return false;
    }
    const std::string version = candidate.descriptor->version != nullptr ? candidate.descriptor->version : "";
    const int priority = candidate.descriptor->default_priority;
    unload(&candidate);
    long long size = 0, mtime_s = 0, mtime_ns = 0;
    if (!stat_file(candidate.path, &size, &mtime_s, &mtime_ns)) {
        *why_p = candidate.path + ": cannot stat it";
        return false;
    }
    std::ostringstream line;
    line << framework->name << ' ' << name << ' ' << priority << ' ' << size << ' ' << mtime_s << ' ' << mtime_ns << ' '
         << version;
    *line_p = line.str();
    return true;
}

}  // namespace

std::optional<IndexEntry> fresh_index_entry(const std::string &path)
{
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) return std::nullopt;
    const std::string directory = path.substr(0, slash);
    const std::string file = path.substr(slash + 1);
    long long size = 0, mtime_s = 0, mtime_ns = 0;
    std::lock_guard lock(indexes_mutex);
    const DirectoryIndex &index = index_of(directory);
    const auto found = index.find(file);
    if (found == index.end()) return std::nullopt;
    if (!stat_file(path, &size, &mtime_s, &mtime_ns)) return std::nullopt;
    const IndexedFile &indexed = found->second;
    if (indexed.size != size || indexed.mtime_s != mtime_s || indexed.mtime_ns != mtime_ns) return std::nullopt;
    return indexed.entry;
}

void forget_component_indexes()
{
    std::lock_guard lock(indexes_mutex);
    if (indexes != nullptr) indexes->clear();
}

pmix_status_t write_component_index(const std::string &directory, std::vector<std::string> *lines_p)
{
    std::string body = std::string(kHeader) + "\n";
    bool any = false;
    for (const std::string &file : files_in(directory)) {
        std::string line;
        std::string why;
        if (index_line(directory, file, &line, &why)) {
            body += line + "\n";
            any = true;
        } else if (!why.empty()) {
            lines_p->push_back("left out " + why);
        }
    }
    if (!any && lines_p->empty()) return PMIX_ERR_NOT_FOUND;
    const std::string target = directory + "/" + component_index_file;
    const std::string temporary = target + ".tmp." + std::to_string(::getpid());
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << body;
        if (!out.flush()) {
            ::unlink(temporary.c_str());
            return PMIX_ERR_NO_PERMISSIONS;
        }
    }
    if (::rename(temporary.c_str(), target.c_str()) != 0) {
        ::unlink(temporary.c_str());
        return PMIX_ERR_NO_PERMISSIONS;
    }
    forget_component_indexes();
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::framework
