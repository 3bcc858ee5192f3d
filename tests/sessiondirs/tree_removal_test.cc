// remove_tree: links are removed as links, their targets survive.
#include "server/sessiondirs/tree_removal.h"
#include "sessiondirs/sessiondirs_fixture.h"

#include <criterion/criterion.h>

using pmixpp::sessiondirs::remove_tree;

Test(tree_removal, removes_nested_files_and_dirs)
{
    const std::string scratch = make_scratch();
    const std::string top = scratch + "/top";
    cr_assert_eq(mkdir(top.c_str(), 0700), 0);
    cr_assert_eq(mkdir((top + "/a").c_str(), 0700), 0);
    write_file(top + "/a/file");
    write_file(top + "/b");
    cr_assert(remove_tree(top));
    cr_assert_not(exists(top));
    cr_assert(exists(scratch));
    remove_scratch(scratch);
}

Test(tree_removal, link_to_outside_file_and_dir_is_unlinked_target_survives)
{
    const std::string scratch = make_scratch();
    const std::string outside = scratch + "/outside";
    const std::string top = scratch + "/top";
    cr_assert_eq(mkdir(outside.c_str(), 0700), 0);
    write_file(outside + "/precious");
    cr_assert_eq(mkdir(top.c_str(), 0700), 0);
    cr_assert_eq(symlink((outside + "/precious").c_str(), (top + "/file-link").c_str()), 0);
    cr_assert_eq(symlink(outside.c_str(), (top + "/dir-link").c_str()), 0);
    cr_assert(remove_tree(top));
    cr_assert_not(exists(top));
    cr_assert(exists(outside + "/precious"));
    remove_scratch(scratch);
}

Test(tree_removal, top_that_is_a_link_is_refused)
{
    const std::string scratch = make_scratch();
    const std::string outside = scratch + "/outside";
    cr_assert_eq(mkdir(outside.c_str(), 0700), 0);
    write_file(outside + "/precious");
    cr_assert_eq(symlink(outside.c_str(), (scratch + "/top").c_str()), 0);
    cr_assert_not(remove_tree(scratch + "/top"));
    cr_assert(exists(outside + "/precious"));
    remove_scratch(scratch);
}

Test(tree_removal, missing_path_counts_as_removed)
{
    const std::string scratch = make_scratch();
    cr_assert(remove_tree(scratch + "/none"));
    cr_assert_not(remove_tree(""));
    remove_scratch(scratch);
}
