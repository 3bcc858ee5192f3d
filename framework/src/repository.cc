#include "repository.h"

#include "descriptor_check.h"
#include "diagnostics.h"
#include "install_layout.h"
#include "param_store.h"

#include <dirent.h>
#include <dlfcn.h>
#include <ltdl.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>

namespace pmixpp::framework {
namespace {

constinit std::mutex linked_in_mutex;
std::vector<const pmixpp_component_t *> *linked_in = nullptr;  // test hook only

struct CloseDir {
    void operator()(DIR *dir) const { ::closedir(dir); }
};

// Component names in file names of this framework, sorted for a stable order.
std::vector<std::string> component_names_in(const std::string &directory, const FrameworkInfo &framework)
{
    const std::string prefix = "pmixpp_" + std::string(framework.name) + "_";
    const std::string suffix = ".so";
    std::vector<std::string> names;
    // Owned: emplace_back may throw std::bad_alloc, which must not leak the stream.
    const std::unique_ptr<DIR, CloseDir> dir(::opendir(directory.c_str()));
    if (dir == nullptr) return names;
    while (const dirent *entry = ::readdir(dir.get())) {
        const std::string_view file(entry->d_name);
        if (file.size() <= prefix.size() + suffix.size()) continue;
        if (!file.starts_with(prefix) || !file.ends_with(suffix)) continue;
        names.emplace_back(file.substr(prefix.size(), file.size() - prefix.size() - suffix.size()));
    }
    std::ranges::sort(names);
    return names;
}

bool already_found(const std::vector<Candidate> &candidates, const std::string &name)
{
    return std::ranges::any_of(candidates, [&](const Candidate &c) { return c.name == name; });
}

// libltdl keeps one message per thread-less global; read it right away.
std::string last_ltdl_error()
{
    const char *text = lt_dlerror();
    return text != nullptr ? text : "unknown libltdl error";
}

// The system loader's message without the leading "<path>: ", which the
// rejection line names already.
std::string loader_error_without_path(const std::string &path)
{
    const char *text = ::dlerror();
    if (text == nullptr) return "unknown dlopen error";
    std::string_view reason(text);
    if (reason.starts_with(path + ": ")) reason.remove_prefix(path.size() + 2);
    return std::string(reason);
}

// libltdl binds functions lazily, so a component calling a function that no
// library defines would load fine and kill the process at the first call.
// Resolving everything once with RTLD_NOW turns that into a rejection at
// load time, with the system loader's own text ("undefined symbol: <name>",
// wrong ELF class, not an ELF file) that libltdl would hide behind "file not
// found". The caller closes this handle once libltdl holds the object, which
// then stays fully relocated.
void *preflight_open(const std::string &path, std::string *error_p)
{
    void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) *error_p = loader_error_without_path(path);
    return handle;
}

lt_dlhandle open_local(const std::string &path, std::string *error_p)
{
    lt_dladvise advise = nullptr;
    if (lt_dladvise_init(&advise) != 0) {
        *error_p = last_ltdl_error();
        return nullptr;
    }
    // Local scope: two components may define the same internal symbols, and
    // nothing of theirs may bind to the application's or to OpenPMIx's.
    lt_dladvise_local(&advise);
    lt_dlhandle handle = lt_dlopenadvise(path.c_str(), advise);
    if (handle == nullptr) *error_p = last_ltdl_error();
    lt_dladvise_destroy(&advise);
    return handle;
}

// Opens `path` fully resolved, in local scope; NULL with the reason otherwise.
lt_dlhandle open_resolved(const std::string &path, std::string *error_p)
{
    void *preflight = preflight_open(path, error_p);
    if (preflight == nullptr) return nullptr;
    lt_dlhandle handle = open_local(path, error_p);
    ::dlclose(preflight);
    return handle;
}

// Each directory once, canonical, so reports show real paths (not
// bin/../lib/pmixpp) and a directory listed twice is not searched twice.
void add_directory(std::vector<std::string> *directories, std::string_view entry)
{
    std::string directory = canonical_or_same(std::string(entry));
    if (std::ranges::find(*directories, directory) != directories->end()) return;
    directories->push_back(std::move(directory));
}

// Every entry of a ':'-separated list.
void add_directories(std::vector<std::string> *directories, std::string_view list)
{
    while (!list.empty()) {
        const auto colon = list.find(':');
        const std::string_view entry = list.substr(0, colon);
        if (!entry.empty()) add_directory(directories, entry);
        list = colon == std::string_view::npos ? std::string_view{} : list.substr(colon + 1);
    }
}

// A file named pmixpp_<something>.so in `directory`.
bool holds_component_files(const std::string &directory)
{
    const std::unique_ptr<DIR, CloseDir> dir(::opendir(directory.c_str()));
    if (dir == nullptr) return false;
    while (const dirent *entry = ::readdir(dir.get())) {
        const std::string_view file(entry->d_name);
        if (file.starts_with("pmixpp_") && file.ends_with(".so")) return true;
    }
    return false;
}

bool fallback_enabled()
{
    const auto setting = param_store().setting("mca_base_component_fallback");
    bool enabled = true;
    return !setting || !parse_bool(setting->value, &enabled) || enabled;
}

}  // namespace

namespace {

std::vector<std::string> find_component_directories()
{
    std::vector<std::string> directories;
    if (const auto path = param_store().setting("mca_base_component_path")) {
        add_directories(&directories, path->value);
    }
    add_directory(&directories, default_component_directory());
    const std::string beside = component_directory_beside_load_path();
    if (!beside.empty()) add_directory(&directories, beside);
    if (std::ranges::any_of(directories, holds_component_files) || !fallback_enabled()) return directories;
    // Nothing where this library is: it was reached through a bind mount, a
    // copy or a stray symlink. Try where its server found components (a
    // child of PMIx_server_setup_fork), then where the build put them.
    if (const char *server_path = std::getenv(server_component_path_variable)) {
        add_directories(&directories, server_path);
    }
    for (const std::string &directory : built_in_component_directories()) add_directory(&directories, directory);
    return directories;
}

// What the search depends on: the same settings give the same directories.
std::string search_key()
{
    const auto path = param_store().setting("mca_base_component_path");
    const auto fallback = param_store().setting("mca_base_component_fallback");
    const char *server_path = std::getenv(server_component_path_variable);
    return (path ? path->value : std::string("\x01")) + '\0' + (fallback ? fallback->value : std::string("\x01")) +
           '\0' + (server_path != nullptr ? server_path : "\x01");
}

constinit std::mutex directories_mutex;
std::string *cached_key = nullptr;
std::vector<std::string> *cached_directories = nullptr;

}  // namespace

// Canonicalizing costs a readlink per path component and a directory scan
// each, and every framework's selection asks: once per settings.
std::vector<std::string> component_directories()
{
    const std::string key = search_key();
    std::lock_guard lock(directories_mutex);
    if (cached_directories == nullptr || *cached_key != key) {
        std::vector<std::string> found = find_component_directories();
        if (cached_directories == nullptr) {
            cached_key = new std::string;
            cached_directories = new std::vector<std::string>;
        }
        *cached_key = key;
        *cached_directories = std::move(found);
    }
    return *cached_directories;
}

void forget_component_directories()
{
    std::lock_guard lock(directories_mutex);
    if (cached_directories != nullptr) cached_directories->clear();
    if (cached_key != nullptr) *cached_key = "\x02";  // matches no key
}

std::vector<std::string> directories_holding_components()
{
    std::vector<std::string> holding;
    for (const std::string &directory : component_directories()) {
        if (holds_component_files(directory)) holding.push_back(directory);
    }
    return holding;
}

std::vector<Candidate> discover(const FrameworkInfo &framework, const std::vector<std::string> &directories)
{
    std::vector<Candidate> candidates;
    {
        std::lock_guard lock(linked_in_mutex);
        for (const auto *descriptor : linked_in != nullptr ? *linked_in : std::vector<const pmixpp_component_t *>{}) {
            if (descriptor->framework == nullptr || framework.name != descriptor->framework) continue;
            candidates.push_back(Candidate{
                descriptor->name != nullptr ? descriptor->name : "", static_component_path, descriptor, nullptr, {}});
        }
    }
    const int verbosity = param_store().verbosity(framework.name);
    for (const auto &directory : directories) {
        for (auto &name : component_names_in(directory, framework)) {
            std::string path = directory + "/pmixpp_" + std::string(framework.name) + "_" + name + ".so";
            if (already_found(candidates, name)) {
                trace(verbosity, std::string(framework.name) + ": ignoring " + path + ": a component named " + name +
                                     " was found earlier");
                continue;
            }
            candidates.push_back(Candidate{std::move(name), std::move(path), nullptr, nullptr, {}});
        }
    }
    return candidates;
}

void load(const FrameworkInfo &framework, Candidate *candidate)
{
    if (candidate->path == static_component_path) {
        candidate->rejection = check_descriptor(candidate->descriptor, framework, candidate->name);
        if (!candidate->rejection.empty()) candidate->descriptor = nullptr;
        return;
    }
    if (lt_dlinit() != 0) {
        candidate->rejection = "cannot initialize libltdl: " + last_ltdl_error();
        return;
    }
    std::string error;
    lt_dlhandle handle = open_resolved(candidate->path, &error);
    if (handle == nullptr) {
        candidate->rejection = "cannot load: " + error;
        lt_dlexit();
        return;
    }
    const std::string entry_name = "pmixpp_" + std::string(framework.name) + "_" + candidate->name + "_component";
    const auto entry = reinterpret_cast<pmixpp_component_entry_fn>(lt_dlsym(handle, entry_name.c_str()));
    std::string rejection;
    const pmixpp_component_t *descriptor = nullptr;
    if (entry == nullptr) {
        rejection = "missing entry symbol `" + entry_name + "`";
    } else {
        descriptor = entry();
        rejection = check_descriptor(descriptor, framework, candidate->name);
    }
    if (!rejection.empty()) {
        candidate->rejection = std::move(rejection);
        lt_dlclose(handle);
        lt_dlexit();
        return;
    }
    candidate->descriptor = descriptor;
    candidate->handle = handle;
}

void unload(Candidate *candidate)
{
    candidate->descriptor = candidate->path == static_component_path ? candidate->descriptor : nullptr;
    if (candidate->handle == nullptr) return;
    lt_dlclose(static_cast<lt_dlhandle>(candidate->handle));
    lt_dlexit();
    candidate->handle = nullptr;
}

bool any_linked_in_components()
{
    std::lock_guard lock(linked_in_mutex);
    return linked_in != nullptr && !linked_in->empty();
}

void register_linked_in_component(const pmixpp_component_t *descriptor)
{
    if (descriptor == nullptr) return;
    std::lock_guard lock(linked_in_mutex);
    if (linked_in == nullptr) linked_in = new std::vector<const pmixpp_component_t *>;
    linked_in->push_back(descriptor);
}

void forget_linked_in_components()
{
    std::lock_guard lock(linked_in_mutex);
    if (linked_in != nullptr) linked_in->clear();
}

}  // namespace pmixpp::framework
