// The removal itself, on real temporary trees (server/cleanup/walker.h):
// what goes, what stays, and that no link is ever followed out of a tree.
#include "cleanup/temp_tree.h"
#include "server/cleanup/walker.h"

#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace pmixpp::cleanup;
using namespace pmixpp::cleanup_test;

namespace {

Owner me()
{
    return Owner{getuid(), getgid()};
}

DirectoryEntry dir_entry(const std::string &path, bool recursive, Owner owner = me())
{
    DirectoryEntry entry;
    entry.path = path;
    entry.owner = owner;
    entry.recursive = recursive;
    return entry;
}

void clean(const DirectoryEntry &entry, const std::set<std::string> &ignores = {})
{
    SkipReport report(debug_enabled());
    clean_directory(entry, ignores, report);
}

}  // namespace

Test(cleanup_walker, a_recursive_request_removes_the_whole_tree)
{
    TempTree tree;
    tree.file("job/a");
    tree.file("job/sub/b");
    tree.file("job/sub/deeper/c");
    tree.dir("job/empty");
    clean(dir_entry(tree.path("job"), true));
    cr_expect_not(exists(tree.path("job")));
    cr_expect(exists(tree.root()), "the parent of the registered directory stays");
}

Test(cleanup_walker, links_in_the_tree_are_removed_but_never_followed)
{
    TempTree tree;
    tree.file("outside/precious");
    tree.file("outside-dir/inner");
    tree.file("job/data");
    tree.link("job/to-file", tree.path("outside/precious"));
    tree.link("job/sub/to-dir", tree.path("outside-dir"));
    tree.link("job/dangling", tree.path("nowhere"));
    clean(dir_entry(tree.path("job"), true));
    cr_expect_not(exists(tree.path("job")), "the links are entries of the tree and go with it");
    cr_expect(exists(tree.path("outside/precious")), "a linked file outside the tree survives");
    cr_expect(exists(tree.path("outside-dir")), "a linked directory outside the tree survives");
    cr_expect(exists(tree.path("outside-dir/inner")), "what is inside it too");
}

Test(cleanup_walker, a_top_directory_that_is_a_link_is_not_followed)
{
    TempTree tree;
    tree.file("real/keep");
    tree.link("alias", tree.path("real"));
    SkipReport report(false);
    clean_directory(dir_entry(tree.path("alias"), true), {}, report);
    cr_expect(exists(tree.path("real/keep")));
    cr_expect(exists(tree.path("alias")));
    cr_expect(report.reason_for(tree.path("alias")).find("symbolic link") != std::string::npos, "reason: %s",
              report.reason_for(tree.path("alias")).c_str());
}

Test(cleanup_walker, ignored_files_deep_in_the_tree_keep_their_parents)
{
    TempTree tree;
    tree.file("job/a");
    tree.file("job/sub/deeper/contact.info");
    tree.file("job/sub/deeper/other");
    tree.file("job/sub/gone");
    tree.file("job/kept-dir/x");
    SkipReport report(false);
    clean_directory(dir_entry(tree.path("job"), true),
                    {tree.path("job/sub/deeper/contact.info"), tree.path("job/kept-dir")}, report);
    cr_expect(exists(tree.path("job/sub/deeper/contact.info")));
    cr_expect(exists(tree.path("job/kept-dir/x")), "an ignored directory keeps its content");
    cr_expect_not(exists(tree.path("job/sub/deeper/other")));
    cr_expect_not(exists(tree.path("job/sub/gone")));
    cr_expect_not(exists(tree.path("job/a")));
    cr_expect(report.reason_for(tree.path("job/sub/deeper/contact.info")).find("ignored") != std::string::npos);
    cr_expect(report.reason_for(tree.path("job/sub")).find("not empty") != std::string::npos);
}

Test(cleanup_walker, leave_topdir_empties_but_keeps_the_directory)
{
    TempTree tree;
    tree.file("job/a");
    tree.file("job/sub/b");
    DirectoryEntry entry = dir_entry(tree.path("job"), true);
    entry.leave_top = true;
    clean(entry);
    cr_expect(exists(tree.path("job")));
    cr_expect_not(exists(tree.path("job/a")));
    cr_expect_not(exists(tree.path("job/sub")));
}

Test(cleanup_walker, empty_only_removes_empty_directories_and_no_file)
{
    TempTree tree;
    tree.file("job/a");
    tree.dir("job/e1/e2");
    tree.file("job/full/b");
    DirectoryEntry entry = dir_entry(tree.path("job"), true);
    entry.empty_only = true;
    clean(entry);
    cr_expect(exists(tree.path("job/a")));
    cr_expect(exists(tree.path("job/full/b")));
    cr_expect_not(exists(tree.path("job/e1")), "empty directories go, deepest first");
    cr_expect(exists(tree.path("job")), "not empty");

    tree.dir("empty-job/x/y");
    DirectoryEntry empty = dir_entry(tree.path("empty-job"), true);
    empty.empty_only = true;
    clean(empty);
    cr_expect_not(exists(tree.path("empty-job")));
}

Test(cleanup_walker, without_recursive_only_the_top_files_go)
{
    TempTree tree;
    tree.file("job/a");
    tree.file("job/sub/b");
    clean(dir_entry(tree.path("job"), false));
    cr_expect_not(exists(tree.path("job/a")));
    cr_expect(exists(tree.path("job/sub/b")));
    cr_expect(exists(tree.path("job")), "kept: a subdirectory remains");

    tree.file("flat/a");
    tree.file("flat/b");
    clean(dir_entry(tree.path("flat"), false));
    cr_expect_not(exists(tree.path("flat")), "a top directory that became empty goes");
}

Test(cleanup_walker, nothing_of_another_uid_or_gid_is_removed)
{
    TempTree tree;
    tree.file("job/a");
    tree.file("job/sub/b");
    clean(dir_entry(tree.path("job"), true, Owner{getuid() + 1, getgid()}));
    cr_expect(exists(tree.path("job/a")), "another uid");
    clean(dir_entry(tree.path("job"), true, Owner{getuid(), getgid() + 1}));
    cr_expect(exists(tree.path("job/sub/b")), "same uid, another gid");
}

Test(cleanup_walker, files_of_another_owner_survive_as_root)
{
    if (geteuid() != 0) cr_skip_test("needs root to chown a file to 65534:65534");
    TempTree tree;
    tree.file("job/mine");
    tree.file("job/theirs");
    tree.file("job/their-dir/inside");
    cr_assert_eq(chown(tree.path("job/theirs").c_str(), 65534, 65534), 0);
    cr_assert_eq(chown(tree.path("job/their-dir").c_str(), 65534, 65534), 0);
    SkipReport report(false);
    clean_directory(dir_entry(tree.path("job"), true), {}, report);
    cr_expect_not(exists(tree.path("job/mine")));
    cr_expect(exists(tree.path("job/theirs")));
    cr_expect(exists(tree.path("job/their-dir/inside")), "their directory is not entered");
    cr_expect(report.reason_for(tree.path("job/theirs")).find("owned by 65534:65534") != std::string::npos);
}

Test(cleanup_walker, listed_files_go_links_are_unlinked_and_directories_are_refused)
{
    TempTree tree;
    tree.file("f");
    tree.file("target");
    tree.link("alias", tree.path("target"));
    tree.dir("d");
    SkipReport report(false);
    for (const char *name : {"f", "alias", "d", "absent"}) {
        remove_listed_file(FileEntry{tree.path(name), me()}, {}, report);
    }
    cr_expect_not(exists(tree.path("f")));
    cr_expect_not(exists(tree.path("alias")));
    cr_expect(exists(tree.path("target")), "a listed link's target survives");
    cr_expect(exists(tree.path("d")));
    cr_expect(report.reason_for(tree.path("d")).find("directory") != std::string::npos);
}

Test(cleanup_walker, files_come_first_then_the_trees)
{
    TempTree tree;
    tree.file("job/a");
    tree.file("solo");
    CleanupSet set;
    Registration reg;
    reg.files = {tree.path("solo")};
    reg.directories = {tree.path("job")};
    reg.recursive = true;
    set.merge(reg, me());
    SkipReport report(false);
    execute(set, report);
    cr_expect_not(exists(tree.path("solo")));
    cr_expect_not(exists(tree.path("job")));
    cr_expect(report.items().empty());
}

Test(cleanup_walker, another_file_system_inside_the_tree_is_not_entered)
{
    if (geteuid() != 0) cr_skip_test("needs root to mount a tmpfs");
    TempTree tree;
    tree.file("job/a");
    tree.dir("job/mnt");
    if (mount("tmpfs", tree.path("job/mnt").c_str(), "tmpfs", 0, "size=1m") != 0) {
        cr_skip_test("cannot mount a tmpfs here (%s)", std::strerror(errno));
    }
    tree.file("job/mnt/on-tmpfs");
    SkipReport report(false);
    clean_directory(dir_entry(tree.path("job"), true), {}, report);
    const bool survived = exists(tree.path("job/mnt/on-tmpfs"));
    umount2(tree.path("job/mnt").c_str(), MNT_DETACH);
    cr_expect(survived, "a file on the other file system survives");
    cr_expect_not(exists(tree.path("job/a")));
    cr_expect(report.reason_for(tree.path("job/mnt")).find("another file system") != std::string::npos);
}

Test(cleanup_walker, debug_level_ten_turns_the_report_on)
{
    setenv("PMIX_DEBUG", "9", 1);
    cr_expect_not(debug_enabled());
    setenv("PMIX_DEBUG", "10", 1);
    cr_expect(debug_enabled());
}

Test(cleanup_walker, a_verbose_report_prints_one_line_per_skipped_item, .init = cr_redirect_stderr)
{
    SkipReport report(true);
    report.skipped("/some/path", "ignored (PMIX_CLEANUP_IGNORE)");
    std::fflush(stderr);
    cr_expect_stderr_eq_str("pmixpp: cleanup: skipped /some/path: ignored (PMIX_CLEANUP_IGNORE)\n");
}
