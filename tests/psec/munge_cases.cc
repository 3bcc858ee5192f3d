// psec/munge's own cases: munged vouches for the uid, refuses replays,
// tampering and a uid that contradicts the kernel; without munged the
// component declines (native is used) unless munge alone was asked for.
#include "psec/psec_test_support.h"

#include "framework/stderr_capture.h"

#include <munge.h>

#include <sys/wait.h>

#include <cctype>

using namespace pmixpp::tests::psec;

void pmixpp::tests::psec::require_backend()
{
    char *credential = nullptr;
    const munge_err_t rc = munge_encode(&credential, nullptr, nullptr, 0);
    std::free(credential);
    if (rc == EMUNGE_SUCCESS) return;
    const char *required = std::getenv("PMIXPP_REQUIRE_MUNGE");
    if (required != nullptr && std::strcmp(required, "1") == 0) {
        cr_assert_fail("munged is not running but PMIXPP_REQUIRE_MUNGE=1 (%s): start it with scripts/lib/munge.sh",
                       munge_strerror(rc));
    }
    cr_skip_test("munged is not running (%s); start it with scripts/lib/munge.sh", munge_strerror(rc));
}

namespace {

void expect_refused(const pmixpp_psec_module_t *module, const pmixpp_peer_identity_t &kernel,
                    const pmix_byte_object_t &cred, const char *what)
{
    uid_t uid = 777;
    gid_t gid = 777;
    cr_assert_eq(module->validate_credential(&kernel, &cred, &uid, &gid), PMIX_ERR_INVALID_CRED, "%s", what);
    cr_assert_eq(uid, 777u, "%s: uid_p must stay untouched", what);
}

std::string selected_names(const std::vector<pmixpp::framework::SelectedModule> &modules)
{
    std::string names;
    for (const auto &module : modules) names += (names.empty() ? "" : ",") + module.component;
    return names;
}

}  // namespace

TestSuite(munge, .fini = finalize);

Test(munge, credential_is_a_munge_credential)
{
    const pmixpp_psec_module_t *module = load_module();
    Credential credential;
    cr_assert_eq(module->create_credential(&credential.object), PMIX_SUCCESS);
    cr_assert_gt(credential.object.size, 6u);
    cr_assert(std::strncmp(credential.object.bytes, "MUNGE:", 6) == 0);
}

Test(munge, replayed_credential_refused)
{
    const pmixpp_psec_module_t *module = load_module();
    Credential credential;
    cr_assert_eq(module->create_credential(&credential.object), PMIX_SUCCESS);
    const pmixpp_peer_identity_t kernel = own_identity();
    uid_t uid = 0;
    gid_t gid = 0;
    cr_assert_eq(module->validate_credential(&kernel, &credential.object, &uid, &gid), PMIX_SUCCESS);
    expect_refused(module, kernel, credential.object, "second use of one credential");
}

Test(munge, uid_differing_from_kernel_refused)
{
    const pmixpp_psec_module_t *module = load_module();
    Credential credential;
    cr_assert_eq(module->create_credential(&credential.object), PMIX_SUCCESS);
    expect_refused(module, kernel_identity(getuid() + 1, getgid()), credential.object, "kernel says another uid");
}

Test(munge, unknown_kernel_identity_taken_from_credential)
{
    const pmixpp_psec_module_t *module = load_module();
    Credential credential;
    cr_assert_eq(module->create_credential(&credential.object), PMIX_SUCCESS);
    const pmixpp_peer_identity_t unknown = kernel_identity(0, 0, false);
    uid_t uid = 12345;
    gid_t gid = 12345;
    cr_assert_eq(module->validate_credential(&unknown, &credential.object, &uid, &gid), PMIX_SUCCESS);
    cr_assert_eq(uid, getuid());
    cr_assert_eq(gid, getgid());
}

Test(munge, tampered_credential_refused)
{
    const pmixpp_psec_module_t *module = load_module();
    Credential credential;
    cr_assert_eq(module->create_credential(&credential.object), PMIX_SUCCESS);
    char &middle = credential.object.bytes[credential.object.size / 2];
    middle = middle == 'A' ? 'B' : 'A';
    expect_refused(module, own_identity(), credential.object, "one character changed");
}

// munged, not the peer, says who made the credential.
Test(munge, credential_of_another_user)
{
    if (geteuid() != 0) cr_skip_test("needs root to make a credential as another user");
    const uid_t nobody = 65534;
    const pmixpp_psec_module_t *module = load_module();
    int pipe_fds[2];
    cr_assert_eq(pipe(pipe_fds), 0);
    const pid_t child = fork();
    if (child == 0) {
        close(pipe_fds[0]);
        pmix_byte_object_t cred{nullptr, 0};
        if (setgid(nobody) != 0 || setuid(nobody) != 0 || module->create_credential(&cred) != PMIX_SUCCESS) _exit(1);
        _exit(write(pipe_fds[1], cred.bytes, cred.size) == static_cast<ssize_t>(cred.size) ? 0 : 2);
    }
    close(pipe_fds[1]);
    std::string text;
    char buffer[512];
    for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof(buffer))) > 0;) text.append(buffer, n);
    close(pipe_fds[0]);
    int status = 0;
    cr_assert_eq(waitpid(child, &status, 0), child);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child could not make a credential");
    const pmix_byte_object_t cred{text.data(), text.size()};
    const pmixpp_peer_identity_t unknown = kernel_identity(0, 0, false);
    uid_t uid = 0;
    gid_t gid = 0;
    cr_assert_eq(module->validate_credential(&unknown, &cred, &uid, &gid), PMIX_SUCCESS);
    cr_assert_eq(uid, nobody);
    cr_assert_eq(gid, nobody);
}

// No munged at the configured socket, munge not demanded: a quiet decline
// (under Slurm every process printed one where OpenPMIx says nothing),
// and selection carries on with native.
Test(munge, unreachable_munged_declines_quietly_to_native)
{
    unsetenv("PMIX_MCA_psec");
    setenv("PMIX_MCA_psec_munge_socket", "/nonexistent/munge.socket", 1);
    pmixpp::tests::StderrCapture capture;
    std::vector<pmixpp::framework::SelectedModule> modules;
    const pmix_status_t rc = pmixpp::framework::select("psec", &modules);
    const std::vector<std::string> lines = capture.lines();
    cr_assert_eq(rc, PMIX_SUCCESS);
    const std::string names = selected_names(modules);
    cr_assert_str_eq(names.c_str(), "native");
    cr_assert_eq(lines.size(), 0u, "expected no output, got: %s", lines.empty() ? "" : lines[0].c_str());
}

// The same with PMIX_MCA_psec_verbose: one line says why.
Test(munge, unreachable_munged_says_why_when_verbose)
{
    unsetenv("PMIX_MCA_psec");
    setenv("PMIX_MCA_psec_verbose", "1", 1);
    setenv("PMIX_MCA_psec_munge_socket", "/nonexistent/munge.socket", 1);
    pmixpp::tests::StderrCapture capture;
    std::vector<pmixpp::framework::SelectedModule> modules;
    const pmix_status_t rc = pmixpp::framework::select("psec", &modules);
    const std::vector<std::string> all = capture.lines();
    cr_assert_eq(rc, PMIX_SUCCESS);
    std::vector<std::string> lines;
    for (const std::string &line : all) {
        if (line.find("munged is not reachable") != std::string::npos) lines.push_back(line);
    }
    cr_assert_eq(lines.size(), 1u, "expected one line on munged, got %zu", lines.size());
    cr_assert(lines[0].find("munged is not reachable at /nonexistent/munge.socket") != std::string::npos, "%s",
              lines[0].c_str());
    cr_assert(lines[0].find("native will be used") != std::string::npos, "%s", lines[0].c_str());
    // libmunge's reason follows the socket: readable text, not freed memory.
    const std::string::size_type reason = lines[0].find("munge.socket (");
    cr_assert(reason != std::string::npos, "%s", lines[0].c_str());
    const std::string::size_type reason_end = lines[0].find(')', reason);
    cr_assert(reason_end != std::string::npos && reason_end > reason + 15, "no reason in: %s", lines[0].c_str());
    for (std::string::size_type i = reason; i < reason_end; ++i) {
        cr_assert(std::isprint(static_cast<unsigned char>(lines[0][i])), "garbage in: %s", lines[0].c_str());
    }
}

// munge alone was asked for: a clear error stops selection.
Test(munge, unreachable_munged_fatal_when_only_munge_requested)
{
    setenv("PMIX_MCA_psec", "munge", 1);
    setenv("PMIX_MCA_psec_munge_socket", "/nonexistent/munge.socket", 1);
    pmixpp::tests::StderrCapture capture;
    std::vector<pmixpp::framework::SelectedModule> modules;
    const pmix_status_t rc = pmixpp::framework::select("psec", &modules);
    const std::string output = capture.stop();
    cr_assert_eq(rc, PMIX_ERR_INIT);
    cr_assert(output.find("munge requested (PMIX_MCA_psec=munge) but munged is not running: start munged or unset "
                          "PMIX_MCA_psec") != std::string::npos,
              "%s", output.c_str());
}

Test(munge, unreachable_munged_fatal_when_named_in_include_list)
{
    setenv("PMIX_MCA_psec", "native,munge", 1);
    setenv("PMIX_MCA_psec_munge_socket", "/nonexistent/munge.socket", 1);
    pmixpp::tests::StderrCapture capture;
    std::vector<pmixpp::framework::SelectedModule> modules;
    const pmix_status_t rc = pmixpp::framework::select("psec", &modules);
    const std::string output = capture.stop();
    cr_assert_eq(rc, PMIX_ERR_INIT);
    cr_assert(output.find("munge requested (PMIX_MCA_psec=native,munge)") != std::string::npos, "%s", output.c_str());
}
