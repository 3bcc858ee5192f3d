// SessionDirs: what is created, with which mode, and what is removed.
#include "server/sessiondirs/session_dirs.h"
#include "sessiondirs/sessiondirs_fixture.h"

#include <criterion/criterion.h>

#include <string>

using pmixpp::sessiondirs::SessionDirs;

namespace {

std::string session_name()
{
    return "/pmix-session." + std::to_string(geteuid()) + "." + std::to_string(getpid());
}

}  // namespace

Test(session_dirs, creates_every_level_0700_and_removes_them)
{
    const std::string scratch = make_scratch();
    umask(022);
    SessionDirs dirs;
    dirs.configure(scratch, "", false);
    std::string nsdir;
    cr_assert_eq(dirs.nspace_dir("job/1", "", "", false, &nsdir), PMIX_SUCCESS);
    cr_assert_eq(nsdir, scratch + session_name() + "/job_1");
    std::string procdir;
    cr_assert_eq(dirs.proc_dir("job/1", 3, &procdir), PMIX_SUCCESS);
    cr_assert_eq(procdir, nsdir + "/3");
    cr_assert_not(exists(procdir), "a proc dir in a namespace directory of ours waits to be asked for");
    cr_assert_eq(dirs.make_proc_dir("job/1", 3), PMIX_SUCCESS);
    cr_assert_eq(mode_of(scratch + session_name()), 0700u);
    cr_assert_eq(mode_of(nsdir), 0700u);
    cr_assert_eq(mode_of(procdir), 0700u);
    write_file(procdir + "/scratch-file");
    dirs.release_proc("job/1", 3);
    cr_assert_not(exists(procdir));
    cr_assert(exists(nsdir));
    dirs.release_nspace("job/1");
    cr_assert_not(exists(nsdir));
    cr_assert(exists(scratch + session_name()));
    dirs.release_all();
    cr_assert_not(exists(scratch + session_name()));
    cr_assert(exists(scratch));
    remove_scratch(scratch);
}

// A deferred proc dir made by its process (our client library does it when
// asked for PMIX_PROCDIR) goes with its registration, contents and all; one
// never made costs nothing and leaves nothing.
Test(session_dirs, a_proc_dir_its_process_made_is_removed_with_it)
{
    const std::string scratch = make_scratch();
    SessionDirs dirs;
    dirs.configure(scratch, "", false);
    std::string nsdir;
    std::string made;
    std::string never;
    cr_assert_eq(dirs.nspace_dir("job", "", "", false, &nsdir), PMIX_SUCCESS);
    cr_assert_eq(dirs.proc_dir("job", 0, &made), PMIX_SUCCESS);
    cr_assert_eq(dirs.proc_dir("job", 1, &never), PMIX_SUCCESS);
    cr_assert_eq(mkdir(made.c_str(), 0700), 0);
    write_file(made + "/scratch-file");
    dirs.release_proc("job", 0);
    cr_assert_not(exists(made));
    dirs.release_proc("job", 1);
    cr_assert_not(exists(never));
    cr_assert(exists(nsdir));
    dirs.release_all();
    cr_assert_not(exists(scratch + session_name()));
    remove_scratch(scratch);
}

Test(session_dirs, only_new_levels_are_removed)
{
    const std::string scratch = make_scratch();
    const std::string host_tmpdir = scratch + "/host";
    cr_assert_eq(mkdir(host_tmpdir.c_str(), 0700), 0);
    cr_assert_eq(mkdir((host_tmpdir + "/job").c_str(), 0700), 0);  // the nspace level exists
    write_file(host_tmpdir + "/job/host-file");
    SessionDirs dirs;
    dirs.configure(scratch, host_tmpdir, false);
    std::string nsdir;
    cr_assert_eq(dirs.nspace_dir("job", host_tmpdir, "", false, &nsdir), PMIX_SUCCESS);
    cr_assert_eq(nsdir, host_tmpdir + "/job");
    std::string procdir;
    cr_assert_eq(dirs.proc_dir("job", 0, &procdir), PMIX_SUCCESS);
    dirs.release_all();
    cr_assert_not(exists(procdir));
    cr_assert(exists(host_tmpdir + "/job/host-file"));
    cr_assert_not(exists(scratch + session_name()), "no session dir when the host gave PMIX_TMPDIR");
    remove_scratch(scratch);
}

Test(session_dirs, host_nsdir_is_used_as_is)
{
    const std::string scratch = make_scratch();
    const std::string host_nsdir = scratch + "/given";
    cr_assert_eq(mkdir(host_nsdir.c_str(), 0755), 0);
    SessionDirs dirs;
    dirs.configure(scratch, "", false);
    std::string nsdir;
    cr_assert_eq(dirs.nspace_dir("job", "", host_nsdir, false, &nsdir), PMIX_SUCCESS);
    cr_assert_eq(nsdir, host_nsdir);
    dirs.release_all();
    cr_assert(exists(host_nsdir));
    cr_assert_eq(mode_of(host_nsdir), 0755u, "the host's dir is not ours to chmod");
    remove_scratch(scratch);
}

Test(session_dirs, rmclean_at_init_leaves_everything)
{
    const std::string scratch = make_scratch();
    SessionDirs dirs;
    dirs.configure(scratch, "", true);
    std::string nsdir;
    std::string procdir;
    cr_assert_eq(dirs.nspace_dir("job", "", "", false, &nsdir), PMIX_SUCCESS);
    cr_assert_eq(dirs.proc_dir("job", 0, &procdir), PMIX_SUCCESS);
    dirs.release_proc("job", 0);
    dirs.release_nspace("job");
    dirs.release_all();
    cr_assert(exists(procdir));
    cr_assert(exists(scratch + session_name()));
    remove_scratch(scratch);
}

Test(session_dirs, rmclean_of_one_nspace_leaves_only_that_nspace)
{
    const std::string scratch = make_scratch();
    SessionDirs dirs;
    dirs.configure(scratch, "", false);
    std::string kept;
    std::string gone;
    cr_assert_eq(dirs.nspace_dir("kept", "", "", true, &kept), PMIX_SUCCESS);
    cr_assert_eq(dirs.nspace_dir("gone", "", "", false, &gone), PMIX_SUCCESS);
    dirs.release_nspace("kept");
    dirs.release_nspace("gone");
    cr_assert(exists(kept));
    cr_assert_not(exists(gone));
    remove_scratch(scratch);
}

Test(session_dirs, planted_symlink_removed_as_link_target_survives)
{
    const std::string scratch = make_scratch();
    const std::string outside = scratch + "/outside";
    cr_assert_eq(mkdir(outside.c_str(), 0700), 0);
    write_file(outside + "/precious");
    SessionDirs dirs;
    dirs.configure(scratch, "", false);
    std::string nsdir;
    std::string procdir;
    cr_assert_eq(dirs.nspace_dir("job", "", "", false, &nsdir), PMIX_SUCCESS);
    cr_assert_eq(dirs.proc_dir("job", 0, &procdir), PMIX_SUCCESS);
    cr_assert_eq(dirs.make_proc_dir("job", 0), PMIX_SUCCESS);
    cr_assert_eq(symlink(outside.c_str(), (procdir + "/trap").c_str()), 0);
    cr_assert_eq(symlink((outside + "/precious").c_str(), (nsdir + "/trap-file").c_str()), 0);
    dirs.release_all();
    cr_assert_not(exists(scratch + session_name()));
    cr_assert(exists(outside + "/precious"));
    remove_scratch(scratch);
}

Test(session_dirs, existing_link_in_place_of_a_level_is_refused)
{
    const std::string scratch = make_scratch();
    const std::string outside = scratch + "/outside";
    cr_assert_eq(mkdir(outside.c_str(), 0700), 0);
    const std::string host_tmpdir = scratch + "/host";
    cr_assert_eq(mkdir(host_tmpdir.c_str(), 0700), 0);
    cr_assert_eq(symlink(outside.c_str(), (host_tmpdir + "/job").c_str()), 0);
    SessionDirs dirs;
    dirs.configure(scratch, host_tmpdir, false);
    std::string nsdir;
    cr_assert_neq(dirs.nspace_dir("job", host_tmpdir, "", false, &nsdir), PMIX_SUCCESS);
    remove_scratch(scratch);
}
