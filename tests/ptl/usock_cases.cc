// ptl/usock's own cases, next to the conformance suite.
#include "ptl/ptl_test_support.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

using namespace pmixpp::tests::ptl;

namespace pmixpp::tests::ptl {

namespace {

// A fresh directory per test process; others may traverse it so that a
// client running as another user can reach a socket whose mode allows it.
std::string &private_tmpdir_name()
{
    static std::string directory;
    return directory;
}

const char *private_tmpdir()
{
    std::string &directory = private_tmpdir_name();
    if (directory.empty()) {
        char pattern[] = "/tmp/pmixpp-usock-XXXXXX";
        cr_assert_not_null(mkdtemp(pattern));
        cr_assert_eq(chmod(pattern, 0711), 0);
        directory = pattern;
    }
    return directory.c_str();
}

std::string socket_path(const pmixpp_ptl_listener_t &listener)
{
    const std::string uri = listener.uri;
    cr_assert(uri.starts_with("usock:/"), "not a socket file: %s", uri.c_str());
    return uri.substr(6);
}

mode_t file_mode(const std::string &path)
{
    struct stat info {};
    cr_assert_eq(stat(path.c_str(), &info), 0, "%s", path.c_str());
    cr_assert(S_ISSOCK(info.st_mode));
    return info.st_mode & 07777;
}

}  // namespace

InfoList default_server_info()
{
    return InfoList().text(PMIX_SERVER_TMPDIR, private_tmpdir());
}

void remove_server_files()
{
    std::error_code ignored;
    if (!private_tmpdir_name().empty()) std::filesystem::remove_all(private_tmpdir_name(), ignored);
}

std::vector<GarbageInfo> garbage_info_cases()
{
    return {
        {InfoList().text(PMIX_SOCKET_MODE, "rwx"), PMIX_ERR_BAD_PARAM, "mode text"},
        {InfoList().uint32(PMIX_SOCKET_MODE, 01777), PMIX_ERR_BAD_PARAM, "mode > 0777"},
        {InfoList().integer(PMIX_SOCKET_MODE, -1), PMIX_ERR_BAD_PARAM, "negative mode"},
        {InfoList().real(PMIX_SOCKET_MODE, 6.0), PMIX_ERR_TYPE_MISMATCH, "mode double"},
        {InfoList().uint32(PMIX_USOCK_DISABLE, 7), PMIX_ERR_TYPE_MISMATCH, "disable uint32"},
        {InfoList().text(PMIX_USOCK_DISABLE, "maybe"), PMIX_ERR_BAD_PARAM, "disable text"},
        {InfoList().integer(PMIX_SERVER_TMPDIR, 3), PMIX_ERR_TYPE_MISMATCH, "tmpdir int"},
        {InfoList().text(PMIX_SERVER_TMPDIR, ""), PMIX_ERR_BAD_PARAM, "tmpdir empty"},
    };
}

void finalize()
{
    framework::finalize();
    remove_server_files();
}

}  // namespace pmixpp::tests::ptl

TestSuite(usock, .fini = pmixpp::tests::ptl::finalize);

Test(usock, socket_file_under_server_tmpdir)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, default_server_info());
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    cr_assert_eq(listening.count(), 1u);
    const std::string path = socket_path(listening[0]);
    cr_assert(path.starts_with(std::string(private_tmpdir()) + "/pmixpp."), "%s", path.c_str());
}

Test(usock, two_listeners_in_one_process_differ)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening first(module, default_server_info());
    Listening second(module, default_server_info());
    cr_assert_eq(first.status(), PMIX_SUCCESS);
    cr_assert_eq(second.status(), PMIX_SUCCESS);
    cr_assert_str_neq(first[0].uri, second[0].uri);
}

Test(usock, default_mode_is_owner_only)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, default_server_info());
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    cr_assert_eq(file_mode(socket_path(listening[0])), 0600u);
}

Test(usock, socket_mode_from_info)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening numeric(module, default_server_info().uint32(PMIX_SOCKET_MODE, 0660));
    cr_assert_eq(numeric.status(), PMIX_SUCCESS);
    cr_assert_eq(file_mode(socket_path(numeric[0])), 0660u);
    Listening octal_text(module, default_server_info().text(PMIX_SOCKET_MODE, "0640"));
    cr_assert_eq(octal_text.status(), PMIX_SUCCESS);
    cr_assert_eq(file_mode(socket_path(octal_text[0])), 0640u);
}

Test(usock, disabled_by_info)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening disabled(module, default_server_info().flag(PMIX_USOCK_DISABLE, true));
    cr_assert_eq(disabled.status(), PMIX_ERR_NOT_AVAILABLE);
    cr_assert_eq(disabled.count(), 0u);
    Listening enabled(module, default_server_info().flag(PMIX_USOCK_DISABLE, false));
    cr_assert_eq(enabled.status(), PMIX_SUCCESS);
}

Test(usock, socket_file_removed_on_close)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, default_server_info());
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    const std::string path = socket_path(listening[0]);
    cr_assert_eq(access(path.c_str(), F_OK), 0);
    listening.close();
    cr_assert_neq(access(path.c_str(), F_OK), 0, "%s still exists", path.c_str());
}

// A tmpdir deeper than sun_path allows: the listener falls back to an
// abstract socket, which clients reach and the kernel still identifies.
Test(usock, long_tmpdir_falls_back_to_abstract_socket)
{
    std::string deep = private_tmpdir();
    while (deep.size() < 150) {
        deep += "/a-rather-long-directory-name";
        cr_assert(mkdir(deep.c_str(), 0700) == 0 || errno == EEXIST, "%s", deep.c_str());
    }
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, InfoList().text(PMIX_SERVER_TMPDIR, deep.c_str()));
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    cr_assert(std::string(listening[0].uri).starts_with("usock:@pmixpp."), "%s", listening[0].uri);
    cr_assert_eq(module->handles_uri(listening[0].uri), 1);
    expect_round_trip(module, listening[0]);
}

Test(usock, tmpdir_from_environment)
{
    setenv("TMPDIR", private_tmpdir(), 1);
    unsetenv("PMIX_SERVER_TMPDIR");
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, InfoList());
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    cr_assert(socket_path(listening[0]).starts_with(private_tmpdir()), "%s", listening[0].uri);
}

Test(usock, missing_tmpdir_reported)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, InfoList().text(PMIX_SERVER_TMPDIR, "/nonexistent/pmixpp/dir"));
    cr_assert_eq(listening.status(), PMIX_ERR_NOT_FOUND);
}

namespace {

// A socket file at `path` (bound, then closed: a leftover, as a dead
// process leaves it).
void plant_socket(const std::string &path)
{
    const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    cr_assert(fd >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    cr_assert_eq(bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0, "%s", path.c_str());
    close(fd);
}

ino_t inode_of(const std::string &path)
{
    struct stat info {};
    cr_assert_eq(lstat(path.c_str(), &info), 0, "%s is gone", path.c_str());
    return info.st_ino;
}

}  // namespace

// Names someone else took first, in a directory others can write: another
// user's socket and a plain file are left alone and the
// listener takes the next name; only a leftover socket of our own is reused.
Test(usock, names_taken_by_others_are_skipped_not_removed)
{
    if (geteuid() != 0) cr_skip_test("needs root to make a socket of another user");
    char host[256] = {};
    cr_assert_eq(gethostname(host, sizeof host - 1), 0);
    std::string short_host = host;
    if (short_host.size() > 48) short_host.resize(48);
    const auto name = [&](int n) {
        return std::string(private_tmpdir()) + "/pmixpp." + short_host + "." + std::to_string(getpid()) + "." +
               std::to_string(n) + ".sock";
    };
    plant_socket(name(0));
    cr_assert_eq(chown(name(0).c_str(), 65534, 65534), 0);
    std::ofstream(name(1)) << "not a socket\n";
    plant_socket(name(2));
    const ino_t others_socket = inode_of(name(0));
    const ino_t plain_file = inode_of(name(1));

    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, default_server_info());
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    cr_expect_eq(socket_path(listening[0]), name(2), "the stale socket of ours is reused");
    cr_expect_eq(inode_of(name(0)), others_socket, "another user's socket is not removed");
    cr_expect_eq(inode_of(name(1)), plain_file, "a plain file is not removed");
}
