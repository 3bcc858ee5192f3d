// Where the core finds its installation when it lives in a shared library:
// <prefix>/<libdir>/lib.so -> <prefix>/etc/pmixpp-mca-params.conf and
// <prefix>/<libdir>/pmixpp. The probe library sits in such a tree.
#include <criterion/criterion.h>

#include <dlfcn.h>

#include <climits>
#include <cstdlib>
#include <string>

namespace {

using probe_fn = const char *(*)();

std::string call_probe(const char *symbol)
{
    void *library = dlopen(PMIXPP_LAYOUT_PROBE, RTLD_NOW | RTLD_LOCAL);
    cr_assert_not_null(library, "%s", dlerror());
    const auto probe = reinterpret_cast<probe_fn>(dlsym(library, symbol));
    cr_assert_not_null(probe, "%s", dlerror());
    const std::string answer = probe();
    dlclose(library);
    return answer;
}

std::string real_path(const std::string &path)
{
    char resolved[PATH_MAX];
    cr_assert_not_null(realpath(path.c_str(), resolved), "%s does not exist", path.c_str());
    return resolved;
}

}  // namespace

Test(layout, library_finds_its_prefix)
{
    const std::string prefix = real_path(PMIXPP_LAYOUT_PREFIX);
    const std::string system_file = call_probe("layout_probe_system_param_file");
    const std::string expected_file = prefix + "/etc/pmixpp-mca-params.conf";
    cr_assert_str_eq(system_file.c_str(), expected_file.c_str());
    const std::string components = call_probe("layout_probe_component_directory");
    const std::string expected_dir = prefix + "/" PMIXPP_LAYOUT_LIBDIR "/pmixpp";
    cr_assert_str_eq(components.c_str(), expected_dir.c_str());
}
