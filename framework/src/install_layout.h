// Where this installation lives, found at run time from the file that holds
// the core (libpmix.so.2, or a program such as pmixpp_info that links the core
// directly). Nothing here is fixed at configure time, so a tree installed with
// `cmake --install --prefix <anywhere>` (or moved afterwards) finds its own
// components and its own system param file.
#ifndef PMIXPP_FRAMEWORK_INSTALL_LAYOUT_H
#define PMIXPP_FRAMEWORK_INSTALL_LAYOUT_H

#include <string>
#include <vector>

namespace pmixpp::framework {

struct CoreObject {
    std::string path;         // canonical path of the file; "" when unknown
    std::string loaded_as;    // the path the loader was given (a symlink, say); "" for a program
    bool is_program = false;  // the main executable rather than a shared library
};

// The file the core's code was loaded from.
CoreObject core_object();

// <prefix> of <prefix>/<libdir>/libpmix.so.2 or <prefix>/<bindir>/pmixpp_info;
// "" when the core's file cannot be found.
std::string installation_prefix();

// <prefix>/etc/pmixpp-mca-params.conf (/etc/... for the /usr prefix, as
// GNU layouts have it); the configured location when the prefix is unknown.
std::string system_param_file();

// <libdir of the library>/pmixpp; for a program, <prefix>/<libdir>/pmixpp
// (installed layout) or <prefix>/lib/pmixpp (build tree).
std::string default_component_directory();

// The same beside the path the library was loaded by, when it differs
// (<dir of a symlink>/pmixpp); "" otherwise.
std::string component_directory_beside_load_path();

// Last resorts, fixed when this library was built: the installed component
// directory (<CMAKE_INSTALL_FULL_LIBDIR>/pmixpp) and the build tree's. A
// library reached through a bind mount or copied elsewhere finds nothing
// beside itself; these still lead to its components.
std::vector<std::string> built_in_component_directories();

// realpath() of `path`, or `path` unchanged when it does not exist.
std::string canonical_or_same(const std::string &path);

}  // namespace pmixpp::framework

#endif
