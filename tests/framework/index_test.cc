// The component index (framework/src/component_index.h) with real fixture
// shared objects copied into a private directory: with a current entry a
// component is ranked without being loaded and only what is asked for gets
// mapped; a component without an entry, or with a stale one, is loaded to
// learn its priority; a broken .so is still named in one line; a damaged
// index counts as none. "Loaded" is read from /proc/self/maps.
#include "scratch_directory.h"
#include "stderr_capture.h"

#include "framework/src/component_index.h"
#include "framework/src/selected_modules.h"

#include <criterion/criterion.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace pmixpp;

namespace {

const std::string fixture_root = PMIXPP_FIXTURE_ROOT;
std::string fresh_directory()
{
    return scratch::fresh("run");
}

std::string component_path(const std::string &directory, const std::string &name)
{
    return directory + "/pmixpp_pnet_" + name + ".so";
}

// The fixture <dir>/pmixpp_pnet_<name>.so copied into `directory`.
void copy_fixture(const std::string &fixture_dir, const std::string &name, const std::string &directory)
{
    std::ifstream in(component_path(fixture_root + "/" + fixture_dir, name), std::ios::binary);
    cr_assert(in.good(), "fixture %s/%s missing", fixture_dir.c_str(), name.c_str());
    std::ofstream out(component_path(directory, name), std::ios::binary | std::ios::trunc);
    out << in.rdbuf();
    cr_assert(out.good());
}

bool mapped(const std::string &path)
{
    std::ifstream maps("/proc/self/maps");
    std::stringstream all;
    all << maps.rdbuf();
    return all.str().find(path) != std::string::npos;
}

void write_index(const std::string &directory)
{
    std::vector<std::string> lines;
    cr_assert_eq(framework::write_component_index(directory, &lines), PMIX_SUCCESS);
    cr_assert(lines.empty(), "unexpected: %s", lines.empty() ? "" : lines.front().c_str());
}

std::vector<std::string> ranked_in(const std::string &directory)
{
    framework::finalize();
    setenv("PMIX_MCA_mca_base_component_path", directory.c_str(), 1);
    std::vector<std::string> names;
    cr_assert_eq(framework::ranked_components("pnet", &names), PMIX_SUCCESS);
    return names;
}

std::string joined(const std::vector<std::string> &names)
{
    std::string text;
    for (const auto &name : names) text += (text.empty() ? "" : ",") + name;
    return text;
}

// (Criterion reads the strings after the full expression: no temporaries.)
void expect_ranked(const std::string &directory, const char *expected)
{
    const std::string ranked = joined(ranked_in(directory));
    cr_expect_str_eq(ranked.c_str(), expected);
}

void finish()
{
    framework::finalize();
    unsetenv("PMIX_MCA_mca_base_component_path");
    scratch::remove_made();
}

}  // namespace

TestSuite(component_index, .fini = finish);

Test(component_index, ranks_without_loading_and_loads_only_what_is_named)
{
    const std::string dir = fresh_directory();
    copy_fixture("good", "alpha", dir);
    copy_fixture("good", "beta", dir);
    write_index(dir);
    expect_ranked(dir, "beta,alpha");
    cr_expect(!mapped(component_path(dir, "alpha")), "alpha was loaded to be ranked");
    cr_expect(!mapped(component_path(dir, "beta")), "beta was loaded to be ranked");

    std::vector<framework::SelectedModule> named;
    cr_assert_eq(framework::select_named("pnet", {"alpha"}, &named), PMIX_SUCCESS);
    cr_assert_eq(named.size(), 1u);
    cr_expect_str_eq(named[0].component.c_str(), "alpha");
    cr_expect(mapped(component_path(dir, "alpha")));
    cr_expect(!mapped(component_path(dir, "beta")), "beta was loaded though only alpha was asked for");

    std::vector<framework::SelectedModule> all;
    cr_assert_eq(framework::select("pnet", &all), PMIX_SUCCESS);
    cr_expect_eq(all.size(), 2u, "select() loads the rest");
}

Test(component_index, a_component_without_an_entry_is_loaded_to_learn_its_priority)
{
    const std::string dir = fresh_directory();
    copy_fixture("good", "alpha", dir);
    write_index(dir);
    copy_fixture("good", "beta", dir);  // dropped in after the index was written
    expect_ranked(dir, "beta,alpha");
    cr_expect(mapped(component_path(dir, "beta")));
    cr_expect(!mapped(component_path(dir, "alpha")), "alpha has a current entry");
}

Test(component_index, a_stale_entry_is_ignored)
{
    const std::string dir = fresh_directory();
    copy_fixture("good", "alpha", dir);
    copy_fixture("good", "beta", dir);
    write_index(dir);
    // The file changed since: a new modification time.
    const struct timespec later[2] = {{0, UTIME_OMIT}, {::time(nullptr) + 60, 0}};
    cr_assert_eq(::utimensat(AT_FDCWD, component_path(dir, "alpha").c_str(), later, 0), 0);
    cr_expect(!framework::fresh_index_entry(component_path(dir, "alpha")).has_value());
    cr_expect(framework::fresh_index_entry(component_path(dir, "beta")).has_value());
    expect_ranked(dir, "beta,alpha");
    cr_expect(mapped(component_path(dir, "alpha")), "a stale entry was trusted");
    cr_expect(!mapped(component_path(dir, "beta")));
}

Test(component_index, a_broken_component_is_still_named_in_one_line)
{
    const std::string dir = fresh_directory();
    copy_fixture("good", "alpha", dir);
    copy_fixture("good", "beta", dir);
    copy_fixture("garbage", "garbage", dir);
    std::vector<std::string> left_out;
    cr_assert_eq(framework::write_component_index(dir, &left_out), PMIX_SUCCESS);
    cr_assert_eq(left_out.size(), 1u, "the writer names what it leaves out");
    cr_expect(left_out[0].find(component_path(dir, "garbage")) != std::string::npos, "got: %s", left_out[0].c_str());
    tests::StderrCapture capture;
    const std::vector<std::string> names = ranked_in(dir);
    const std::vector<std::string> lines = capture.lines();
    const std::string order = joined(names);
    cr_expect_str_eq(order.c_str(), "beta,alpha");
    cr_assert_eq(lines.size(), 1u, "expected one line, got %zu", lines.size());
    cr_expect(lines[0].find(component_path(dir, "garbage")) != std::string::npos, "got: %s", lines[0].c_str());
}

Test(component_index, a_damaged_index_counts_as_none)
{
    const std::string dir = fresh_directory();
    copy_fixture("good", "alpha", dir);
    copy_fixture("good", "beta", dir);
    std::ofstream(dir + "/" + framework::component_index_file) << "pmixpp-component-index 1\npnet alpha ten\n";
    framework::forget_component_indexes();
    cr_expect(!framework::fresh_index_entry(component_path(dir, "alpha")).has_value());
    expect_ranked(dir, "beta,alpha");
    cr_expect(mapped(component_path(dir, "alpha")));
}

Test(component_index, the_writer_says_when_there_is_nothing_to_index)
{
    const std::string dir = fresh_directory();
    std::vector<std::string> lines;
    cr_expect_eq(framework::write_component_index(dir, &lines), PMIX_ERR_NOT_FOUND);
    struct stat st {};
    cr_expect_neq(::stat((dir + "/" + framework::component_index_file).c_str(), &st), 0, "an index was written");
}
