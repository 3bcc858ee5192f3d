// rendezvous::format / parse: the round trip, the layout of the first two
// lines, and refusal of malformed or hostile texts with a clear reason.
#include "common/rendezvous/rendezvous.h"

#include <criterion/criterion.h>

#include <string>

using namespace pmixpp::rendezvous;

namespace {

Contact sample()
{
    Contact contact;
    contact.uris = {"usock:/tmp/x/pmix-1234", "tcp4://127.0.0.1:4242"};
    contact.server_nspace = "srv-ns";
    contact.server_rank = 3;
    contact.library_version = "pmixpp 0.1 (PMIx Standard: 4.2)";
    contact.pid = 1234;
    contact.uid = 1000;
    contact.gid = 100;
    contact.start_time = "987654";
    return contact;
}

void expect_refused(const std::string &text, const char *fragment)
{
    Contact contact;
    contact.pid = 77;
    std::string error;
    cr_expect_eq(parse(text, &contact, &error), PMIX_ERR_BAD_PARAM, "accepted: %s", text.c_str());
    cr_expect(error.find(fragment) != std::string::npos, "error '%s' lacks '%s'", error.c_str(), fragment);
    cr_expect_eq(contact.pid, 77, "contact changed on failure");
}

std::string replace(std::string text, const std::string &from, const std::string &to)
{
    const std::size_t at = text.find(from);
    cr_assert_neq(at, std::string::npos, "%s", from.c_str());
    return text.replace(at, from.size(), to);
}

}  // namespace

Test(rendezvous_format, round_trip)
{
    const Contact in = sample();
    Contact out;
    std::string error;
    cr_assert_eq(parse(format(in), &out, &error), PMIX_SUCCESS, "%s", error.c_str());
    cr_expect(out.uris == in.uris);
    cr_expect_eq(out.server_nspace, in.server_nspace);
    cr_expect_eq(out.server_rank, in.server_rank);
    cr_expect_eq(out.library_version, in.library_version);
    cr_expect_eq(out.pid, in.pid);
    cr_expect_eq(out.uid, in.uid);
    cr_expect_eq(out.gid, in.gid);
    cr_expect_eq(out.start_time, in.start_time);
}

// Line 1 names the tcp URI, the one OpenPMIx's tools can use; every URI
// is on the uris= line.
Test(rendezvous_format, first_lines_as_openpmix)
{
    const std::string text = format(sample());
    cr_expect_eq(text.rfind("srv-ns.3;tcp4://127.0.0.1:4242\nv4.2\n", 0), 0u, "%s", text.c_str());
    cr_expect(text.find("\npmixpp-rendezvous=1\n") != std::string::npos);
    cr_expect(text.find("\nuris=usock:/tmp/x/pmix-1234;tcp4://127.0.0.1:4242\n") != std::string::npos);
}

Test(rendezvous_format, file_names)
{
    cr_expect_eq(system_file_name("h"), "pmix.sys.h");
    cr_expect_eq(scheduler_file_name("h"), "pmix.sched.h");
    cr_expect_eq(controller_file_name("h"), "pmix.sysctrlr.h");
    cr_expect_eq(pid_file_name("h", 42), "pmix.h.42");
    cr_expect_eq(nspace_file_name("h", "ns"), "pmix.h.ns");
}

Test(rendezvous_format, refuses_malformed)
{
    const std::string good = format(sample());
    expect_refused("", "printable");
    expect_refused(good.substr(0, good.size() - 1), "newline");
    expect_refused(replace(good, "v4.2\n", "v9.9\n"), "version line");
    expect_refused(replace(good, "pmixpp-rendezvous=1\n", ""), "not a pmixpp");
    expect_refused(replace(good, "pid=1234\n", ""), "'pid'");
    expect_refused(replace(good, "pid=1234\n", "pid=12x4\n"), "'pid'");
    expect_refused(replace(good, "pid=1234\n", "pid=0\n"), "'pid'");
    expect_refused(replace(good, "pid=1234\n", "pid=99999999999999999999\n"), "'pid'");
    expect_refused(replace(good, "uid=1000\n", "uid=-1\n"), "'uid'");
    expect_refused(replace(good, "rank=3\n", "rank=4294967296\n"), "'rank'");
    expect_refused(replace(good, "start_time=987654\n", "start_time=\n"), "'start_time'");
    expect_refused(replace(good, "nspace=srv-ns\n", "nspace=\n"), "'nspace'");
    expect_refused(good + "pid=1234\n", "twice");
    expect_refused(good + "junk\n", "key=value");
    expect_refused(replace(good, "srv-ns.3;", "other.3;"), "line 1");
    expect_refused(replace(good, "pmix-1234;tcp4", "pmix-1234;;tcp4"), "empty URI");
}

Test(rendezvous_format, refuses_hostile)
{
    const std::string good = format(sample());
    expect_refused(replace(good, "srv-ns\n", std::string("srv\0ns\n", 7)), "printable");
    expect_refused(replace(good, "srv-ns\n", "srv\x1b[2Jns\n"), "printable");
    expect_refused(good + std::string(70 * 1024, 'x') + "\n", "64 KiB");
    expect_refused(replace(good, "nspace=srv-ns", "nspace=" + std::string(300, 'n')), "'nspace'");
    cr_expect_eq(parse(good, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
}

Test(rendezvous_format, unknown_keys_ignored)
{
    Contact out;
    std::string error;
    cr_expect_eq(parse(format(sample()) + "future_key=1\n", &out, &error), PMIX_SUCCESS, "%s", error.c_str());
}
