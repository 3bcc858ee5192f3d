// The guard rails of registered cleanup (server/cleanup/guard_rails.h):
// targets no job can mean, a link above the target, and a bind
// mount inside a tree. Only checks run on the shared directories of the
// machine; everything that is cleaned is a tree of this test's own.
#include "cleanup/temp_tree.h"
#include "server/cleanup/guard_rails.h"
#include "server/cleanup/walker.h"

#include <criterion/criterion.h>

#include <pwd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

using namespace pmixpp::cleanup;
using namespace pmixpp::cleanup_test;

namespace {

Owner me()
{
    return Owner{getuid(), getgid()};
}

DirectoryEntry recursive(const std::string &path)
{
    DirectoryEntry entry;
    entry.path = path;
    entry.owner = me();
    entry.recursive = true;
    return entry;
}

}  // namespace

Test(cleanup_guard_rails, shared_directories_by_name)
{
    for (const char *path : {"/tmp", "/var/tmp", "/dev/shm"}) {
        cr_expect(forbidden_target(path).find("every user shares") != std::string::npos, "%s", path);
    }
    cr_expect_eq(forbidden_target("/tmp/job-of-mine-that-does-not-exist"), "", "a directory inside is fine");
}

Test(cleanup_guard_rails, a_world_writable_sticky_directory_is_refused_and_skipped)
{
    TempTree tree;
    tree.file("shared/someone-elses");
    cr_assert_eq(chmod(tree.path("shared").c_str(), 01777), 0);
    const std::string rule = forbidden_target(tree.path("shared"));
    cr_expect(rule.find("every user may write in (mode 1777)") != std::string::npos, "%s", rule.c_str());
    // Registered before it became so: the run skips it.
    SkipReport report(false);
    clean_directory(recursive(tree.path("shared")), {}, report);
    cr_expect(exists(tree.path("shared/someone-elses")));
    cr_expect(report.reason_for(tree.path("shared")).find("every user may write in") != std::string::npos);
}

Test(cleanup_guard_rails, a_file_system_root_is_refused)
{
    cr_expect(forbidden_target("/proc").find("root of a file system") != std::string::npos);
    if (geteuid() != 0) cr_skip_test("needs root to mount a tmpfs");
    TempTree tree;
    tree.dir("mnt");
    // mode=0700: a fresh tmpfs is 1777, which the sticky rule refuses first.
    if (mount("tmpfs", tree.path("mnt").c_str(), "tmpfs", 0, "size=1m,mode=0700") != 0) {
        cr_skip_test("cannot mount a tmpfs here (%s)", std::strerror(errno));
    }
    const std::string rule = forbidden_target(tree.path("mnt"));
    umount2(tree.path("mnt").c_str(), MNT_DETACH);
    cr_expect(rule.find("root of a file system") != std::string::npos, "%s", rule.c_str());
}

Test(cleanup_guard_rails, a_home_directory_itself_is_refused)
{
    const struct passwd *root = getpwuid(0);
    cr_assert(root != nullptr && root->pw_dir != nullptr);
    const std::string rule = forbidden_target(root->pw_dir);
    cr_expect(rule.find("home directory of user " + std::string(root->pw_name)) != std::string::npos, "%s: %s",
              root->pw_dir, rule.c_str());
}

// A link above the target, planted where the requester (or anyone) could
// write: the path is walked without following it.
Test(cleanup_guard_rails, a_link_above_the_target_is_not_followed)
{
    TempTree tree;
    tree.file("real/job/data");
    tree.link("alias", tree.path("real"));
    SkipReport report(false);
    clean_directory(recursive(tree.path("alias/job")), {}, report);
    cr_expect(exists(tree.path("real/job/data")), "nothing reached through the link goes");
    cr_expect(report.reason_for(tree.path("alias/job")).find("symbolic link") != std::string::npos, "%s",
              report.reason_for(tree.path("alias/job")).c_str());
    FileEntry file{tree.path("alias/job/data"), me()};
    remove_listed_file(file, {}, report);
    cr_expect(exists(tree.path("real/job/data")), "a listed file behind a link stays too");
}

// A bind mount of the same file system has the same st_dev: its mount id
// tells it apart, and the walk does not enter it.
Test(cleanup_guard_rails, a_bind_mount_inside_the_tree_is_not_entered)
{
    if (geteuid() != 0) cr_skip_test("needs root to bind-mount");
    TempTree tree;
    tree.file("elsewhere/precious");
    tree.file("job/a");
    tree.dir("job/bound");
    if (mount(tree.path("elsewhere").c_str(), tree.path("job/bound").c_str(), nullptr, MS_BIND, nullptr) != 0) {
        cr_skip_test("cannot bind-mount here (%s)", std::strerror(errno));
    }
    SkipReport report(false);
    clean_directory(recursive(tree.path("job")), {}, report);
    const bool survived = exists(tree.path("elsewhere/precious"));
    umount2(tree.path("job/bound").c_str(), MNT_DETACH);
    cr_expect(survived, "a file reached through the bind mount survives");
    cr_expect_not(exists(tree.path("job/a")));
    cr_expect(report.reason_for(tree.path("job/bound")).find("another file system") != std::string::npos, "%s",
              report.reason_for(tree.path("job/bound")).c_str());
}
