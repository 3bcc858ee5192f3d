#include "component_index.h"

#include "framework_table.h"
#include "repository.h"
#include "text_file.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>

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

template <typename Number> bool parse_number(std::string_view text, Number *number_p)
{
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *number_p);
    return error == std::errc() && end == text.data() + text.size();
}

// One line; false when it is not an entry (a damaged index counts as none).
bool parse_line(std::string_view line, IndexedFile *file_p)
{
    std::vector<std::string_view> fields;
    std::string_view version;
    IndexedFile file;
    if (!split_fields(line, 6, &fields, &version) || !parse_number(fields[2], &file.entry.priority) ||
        !parse_number(fields[3], &file.size) || !parse_number(fields[4], &file.mtime_s) ||
        !parse_number(fields[5], &file.mtime_ns)) {
        return false;
    }
    file.entry.framework = fields[0];
    file.entry.name = fields[1];
    file.entry.version = version;
    *file_p = std::move(file);
    return true;
}

DirectoryIndex read_index(const std::string &directory)
{
    DirectoryIndex index;
    std::string text;
    if (!read_text_file(directory + "/" + component_index_file, &text)) return index;
    const std::vector<std::string_view> lines = lines_of(text);
    if (lines.empty() || lines.front() != kHeader) return index;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        IndexedFile file;
        if (parse_line(lines[i], &file)) index.emplace(file_name_of(file.entry), std::move(file));
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
    *line_p = std::string(framework->name) + ' ' + name + ' ' + std::to_string(priority) + ' ' + std::to_string(size) +
              ' ' + std::to_string(mtime_s) + ' ' + std::to_string(mtime_ns) + ' ' + version;
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
    if (!replace_text_file(directory + "/" + component_index_file, body)) return PMIX_ERR_NO_PERMISSIONS;
    forget_component_indexes();
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::framework
