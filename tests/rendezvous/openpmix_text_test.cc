// What a tool reads of OpenPMIx's rendezvous files: parse_openpmix on the
// text OpenPMIx 4.2 and 3.x servers write, refusals of anything else,
// read_any_file's choice between ours and theirs, and find_below's bounded
// search of a tmpdir tree (OpenPMIx's servers may write in a session
// directory below it).
#include "common/rendezvous/rendezvous.h"
#include "rendezvous/rdv_fixture.h"

#include <criterion/criterion.h>

#include <algorithm>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

using namespace pmixpp::rendezvous;

namespace {

// As Debian's OpenPMIx 4.2.2 wrote pmix.sys.<host> (pmixrun --system-server).
const char *const kOpenPmix42 =
    "ppx-vm-30574.0;tcp4://127.0.0.1:49931\n4.2.2rc2\n30574\n0:0\nSat Nov 28 21:35:39 2026\n\n";

struct Scratch {
    std::string dir = make_scratch();
    ~Scratch() { remove_scratch(dir); }
};

void expect_refused(const std::string &text, const char *fragment)
{
    Contact contact;
    contact.pid = 77;
    std::string error;
    cr_expect_eq(parse_openpmix(text, &contact, &error), PMIX_ERR_BAD_PARAM, "accepted: %s", text.c_str());
    cr_expect(error.find(fragment) != std::string::npos, "error '%s' lacks '%s'", error.c_str(), fragment);
    cr_expect_eq(contact.pid, 77, "contact changed on failure");
}

}  // namespace

Test(rendezvous_openpmix_text, a_4_2_file)
{
    Contact contact;
    std::string error;
    cr_assert_eq(parse_openpmix(kOpenPmix42, &contact, &error), PMIX_SUCCESS, "%s", error.c_str());
    cr_expect(contact.openpmix_only);
    cr_expect(contact.uris == std::vector<std::string>{"tcp4://127.0.0.1:49931"});
    cr_expect_str_eq(contact.server_nspace.c_str(), "ppx-vm-30574");
    cr_expect_eq(contact.server_rank, 0u);
    cr_expect_str_eq(contact.library_version.c_str(), "4.2.2rc2");
    cr_expect_eq(contact.pid, 30574);
    cr_expect_eq(contact.uid, 0u);
    cr_expect_eq(contact.gid, 0u);
    cr_expect(contact.start_time.empty());
}

// 3.x writes the URI and its version only; a namespace may hold dots.
Test(rendezvous_openpmix_text, a_3_x_file_and_a_dotted_nspace)
{
    Contact contact;
    std::string error;
    cr_assert_eq(parse_openpmix("prterun.vm.1.2.7;tcp4://10.0.0.1:1234\nv3.2.5\n", &contact, &error), PMIX_SUCCESS,
                 "%s", error.c_str());
    cr_expect_str_eq(contact.server_nspace.c_str(), "prterun.vm.1.2");
    cr_expect_eq(contact.server_rank, 7u);
    cr_expect_str_eq(contact.library_version.c_str(), "3.2.5");
    cr_expect_eq(contact.pid, 0, "a 3.x file names no pid");
}

Test(rendezvous_openpmix_text, refuses_what_is_not_one)
{
    expect_refused("", "line 1");
    expect_refused("tcp4://127.0.0.1:1\n4.2.2\n", "line 1");              // no name
    expect_refused("ns;tcp4://127.0.0.1:1\n4.2.2\n", "line 1");           // no rank
    expect_refused("ns.x;tcp4://127.0.0.1:1\n4.2.2\n", "line 1");         // rank not a number
    expect_refused("ns.0;\n4.2.2\n", "line 1");                           // no URI
    expect_refused("ns.0;tcp4://127.0.0.1:1\n", "version");               // no version line
    expect_refused("ns.0;tcp4://127.0.0.1:1\nv\n", "version");            // a bare 'v'
    expect_refused("ns.0;tcp4://127.0.0.1:1\n4.2.2\nabc\n0:0\n", "pid");  // pid not a number
    expect_refused("ns.0;tcp4://127.0.0.1:1\n4.2.2\n0\n0:0\n", "pid");    // pid 0
    expect_refused("ns.0;tcp4://127.0.0.1:1\n4.2.2\n12\n0-0\n", "uid");   // ids without a colon
    expect_refused("ns.0;tcp4://127.0.0.1:1\n4.2\x01\n", "printable");    // a control byte
    expect_refused(std::string("ns.0;tcp4://x:1\n") + std::string(5000, 'v') + "\n", "4 KiB");
    const std::string long_nspace(PMIX_MAX_NSLEN + 1, 'n');
    expect_refused(long_nspace + ".0;tcp4://127.0.0.1:1\n4.2.2\n", "line 1");
}

// Ours when it parses as ours, else OpenPMIx's; a 3.x file takes its
// owner's ids; neither: one message that says both.
Test(rendezvous_openpmix_text, read_any_file_tells_them_apart)
{
    Scratch scratch;
    Contact ours;
    ours.uris = {"tcp4://127.0.0.1:4242"};
    ours.server_nspace = "srv";
    ours.server_rank = 0;
    ours.library_version = "test";
    fill_identity(&ours);
    cr_assert_eq(write_file(scratch.dir + "/pmix.ours", ours, nullptr), PMIX_SUCCESS);
    put_text(scratch.dir + "/pmix.theirs", kOpenPmix42);
    put_text(scratch.dir + "/pmix.old", "srv.0;tcp4://127.0.0.1:1\n3.2.5\n");
    put_text(scratch.dir + "/pmix.junk", "hello\n");
    Contact found;
    std::string error;
    cr_assert_eq(read_any_file(scratch.dir + "/pmix.ours", &found, &error), PMIX_SUCCESS, "%s", error.c_str());
    cr_expect(!found.openpmix_only);
    cr_assert_eq(read_any_file(scratch.dir + "/pmix.theirs", &found, &error), PMIX_SUCCESS, "%s", error.c_str());
    cr_expect(found.openpmix_only);
    cr_expect_eq(found.pid, 30574);
    cr_assert_eq(read_any_file(scratch.dir + "/pmix.old", &found, &error), PMIX_SUCCESS, "%s", error.c_str());
    cr_expect_eq(found.uid, geteuid(), "a 3.x file's uid is its owner's");
    cr_expect_eq(read_any_file(scratch.dir + "/pmix.junk", &found, &error), PMIX_ERR_BAD_PARAM);
    cr_expect(error.find("neither ours") != std::string::npos && error.find("nor OpenPMIx's") != std::string::npos,
              "%s", error.c_str());
    // Only read_file decides what a server may reclaim: it refuses theirs.
    cr_expect_eq(read_file(scratch.dir + "/pmix.theirs", &found, &error), PMIX_ERR_BAD_PARAM);
}

// A file of OpenPMIx's whose pid runs is alive without a start time.
Test(rendezvous_openpmix_text, alive_by_pid_alone)
{
    Contact contact;
    cr_assert_eq(parse_openpmix(kOpenPmix42, &contact, nullptr), PMIX_SUCCESS);
    contact.pid = getpid();
    cr_expect(server_alive(contact));
    contact.openpmix_only = false;
    cr_expect(!server_alive(contact), "ours must name its start time");
}

Test(rendezvous_openpmix_text, find_below_searches_a_bounded_tree)
{
    Scratch scratch;
    const std::string session = scratch.dir + "/ompi.vm.0/pid.12";
    cr_assert_eq(mkdir((scratch.dir + "/ompi.vm.0").c_str(), 0700), 0);
    cr_assert_eq(mkdir(session.c_str(), 0700), 0);
    put_text(scratch.dir + "/pmix.vm.tool", "x");
    put_text(session + "/pmix.vm.tool.12", "x");
    put_text(session + "/other", "x");
    // Too deep, and behind a link: neither is searched.
    std::string deep = scratch.dir;
    for (const char *level : {"/a", "/b", "/c", "/d", "/e"}) {
        deep += level;
        cr_assert_eq(mkdir(deep.c_str(), 0700), 0);
    }
    put_text(deep + "/pmix.vm.tool.99", "x");
    cr_assert_eq(symlink(session.c_str(), (scratch.dir + "/link").c_str()), 0);
    const std::vector<std::string> found = find_below(scratch.dir, "pmix.vm.tool");
    cr_expect(found == (std::vector<std::string>{scratch.dir + "/pmix.vm.tool", session + "/pmix.vm.tool.12"}),
              "found %zu files", found.size());
    cr_expect(find_below(scratch.dir + "/missing", "pmix.").empty());
}
