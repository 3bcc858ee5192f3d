// Proc map: malformed, out-of-range and oversized maps are refused with
// PMIX_ERR_BAD_PARAM, and the output is left untouched.
#include "regex_test_util.h"

using pmixpp::regex::generate_ppn_regex;
using pmixpp::regex::parse_proc_map;
using Nodes = std::vector<std::vector<pmix_rank_t>>;

namespace {

void expect_refused(std::string_view map)
{
    Nodes parsed{{42}};
    cr_expect_eq(parse_proc_map(map, &parsed), PMIX_ERR_BAD_PARAM, "accepted \"%.*s\"", static_cast<int>(map.size()),
                 map.data());
    cr_expect(parsed == (Nodes{{42}}));
    std::string regex = "untouched";
    if (!map.empty()) {
        cr_expect_eq(generate_ppn_regex(map, &regex), PMIX_ERR_BAD_PARAM);
        cr_expect_eq(regex, "untouched");
    }
}

}  // namespace

Test(proc_map_malformed, broken_syntax_is_refused)
{
    const char *const maps[] = {
        ";",     "0;",      ";0", "0;;1", "a",    "0-",       "3-1",       "0-4/0",      "0-5/2",
        "0/2",   "0*0",     "0*", "0*2+", "0*2-", "0 1",      "0,1,",      "1-2-3",      "0,,1",
        "0*2*2", "0*2+1+1", "-1", "+1",   "0x10", "pmixpp1:", "pmixpp1:;", "pmixpp1:0;", "pmixpp1:0-1/",
    };
    for (const char *map : maps) expect_refused(map);
    expect_refused("");
    expect_refused(std::string_view("\0", 1));
    expect_refused(std::string_view("0\0;1", 4));
}

Test(proc_map_malformed, ranks_must_stay_valid)
{
    expect_refused("4294967245");            // PMIX_RANK_VALID itself
    expect_refused("4294967295");            // PMIX_RANK_UNDEF
    expect_refused("4294967244*2+1");        // shifted past the limit
    expect_refused("0*2-1");                 // shifted below zero
    expect_refused("5-9*3-4");               // third node would start at -3
    expect_refused("99999999999999999999");  // more than 18 digits
    expect_refused("0*3+99999999999");       // shift larger than any rank
}

Test(proc_map_malformed, absurd_expansions_are_refused_by_a_bound)
{
    expect_refused("0-999999999");       // 1e9 ranks on one node
    expect_refused("0*16777217+1");      // more nodes than the limit
    expect_refused("0-15*16777216+16");  // 268M ranks
    expect_refused("0-67108863;0");      // one rank over the limit
}

Test(proc_map_malformed, foreign_or_future_formats_are_refused)
{
    expect_refused("pmixpp2:0-3");
    expect_refused("pmix[0-3]");
    expect_refused("blob:0-3");
}
