// OpenPMIx's rendezvous files, written beside ours when the server listens
// on tcp: names, mode 0640, the five lines of OpenPMIx's format, and their
// removal at finalize.
#include "rendezvous/rdv_support.h"

#include <criterion/criterion.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr const char *kNspace = "rdv-openpmix-ns";

std::vector<std::string> lines_of(const std::string &text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

void expect_openpmix_file(const std::string &path, const std::string &uri)
{
    cr_assert(exists(path), "%s missing", path.c_str());
    cr_expect_eq(mode_of(path), 0640u, "%s", path.c_str());
    const std::string text = slurp(path);
    const std::vector<std::string> lines = lines_of(text);
    cr_assert_geq(lines.size(), 5u, "%s", text.c_str());
    cr_expect_eq(lines[0], uri);
    cr_expect_eq(lines[1], "4.2.2");
    cr_expect_eq(lines[2], std::to_string(getpid()));
    cr_expect_eq(lines[3], std::to_string(geteuid()) + ":" + std::to_string(getegid()));
    cr_expect(!lines[4].empty(), "a ctime line: %s", text.c_str());
    cr_expect(text.size() >= 2 && text.substr(text.size() - 2) == "\n\n", "ends as OpenPMIx's: %s", text.c_str());
}

pmix_info_t string_info(const char *key, const std::string &value)
{
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, key, value.c_str(), PMIX_STRING);
    return info;
}

}  // namespace

Test(rendezvous_openpmix, written_beside_ours_with_a_tcp_listener)
{
    setenv("PMIX_MCA_ptl", "tcp", 1);
    TmpDirs dirs;
    const pmix_status_t rc = init_server(dirs, {PMIX_SERVER_SESSION_SUPPORT, PMIX_SERVER_TOOL_SUPPORT},
                                         {string_info(PMIX_SERVER_NSPACE, kNspace)});
    cr_assert_eq(rc, PMIX_SUCCESS, "%s", PMIx_Error_string(rc));
    const std::string host = kHost;
    const std::string ours = dirs.server + "/pmix." + host + "." + std::to_string(getpid());
    cr_assert(exists(ours), "our own file stays: %s", ours.c_str());
    const std::string uris = field(slurp(ours), "uris");
    const std::string tcp = uris.substr(0, uris.find(';'));
    cr_assert(tcp.rfind("tcp4://", 0) == 0, "a tcp listener: %s", uris.c_str());
    const std::string uri = std::string(kNspace) + ".0;" + tcp;
    const std::string stem = dirs.server + "/pmix." + host + ".tool";
    expect_openpmix_file(stem, uri);
    expect_openpmix_file(stem + "." + std::to_string(getpid()), uri);
    expect_openpmix_file(stem + "." + kNspace, uri);

    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
    cr_expect(names_in(dirs.server).empty(), "left in the server tmpdir");
}

Test(rendezvous_openpmix, none_without_a_tcp_listener)
{
    setenv("PMIX_MCA_ptl", "usock", 1);
    TmpDirs dirs;
    cr_assert_eq(init_server(dirs, {PMIX_SERVER_SESSION_SUPPORT, PMIX_SERVER_TOOL_SUPPORT},
                             {string_info(PMIX_SERVER_NSPACE, kNspace)}),
                 PMIX_SUCCESS);
    for (const std::string &name : names_in(dirs.server)) {
        cr_expect(name.find(".tool") == std::string::npos, "an OpenPMIx file without tcp: %s", name.c_str());
    }
    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
}

Test(rendezvous_openpmix, a_live_file_of_another_is_left_alone)
{
    setenv("PMIX_MCA_ptl", "tcp", 1);
    TmpDirs dirs;
    const std::string taken = dirs.server + "/pmix." + std::string(kHost) + ".tool";
    const std::string squat = "x.0;tcp4://127.0.0.1:1\n4.2.2\n1\n0:0\nnow\n\n";  // pid 1 runs
    {
        FILE *f = fopen(taken.c_str(), "w");
        cr_assert_not_null(f);
        fputs(squat.c_str(), f);
        fclose(f);
    }
    cr_assert_eq(init_server(dirs, {PMIX_SERVER_SESSION_SUPPORT}, {string_info(PMIX_SERVER_NSPACE, kNspace)}),
                 PMIX_SUCCESS);
    cr_expect_eq(slurp(taken), squat);
    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
    cr_expect_eq(slurp(taken), squat, "not ours: not removed");
}
