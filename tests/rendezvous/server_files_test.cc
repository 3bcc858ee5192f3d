// The rendezvous files one server writes (seed session-directories.rst):
// names, places, mode 0600, content, and their removal at finalize.
#include "rendezvous/rdv_support.h"

#include <criterion/criterion.h>

#include <cstdlib>
#include <string>

namespace {

constexpr const char *kNspace = "rdv-server-ns";

void expect_our_file(const std::string &path)
{
    cr_assert(exists(path), "%s missing", path.c_str());
    cr_expect_eq(mode_of(path), 0600u, "%s", path.c_str());
    const std::string text = slurp(path);
    cr_expect(text.find("\npmixpp-rendezvous=1\n") != std::string::npos, "%s", text.c_str());
    cr_expect_eq(field(text, "pid"), std::to_string(getpid()));
    cr_expect_eq(field(text, "uid"), std::to_string(geteuid()));
    cr_expect_eq(field(text, "gid"), std::to_string(getegid()));
    cr_expect_eq(field(text, "nspace"), kNspace);
    cr_expect_eq(field(text, "rank"), "0");
    cr_expect_eq(field(text, "start_time"), start_time_of(getpid()));
    cr_expect_eq(field(text, "version"), PMIx_Get_version());
    const std::string uris = field(text, "uris");
    cr_assert(!uris.empty());
    // Line 1 as OpenPMIx writes it: "<nspace>.<rank>;<uri>", then "v4.2".
    const std::string first = std::string(kNspace) + ".0;" + uris.substr(0, uris.find(';')) + "\nv4.2\n";
    cr_expect_eq(text.rfind(first, 0), 0u, "%s", text.c_str());
}

pmix_info_t string_info(const char *key, const std::string &value)
{
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, key, value.c_str(), PMIX_STRING);
    return info;
}

}  // namespace

Test(rendezvous_server, every_kind_written_and_removed)
{
    TmpDirs dirs;
    const std::string launcher = dirs.root + "/launch/deeper/contact.txt";
    const pmix_status_t rc =
        init_server(dirs,
                    {PMIX_SERVER_SYSTEM_SUPPORT, PMIX_SERVER_SESSION_SUPPORT, PMIX_SERVER_TOOL_SUPPORT,
                     PMIX_SERVER_SCHEDULER, PMIX_SERVER_SYS_CONTROLLER},
                    {string_info(PMIX_SERVER_NSPACE, kNspace), string_info(PMIX_LAUNCHER_RENDEZVOUS_FILE, launcher)});
    cr_assert_eq(rc, PMIX_SUCCESS, "%s", PMIx_Error_string(rc));
    const std::string host = kHost;
    expect_our_file(dirs.system + "/pmix.sys." + host);
    expect_our_file(dirs.system + "/pmix.sched." + host);
    expect_our_file(dirs.system + "/pmix.sysctrlr." + host);
    expect_our_file(dirs.server + "/pmix.sys." + host);
    expect_our_file(dirs.server + "/pmix." + host + "." + std::to_string(getpid()));
    expect_our_file(dirs.server + "/pmix." + host + "." + kNspace);
    expect_our_file(launcher);
    cr_expect_eq(mode_of(dirs.root + "/launch"), 0700u);
    cr_expect_eq(mode_of(dirs.root + "/launch/deeper"), 0700u);
    cr_expect_eq(names_in(dirs.system).size(), 3u);

    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
    cr_expect(names_in(dirs.system).empty(), "left in the system tmpdir");
    cr_expect(names_in(dirs.server).empty(), "left in the server tmpdir");
    cr_expect(!exists(dirs.root + "/launch"), "the launcher's directories stay");
}

Test(rendezvous_server, start_time_readable)
{
    TmpDirs dirs;
    cr_assert_eq(init_server(dirs, {PMIX_SERVER_TOOL_SUPPORT}, {string_info(PMIX_SERVER_NSPACE, kNspace)}),
                 PMIX_SUCCESS);
    const std::string file = dirs.server + "/pmix." + std::string(kHost) + "." + kNspace;
    cr_expect(slurp(file).find("\nstart_time=" + start_time_of(getpid()) + "\n") != std::string::npos);
    pmix_proc_t self;
    PMIX_LOAD_PROCID(&self, kNspace, 0);
    pmix_value_t *value = nullptr;
    const pmix_status_t rc = PMIx_Get(&self, PMIX_SERVER_START_TIME, nullptr, 0, &value);
    cr_assert_eq(rc, PMIX_SUCCESS, "%s", PMIx_Error_string(rc));
    cr_assert_eq(value->type, PMIX_STRING);
    const std::string expected = start_time_of(getpid());  // named: Criterion compares after the full expression
    cr_expect_str_eq(value->data.string, expected.c_str());
    PMIX_VALUE_RELEASE(value);
    PMIx_server_finalize();
}

Test(rendezvous_server, launcher_file_from_environment)
{
    TmpDirs dirs;
    const std::string launcher = dirs.root + "/env-launch/contact";
    cr_assert_eq(setenv(PMIX_LAUNCHER_RENDEZVOUS_FILE, launcher.c_str(), 1), 0);
    cr_assert_eq(init_server(dirs, {}, {string_info(PMIX_SERVER_NSPACE, kNspace)}), PMIX_SUCCESS);
    expect_our_file(launcher);
    PMIx_server_finalize();
    cr_expect(!exists(launcher));
    cr_expect(!exists(dirs.root + "/env-launch"));
}

Test(rendezvous_server, attribute_wins_over_environment)
{
    TmpDirs dirs;
    const std::string from_env = dirs.root + "/from-env";
    const std::string from_attr = dirs.root + "/from-attr";
    cr_assert_eq(setenv(PMIX_LAUNCHER_RENDEZVOUS_FILE, from_env.c_str(), 1), 0);
    cr_assert_eq(
        init_server(dirs, {},
                    {string_info(PMIX_SERVER_NSPACE, kNspace), string_info(PMIX_LAUNCHER_RENDEZVOUS_FILE, from_attr)}),
        PMIX_SUCCESS);
    expect_our_file(from_attr);
    cr_expect(!exists(from_env));
    PMIx_server_finalize();
    cr_expect(!exists(from_attr));
}

Test(rendezvous_server, default_hostname_in_names)
{
    TmpDirs dirs;
    pmix_info_t info[3];
    bool yes = true;
    PMIX_INFO_LOAD(&info[0], PMIX_SYSTEM_TMPDIR, dirs.system.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_SERVER_TMPDIR, dirs.server.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_SERVER_TOOL_SUPPORT, &yes, PMIX_BOOL);
    static pmix_server_module_t module{};
    cr_assert_eq(PMIx_server_init(&module, info, 3), PMIX_SUCCESS);
    const std::string pid_file = dirs.server + "/pmix." + hostname() + "." + std::to_string(getpid());
    cr_expect(exists(pid_file), "%s", pid_file.c_str());
    PMIx_server_finalize();
    cr_expect(!exists(pid_file));
}

Test(rendezvous_server, nothing_written_without_flags)
{
    TmpDirs dirs;
    unsetenv(PMIX_LAUNCHER_RENDEZVOUS_FILE);
    cr_assert_eq(init_server(dirs, {}), PMIX_SUCCESS);
    for (const std::string &name : names_in(dirs.system)) cr_expect(name.rfind("pmix.", 0) != 0, "%s", name.c_str());
    for (const std::string &name : names_in(dirs.server)) cr_expect(name.rfind("pmix.", 0) != 0, "%s", name.c_str());
    PMIx_server_finalize();
}
