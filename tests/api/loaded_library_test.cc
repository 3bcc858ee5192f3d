// Debian's OpenPMIx may sit in /lib/x86_64-linux-gnu/libpmix.so.2 with the
// same SONAME. Every other API test is meaningless if the process loaded
// that one, so prove the library mapped here is ours from the build tree.
#include <dlfcn.h>
#include <sstream>

#include <pmix.h>

#include "api/api_test_support.h"

using namespace pmixpp::api_test;

namespace {

bool starts_with(const std::string &text, const std::string &prefix)
{
    return text.compare(0, prefix.size(), prefix) == 0;
}

// Paths of the mapped files whose name begins with "libpmix.so".
std::set<std::string> mapped_libpmix_paths()
{
    std::ifstream maps("/proc/self/maps");
    cr_assert(maps.good(), "cannot read /proc/self/maps");
    std::set<std::string> paths;
    std::string line;
    while (std::getline(maps, line)) {
        auto slash = line.find('/');
        if (slash == std::string::npos) {
            continue;
        }
        std::string path = line.substr(slash);
        std::string file = path.substr(path.rfind('/') + 1);
        if (starts_with(file, "libpmix.so")) {
            paths.insert(path);
        }
    }
    return paths;
}

}  // namespace

Test(api_loaded_library, only_the_build_tree_libpmix_is_mapped)
{
    std::string our_dir = real_path(build_lib_dir()) + "/";
    auto paths = mapped_libpmix_paths();
    cr_assert(!paths.empty(), "no libpmix.so* mapped in this process");
    for (const auto &path : paths) {
        cr_expect(starts_with(real_path(path), our_dir), "mapped %s is not under %s", path.c_str(), our_dir.c_str());
    }
}

Test(api_loaded_library, pmix_symbols_resolve_into_the_build_tree)
{
    Dl_info info{};
    // Reached through a data pointer so the call cannot be inlined away.
    auto *entry = reinterpret_cast<void *>(&PMIx_Init);
    cr_assert(dladdr(entry, &info) != 0 && info.dli_fname != nullptr, "dladdr found no object for PMIx_Init");
    std::string our_lib = real_path(build_lib_dir() + "/libpmix.so.2");
    std::string loaded = real_path(info.dli_fname);
    cr_expect_str_eq(loaded.c_str(), our_lib.c_str());
}
