// Our Writer against the real OpenPMIx 4.2.2 (Debian's libpmix2): the same
// PACK calls (golden_cases.h) must give the same bytes, and our Reader must
// read what the real library wrote, in v41 and v3, plain and fully
// described. Skipped, with the reason, when Debian's libpmix-dev was not
// found at configure time.
#include <pmix.h>

#include <criterion/criterion.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "common/openpmix/bfrops.h"
#include "common/openpmix/bfrops_codec.h"
#include "common/values/type_ops.h"
#include "openpmix/golden_cases.h"

using namespace pmixpp::openpmix;

namespace {

struct Case {
    pmix_data_type_t type = 0;
    int n = 0;
    std::string ours;
    std::string older;  // a value OpenPMIx's module lacks, packed as its older type
};

std::string to_hex(const std::vector<uint8_t> &bytes)
{
    std::string s;
    char two[3];
    for (uint8_t b : bytes) {
        std::snprintf(two, sizeof two, "%02x", b);
        s += two;
    }
    return s;
}

std::vector<uint8_t> from_hex(const std::string &hex)
{
    std::vector<uint8_t> out;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) {
        out.push_back(static_cast<uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
    }
    return out;
}

#ifdef PMIXPP_OPENPMIX_GOLDEN_GEN
// name -> hex, from the generator run with OpenPMIx's settings for `enc`.
std::map<std::string, std::string> real_bytes(Encoding enc, std::string *skip_p)
{
    std::string cmd = "env -u LD_LIBRARY_PATH";
    if (!enc.varints()) {
        cmd += " PMIX_MCA_bfrops=v3";
    }
    if (enc.described()) {
        cmd += " PMIX_BFROP_BUFFER_TYPE=PMIX_BFROP_BUFFER_FULLY_DESC";
    }
    cmd += " '" PMIXPP_OPENPMIX_GOLDEN_GEN "' 2>/dev/null";
    std::map<std::string, std::string> out;
    FILE *p = popen(cmd.c_str(), "r");
    if (nullptr == p) {
        *skip_p = "cannot run " + cmd;
        return out;
    }
    char line[8192];
    while (nullptr != std::fgets(line, sizeof line, p)) {
        std::string s(line);
        while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) {
            s.pop_back();
        }
        const size_t sp = s.find(' ');
        if (sp == std::string::npos) {
            continue;
        }
        if (s.rfind("SKIP", 0) == 0) {
            *skip_p = s;
        }
        out[s.substr(0, sp)] = s.substr(sp + 1);
    }
    pclose(p);
    if (skip_p->empty() && out.count("VERSION") == 0) {
        *skip_p = "the generator printed nothing (" + cmd + ")";
    }
    return out;
}
#endif

void compare_with_real(Encoding enc)
{
#ifndef PMIXPP_OPENPMIX_GOLDEN_GEN
    (void)enc;
    cr_skip_test("Debian's libpmix-dev (headers of the real OpenPMIx 4.2.2) was not found at configure time: "
                 "apt-get install libpmix-dev and reconfigure to compare with the real library");
#else
    std::string skip;
    std::map<std::string, std::string> real = real_bytes(enc, &skip);
    if (!skip.empty()) {
        cr_skip_test("%s", skip.c_str());
    }
    cr_assert(real["VERSION"].find("OpenPMIx 4.2") != std::string::npos, "generator ran %s", real["VERSION"].c_str());
    std::map<std::string, Case> ours;
    golden::run_cases([&](const char *name, pmix_data_type_t type, const void *values, int n) {
        Writer w(enc);
        pmix_status_t rc = w.pack(type, values, n);
        Case c{type, n, PMIX_SUCCESS == rc ? to_hex(w.bytes()) : "ERROR " + std::to_string(rc), {}};
        pmix_value_t older{};
        if (PMIX_VALUE == type && 1 == n &&
            pmixpp::openpmix::codec::older_equivalent(enc.bfrops, *static_cast<const pmix_value_t *>(values), &older)) {
            Writer o(enc);
            if (PMIX_SUCCESS == o.pack(PMIX_VALUE, &older, 1)) c.older = to_hex(o.bytes());
        }
        ours[name] = c;
    });
    const char *label = enc.varints() ? (enc.described() ? "v41/desc" : "v41") : (enc.described() ? "v3/desc" : "v3");
    size_t compared = 0;
    for (const auto &[name, c] : ours) {
        const std::string &theirs = real[name];
        if (theirs.rfind("ERROR", 0) == 0) {
            // A type the real module does not carry: we refuse it too, or
            // send the older type that carries the same datum to an older peer.
            cr_expect(c.ours.rfind("ERROR", 0) == 0 || (!c.older.empty() && c.ours == c.older),
                      "%s %s: OpenPMIx refuses (%s), we packed %s", label, name.c_str(), theirs.c_str(),
                      c.ours.c_str());
            continue;
        }
        cr_expect_eq(c.ours, theirs, "%s %s: ours %s, OpenPMIx %s", label, name.c_str(), c.ours.c_str(),
                     theirs.c_str());
        // Read what the real library wrote, and write it again.
        const std::vector<uint8_t> bytes = from_hex(theirs);
        Reader r(enc, bytes);
        void *back = pmixpp::values::alloc_elements(c.type, static_cast<size_t>(c.n));
        int32_t n = c.n;
        pmix_status_t rc = r.unpack(c.type, back, &n);
        cr_expect_eq(rc, PMIX_SUCCESS, "%s %s: unpack %d (%s)", label, name.c_str(), rc, r.reason().c_str());
        if (PMIX_SUCCESS == rc) {
            cr_expect(r.at_end(), "%s %s: %zu bytes left", label, name.c_str(), r.remaining());
            Writer again(enc);
            cr_expect_eq(again.pack(c.type, back, n), PMIX_SUCCESS);
            cr_expect_eq(to_hex(again.bytes()), theirs, "%s %s: repacked differently", label, name.c_str());
        }
        pmixpp::values::free_elements(back, static_cast<size_t>(c.n), c.type);
        ++compared;
    }
    cr_expect_gt(compared, 30u, "%s: only %zu cases compared", label, compared);
#endif
}

}  // namespace

Test(openpmix_golden_real, v41)
{
    compare_with_real(Encoding{Bfrops::v41, BufferType::non_desc});
}

Test(openpmix_golden_real, v41_fully_described)
{
    compare_with_real(Encoding{Bfrops::v41, BufferType::fully_desc});
}

Test(openpmix_golden_real, v3)
{
    compare_with_real(Encoding{Bfrops::v3, BufferType::non_desc});
}

Test(openpmix_golden_real, v3_fully_described)
{
    compare_with_real(Encoding{Bfrops::v3, BufferType::fully_desc});
}
