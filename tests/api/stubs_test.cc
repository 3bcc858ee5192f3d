// Every public entry point that is still a stub answers
// PMIX_ERR_NOT_SUPPORTED (void ones do nothing, PMIx_Initialized says no);
// none are left, and the doc must say so.
// The table below and docs/api-coverage.md must agree: a change that
// implements a function removes it from kStatusStubs (or kVoidStubs), marks
// it "implemented" in the doc, and adds real tests of its own.
#include <cstdio>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <pmix_server.h>
#include <pmix_tool.h>

#include "api/api_test_support.h"

using namespace pmixpp::api_test;

namespace {

struct StubCall {
    const char *name;
    pmix_status_t (*call)();
};

#define STUB(fn, ...)                                                                                                  \
    StubCall                                                                                                           \
    {                                                                                                                  \
#fn, [] { return fn(__VA_ARGS__); }                                                                            \
    }

// None left (the group invitations were the last). A
// function that has to be a stub again is listed here and in the doc.
const std::vector<StubCall> kStatusStubs = {};

// Stubs without a status to return; checked one by one below (none left:
// the server's void deregistrations are implemented).
const std::vector<const char *> kVoidStubs = {};

int g_callback_calls = 0;

std::string trimmed(const std::string &cell)
{
    const char *blanks = " \t`";
    auto first = cell.find_first_not_of(blanks);
    if (first == std::string::npos) {
        return "";
    }
    return cell.substr(first, cell.find_last_not_of(blanks) - first + 1);
}

// Rows "| `PMIx_name` | header | status | issue |" of docs/api-coverage.md,
// as name -> status.
std::map<std::string, std::string> coverage_rows()
{
    std::ifstream doc(source_path("docs/api-coverage.md"));
    cr_assert(doc.good(), "cannot read docs/api-coverage.md");
    std::map<std::string, std::string> rows;
    std::string line;
    while (std::getline(doc, line)) {
        std::istringstream cells(line);
        std::string empty, name, header, status;
        std::getline(cells, empty, '|');
        std::getline(cells, name, '|');
        std::getline(cells, header, '|');
        std::getline(cells, status, '|');
        name = trimmed(name);
        if (name.rfind("PMIx_", 0) == 0) {
            cr_expect(rows.count(name) == 0, "%s listed twice", name.c_str());
            rows[name] = trimmed(status);
        }
    }
    return rows;
}

}  // namespace

Test(api_stubs, status_stubs_return_not_supported)
{
    for (const auto &stub : kStatusStubs) {
        pmix_status_t rc = stub.call();
        cr_expect_eq(rc, PMIX_ERR_NOT_SUPPORTED, "%s returned %d, expected %d", stub.name, rc, PMIX_ERR_NOT_SUPPORTED);
    }
}

// All 141 functions of OpenPMIx 4.2 (and pmixpp's additions) are
// implemented: the doc has no stub row and the table above is empty.
Test(api_stubs, no_stub_is_left)
{
    cr_expect(kStatusStubs.empty() && kVoidStubs.empty(), "functions are still stubs");
    size_t rows = 0;
    for (const auto &[name, status] : coverage_rows()) {
        ++rows;
        cr_expect(status.rfind("implemented", 0) == 0, "%s is '%s' in docs/api-coverage.md", name.c_str(),
                  status.c_str());
    }
    cr_expect_geq(rows, 142u, "docs/api-coverage.md lists %zu functions", rows);
}

Test(api_stubs, initialized_is_false)
{
    cr_expect_eq(PMIx_Initialized(), 0);
}

Test(api_stubs, void_stubs_do_nothing)
{
    pmix_nspace_t nspace = "pmixpp.test";
    pmix_proc_t proc{};
    std::snprintf(proc.nspace, sizeof proc.nspace, "%s", nspace);
    PMIx_Progress();
    cr_expect_eq(g_callback_calls, 0, "a no-op stub invoked its callback");
}

Test(api_stubs, coverage_doc_lists_every_export_once)
{
    auto rows = coverage_rows();
    std::set<std::string> listed;
    for (const auto &[name, status] : rows) {
        listed.insert(name);
    }
    auto expected = lines_of(source_path("tests/api/expected-exports.txt"));
    for (const auto &addition : lines_of(source_path("tests/api/pmixpp-additions.txt"))) expected.insert(addition);
    cr_expect(difference(expected, listed).empty(), "docs/api-coverage.md lacks%s",
              joined(difference(expected, listed)).c_str());
    cr_expect(difference(listed, expected).empty(), "docs/api-coverage.md has extra%s",
              joined(difference(listed, expected)).c_str());
}

Test(api_stubs, coverage_doc_marks_exactly_these_stubs_not_supported)
{
    std::set<std::string> stubs(std::begin(kVoidStubs), std::end(kVoidStubs));
    for (const auto &stub : kStatusStubs) {
        stubs.insert(stub.name);
    }
    std::set<std::string> documented;
    for (const auto &[name, status] : coverage_rows()) {
        if (status.rfind("PMIX_ERR_NOT_SUPPORTED", 0) == 0) {
            documented.insert(name);
        } else {
            cr_expect(status.rfind("implemented", 0) == 0, "%s has status '%s'", name.c_str(), status.c_str());
        }
    }
    cr_expect(difference(stubs, documented).empty(), "tested as stubs but not PMIX_ERR_NOT_SUPPORTED in the doc:%s",
              joined(difference(stubs, documented)).c_str());
    cr_expect(difference(documented, stubs).empty(), "PMIX_ERR_NOT_SUPPORTED in the doc but not tested as stubs:%s",
              joined(difference(documented, stubs)).c_str());
}

// A declining blocking call still leaves its result array empty: python3-pmix
// reads the count after PMIx_Group_construct whatever it returned, and
// crashed on the garbage an untouched count held.
Test(api_stubs, declining_calls_leave_their_results_empty)
{
    pmix_info_t *results = reinterpret_cast<pmix_info_t *>(0x1);
    size_t nresults = 12345;
    const pmix_proc_t procs[1] = {};
    // Implemented now; declining (not initialized) it still leaves none.
    cr_expect_eq(PMIx_Group_construct("g", procs, 1, nullptr, 0, &results, &nresults), PMIX_ERR_INIT);
    cr_expect(results == nullptr && nresults == 0, "PMIx_Group_construct left results %p, %zu",
              static_cast<void *>(results), nresults);
    results = reinterpret_cast<pmix_info_t *>(0x1);
    nresults = 12345;
    cr_expect_eq(PMIx_Group_invite("g", procs, 1, nullptr, 0, &results, &nresults), PMIX_ERR_INIT);
    cr_expect(results == nullptr && nresults == 0, "PMIx_Group_invite left results");
    results = reinterpret_cast<pmix_info_t *>(0x1);
    nresults = 12345;
    cr_expect_eq(PMIx_Group_join("g", procs, PMIX_GROUP_ACCEPT, nullptr, 0, &results, &nresults), PMIX_ERR_INIT);
    cr_expect(results == nullptr && nresults == 0, "PMIx_Group_join left results");
    results = reinterpret_cast<pmix_info_t *>(0x1);
    nresults = 12345;
    // Implemented now; declining (not initialized) it still leaves none.
    pmix_byte_object_t cred{};
    cr_expect_eq(PMIx_Validate_credential(&cred, nullptr, 0, &results, &nresults), PMIX_ERR_INIT);
    cr_expect(results == nullptr && nresults == 0, "PMIx_Validate_credential left results");
    // Implemented now; refusing a malformed directive it still leaves none.
    pmix_device_distance_t *distances = reinterpret_cast<pmix_device_distance_t *>(0x1);
    size_t ndist = 12345;
    pmix_info_t wrong_type;
    PMIX_INFO_LOAD(&wrong_type, PMIX_DEVICE_TYPE, "gpu", PMIX_STRING);
    cr_expect_eq(PMIx_Compute_distances(nullptr, nullptr, &wrong_type, 1, &distances, &ndist), PMIX_ERR_BAD_PARAM);
    cr_expect(distances == nullptr && ndist == 0, "PMIx_Compute_distances left results");
    PMIX_INFO_DESTRUCT(&wrong_type);
}
