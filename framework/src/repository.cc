#include "repository.h"

#include "descriptor_check.h"
#include "diagnostics.h"
#include "param_store.h"

#include <dirent.h>
#include <dlfcn.h>
#include <ltdl.h>
#include <sys/stat.h>

#include <algorithm>
#include <mutex>

#ifndef PMIXPP_LIBDIR_NAME
#define PMIXPP_LIBDIR_NAME "lib"
#endif
#ifndef PMIXPP_COMPONENT_SUBDIR
#define PMIXPP_COMPONENT_SUBDIR "pmixpp"
#endif

namespace pmixpp::framework {
namespace {

constinit std::mutex linked_in_mutex;
std::vector<const pmixpp_component_t *> *linked_in = nullptr; // test hook only

bool is_directory(const std::string &path) {
    struct stat info{};
    return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

std::string parent_directory(const std::string &path) {
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// Component names in file names of this framework, sorted for a stable order.
std::vector<std::string> component_names_in(const std::string &directory, const FrameworkInfo &framework) {
    const std::string prefix = "pmixpp_" + std::string(framework.name) + "_";
    const std::string suffix = ".so";
    std::vector<std::string> names;
    DIR *dir = ::opendir(directory.c_str());
    if (dir == nullptr) return names;
    while (const dirent *entry = ::readdir(dir)) {
        const std::string_view file(entry->d_name);
        if (file.size() <= prefix.size() + suffix.size()) continue;
        if (!file.starts_with(prefix) || !file.ends_with(suffix)) continue;
        names.emplace_back(file.substr(prefix.size(), file.size() - prefix.size() - suffix.size()));
    }
    ::closedir(dir);
    std::ranges::sort(names);
    return names;
}

bool already_found(const std::vector<Candidate> &candidates, const std::string &name) {
    return std::ranges::any_of(candidates, [&](const Candidate &c) { return c.name == name; });
}

// libltdl keeps one message per thread-less global; read it right away.
std::string last_ltdl_error() {
    const char *text = lt_dlerror();
    return text != nullptr ? text : "unknown libltdl error";
}

// libltdl reports most dlopen failures as "file not found", hiding the
// reason (undefined symbol, wrong ELF class, not an ELF file). Asking the
// system loader again for the same file gives the real text; it fails the
// same way, so no constructor of the file runs.
std::string system_loader_error(const std::string &path, const std::string &ltdl_error) {
    void *handle = ::dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (handle != nullptr) {
        ::dlclose(handle);
        return ltdl_error;
    }
    const char *text = ::dlerror();
    if (text == nullptr) return ltdl_error;
    // The rejection line names the path already.
    std::string_view reason(text);
    if (reason.starts_with(path + ": ")) reason.remove_prefix(path.size() + 2);
    return std::string(reason);
}

lt_dlhandle open_local(const std::string &path, std::string *error_p) {
    lt_dladvise advise = nullptr;
    if (lt_dladvise_init(&advise) != 0) {
        *error_p = last_ltdl_error();
        return nullptr;
    }
    // Local scope: two components may define the same internal symbols, and
    // nothing of theirs may bind to the application's or to OpenPMIx's.
    lt_dladvise_local(&advise);
    lt_dlhandle handle = lt_dlopenadvise(path.c_str(), advise);
    if (handle == nullptr) *error_p = system_loader_error(path, last_ltdl_error());
    lt_dladvise_destroy(&advise);
    return handle;
}

} // namespace

std::vector<std::string> component_directories() {
    std::vector<std::string> directories;
    if (const auto path = param_store().setting("mca_base_component_path")) {
        std::string_view rest = path->value;
        while (!rest.empty()) {
            const auto colon = rest.find(':');
            const std::string_view entry = rest.substr(0, colon);
            if (!entry.empty()) directories.emplace_back(entry);
            rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
        }
    }
    directories.push_back(default_component_directory());
    return directories;
}

std::string default_component_directory() {
    Dl_info info{};
    if (::dladdr(reinterpret_cast<const void *>(&default_component_directory), &info) == 0 ||
        info.dli_fname == nullptr) {
        return PMIXPP_COMPONENT_SUBDIR;
    }
    const std::string object_path = info.dli_fname;
    const std::string directory = parent_directory(object_path);
    const std::string file = object_path.substr(object_path.rfind('/') + 1);
    if (file.find(".so") != std::string::npos) return directory + "/" PMIXPP_COMPONENT_SUBDIR;
    // A program with the core linked in (pmixpp_info): its libdir sibling,
    // installed layout first, then the build tree's lib/.
    const std::string installed = directory + "/../" PMIXPP_LIBDIR_NAME "/" PMIXPP_COMPONENT_SUBDIR;
    if (is_directory(installed)) return installed;
    return directory + "/../lib/" PMIXPP_COMPONENT_SUBDIR;
}

std::vector<Candidate> discover(const FrameworkInfo &framework,
                                const std::vector<std::string> &directories) {
    std::vector<Candidate> candidates;
    {
        std::lock_guard lock(linked_in_mutex);
        for (const auto *descriptor : linked_in != nullptr ? *linked_in : std::vector<const pmixpp_component_t *>{}) {
            if (descriptor->framework == nullptr || framework.name != descriptor->framework) continue;
            candidates.push_back(Candidate{descriptor->name != nullptr ? descriptor->name : "",
                                           static_component_path, descriptor, nullptr, {}});
        }
    }
    const int verbosity = param_store().verbosity(framework.name);
    for (const auto &directory : directories) {
        for (auto &name : component_names_in(directory, framework)) {
            std::string path = directory + "/pmixpp_" + std::string(framework.name) + "_" + name + ".so";
            if (already_found(candidates, name)) {
                trace(verbosity, std::string(framework.name) + ": ignoring " + path +
                                     ": a component named " + name + " was found earlier");
                continue;
            }
            candidates.push_back(Candidate{std::move(name), std::move(path), nullptr, nullptr, {}});
        }
    }
    return candidates;
}

void load(const FrameworkInfo &framework, Candidate *candidate) {
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
    lt_dlhandle handle = open_local(candidate->path, &error);
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

void unload(Candidate *candidate) {
    candidate->descriptor = candidate->path == static_component_path ? candidate->descriptor : nullptr;
    if (candidate->handle == nullptr) return;
    lt_dlclose(static_cast<lt_dlhandle>(candidate->handle));
    lt_dlexit();
    candidate->handle = nullptr;
}

void register_linked_in_component(const pmixpp_component_t *descriptor) {
    if (descriptor == nullptr) return;
    std::lock_guard lock(linked_in_mutex);
    if (linked_in == nullptr) linked_in = new std::vector<const pmixpp_component_t *>;
    linked_in->push_back(descriptor);
}

void forget_linked_in_components() {
    std::lock_guard lock(linked_in_mutex);
    if (linked_in != nullptr) linked_in->clear();
}

} // namespace pmixpp::framework
