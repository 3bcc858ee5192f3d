// libpmix.so.2 must export exactly the PMIx_* functions OpenPMIx 4.2.2
// exports (tests/api/expected-exports.txt) plus pmixpp's documented
// additions from later PMIx versions (tests/api/pmixpp-additions.txt): a
// missing one breaks consumers at load time, an extra pmix_* or C++ name
// could bind to Open MPI's own symbols. Also checks the SONAME and the
// development symlink.
#include <cstdlib>
#include <sstream>
#include <unistd.h>

#include "api/api_test_support.h"

using namespace pmixpp::api_test;

namespace {

// Parses `nm -D --defined-only` lines ("<value> <type> <name>[@[@]version]")
// into names. The linker's version-node markers (absolute 'A' entries of
// value 0, named after the version node) are not code or data: skipped.
std::set<std::string> defined_dynamic_symbols(const std::string &library)
{
    std::istringstream lines(command_output("nm -D --defined-only '" + library + "'"));
    std::set<std::string> names;
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream fields(line);
        std::string value, type, name;
        if (!(fields >> value >> type >> name)) {
            continue;
        }
        bool version_node = type == "A" && value.find_first_not_of('0') == std::string::npos;
        if (version_node) {
            continue;
        }
        names.insert(name.substr(0, name.find('@')));
    }
    return names;
}

}  // namespace

Test(api_exports, defined_dynamic_symbols_are_exactly_the_openpmix_4_2_2_set)
{
    auto expected = lines_of(source_path("tests/api/expected-exports.txt"));
    cr_assert_eq(expected.size(), 141u, "expected-exports.txt should list 141 names");
    for (const auto &addition : lines_of(source_path("tests/api/pmixpp-additions.txt"))) {
        cr_assert(addition.rfind("PMIx_", 0) == 0, "addition %s is not a PMIx_ name", addition.c_str());
        expected.insert(addition);
    }
    auto actual = defined_dynamic_symbols(build_lib_dir() + "/libpmix.so.2");

    auto missing = difference(expected, actual);
    auto extra = difference(actual, expected);
    cr_expect(missing.empty(), "%zu PMIx functions not exported:%s", missing.size(), joined(missing).c_str());
    cr_expect(extra.empty(), "%zu unexpected exports (pmix_*, C++ or other):%s", extra.size(), joined(extra).c_str());
}

Test(api_exports, soname_is_libpmix_so_2)
{
    auto dynamic = command_output("readelf -d '" + build_lib_dir() + "/libpmix.so.2'");
    cr_expect(dynamic.find("Library soname: [libpmix.so.2]") != std::string::npos,
              "SONAME of libpmix.so.2 is not libpmix.so.2:\n%s", dynamic.c_str());
}

Test(api_exports, development_symlink_points_to_libpmix_so_2)
{
    std::string lib_dir = build_lib_dir();
    char target[PATH_MAX] = {0};
    ssize_t n = readlink((lib_dir + "/libpmix.so").c_str(), target, sizeof target - 1);
    cr_assert(n > 0, "%s/libpmix.so is not a symlink", lib_dir.c_str());
    cr_expect_str_eq(target, "libpmix.so.2");
    std::string dev_link = real_path(lib_dir + "/libpmix.so");
    std::string runtime_name = real_path(lib_dir + "/libpmix.so.2");
    cr_expect_str_eq(dev_link.c_str(), runtime_name.c_str());
}
