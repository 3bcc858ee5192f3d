#include "install_layout.h"

#include "param_sources.h"

#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>

#include <climits>
#include <cstdlib>

#ifndef PMIXPP_LIBDIR_NAME
#define PMIXPP_LIBDIR_NAME "lib"
#endif
#ifndef PMIXPP_SYSCONFDIR_NAME
#define PMIXPP_SYSCONFDIR_NAME "etc"
#endif
#ifndef PMIXPP_DEFAULT_SYSCONFDIR
#define PMIXPP_DEFAULT_SYSCONFDIR "/etc"
#endif
#ifndef PMIXPP_COMPONENT_SUBDIR
#define PMIXPP_COMPONENT_SUBDIR "pmixpp"
#endif
#ifndef PMIXPP_BUILT_INSTALL_COMPONENT_DIR
#define PMIXPP_BUILT_INSTALL_COMPONENT_DIR ""
#endif
#ifndef PMIXPP_BUILT_BUILD_COMPONENT_DIR
#define PMIXPP_BUILT_BUILD_COMPONENT_DIR ""
#endif

namespace pmixpp::framework {
namespace {

std::string parent_directory(const std::string &path)
{
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

bool is_directory(const std::string &path)
{
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// <prefix>/<libdir> -> <prefix>; libdir may have several levels
// (lib/x86_64-linux-gnu), so strip the configured name when it matches.
std::string prefix_of_library_directory(const std::string &directory)
{
    const std::string libdir = "/" PMIXPP_LIBDIR_NAME;
    if (directory.size() > libdir.size() && directory.ends_with(libdir)) {
        return directory.substr(0, directory.size() - libdir.size());
    }
    return parent_directory(directory);
}

}  // namespace

std::string canonical_or_same(const std::string &path)
{
    char resolved[PATH_MAX];
    if (path.empty() || ::realpath(path.c_str(), resolved) == nullptr) return path;
    return resolved;
}

namespace {

CoreObject find_core_object()
{
    Dl_info info{};
    link_map *map = nullptr;
    if (::dladdr1(reinterpret_cast<const void *>(&core_object), &info, reinterpret_cast<void **>(&map),
                  RTLD_DL_LINKMAP) == 0) {
        return {};
    }
    // The main program's link map has an empty name and dladdr reports its
    // argv[0], which may be a bare name found through PATH: ask the kernel.
    if (map == nullptr || map->l_name == nullptr || map->l_name[0] == '\0') {
        return CoreObject{canonical_or_same("/proc/self/exe"), "", true};
    }
    return CoreObject{canonical_or_same(map->l_name), map->l_name, false};
}

}  // namespace

// The file the core lives in does not move while it is mapped, and every
// framework's selection and the parameter files ask for it: one realpath
// (a readlink per path component) per process, not one per question.
CoreObject core_object()
{
    static const CoreObject object = find_core_object();
    return object;
}

std::string installation_prefix()
{
    const CoreObject object = core_object();
    if (object.path.empty()) return {};
    const std::string directory = parent_directory(object.path);
    return object.is_program ? parent_directory(directory) : prefix_of_library_directory(directory);
}

std::string system_param_file()
{
    const std::string file = "/" + std::string(param_file_name);
    const std::string sysconfdir = PMIXPP_SYSCONFDIR_NAME;
    if (sysconfdir.starts_with('/')) return sysconfdir + file;  // configured as an absolute path
    const std::string prefix = installation_prefix();
    if (prefix.empty()) return PMIXPP_DEFAULT_SYSCONFDIR + file;
    if (prefix == "/usr") return "/" + sysconfdir + file;
    return (prefix == "/" ? "" : prefix) + "/" + sysconfdir + file;
}

std::string default_component_directory()
{
    const CoreObject object = core_object();
    if (object.path.empty()) return PMIXPP_COMPONENT_SUBDIR;
    const std::string directory = parent_directory(object.path);
    if (!object.is_program) return directory + "/" PMIXPP_COMPONENT_SUBDIR;
    const std::string prefix = parent_directory(directory);
    const std::string installed = prefix + "/" PMIXPP_LIBDIR_NAME "/" PMIXPP_COMPONENT_SUBDIR;
    if (is_directory(installed)) return installed;
    return prefix + "/lib/" PMIXPP_COMPONENT_SUBDIR;
}

std::string component_directory_beside_load_path()
{
    const CoreObject object = core_object();
    if (object.is_program || object.loaded_as.empty() || !object.loaded_as.starts_with('/')) return {};
    const std::string directory = parent_directory(object.loaded_as) + "/" PMIXPP_COMPONENT_SUBDIR;
    return canonical_or_same(directory) == default_component_directory() ? std::string() : directory;
}

std::vector<std::string> built_in_component_directories()
{
    std::vector<std::string> directories;
    for (const char *directory : {PMIXPP_BUILT_INSTALL_COMPONENT_DIR, PMIXPP_BUILT_BUILD_COMPONENT_DIR}) {
        if (directory[0] == '/') directories.emplace_back(directory);
    }
    return directories;
}

}  // namespace pmixpp::framework
