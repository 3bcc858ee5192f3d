// Node map: every kind of malformed or oversized input is refused with
// PMIX_ERR_BAD_PARAM, and the output is left untouched.
#include "regex_test_util.h"

using pmixpp::regex::generate_node_regex;
using pmixpp::regex::parse_node_map;

namespace {

void expect_refused(std::string_view map)
{
    std::vector<std::string> parsed{"untouched"};
    cr_expect_eq(parse_node_map(map, &parsed), PMIX_ERR_BAD_PARAM, "accepted \"%.*s\"", static_cast<int>(map.size()),
                 map.data());
    cr_expect(parsed == std::vector<std::string>{"untouched"});
}

}  // namespace

Test(node_map_malformed, broken_syntax_is_refused)
{
    const char *const maps[] = {
        "pmixpp1:",
        "pmixpp1:n[",
        "pmixpp1:n[1-",
        "pmixpp1:n[1-]",
        "pmixpp1:n[3-1]",
        "pmixpp1:n[1,]",
        "pmixpp1:n[]",
        "pmixpp1:n[1]]",
        "pmixpp1:n[1][2]",
        "pmixpp1:n[1",
        "pmixpp1:n]",
        "pmixpp1:n[a]",
        "pmixpp1:n[-1]",
        "pmixpp1:n[1--2]",
        "pmixpp1:n%",
        "pmixpp1:n%4",
        "pmixpp1:n%zz",
        "pmixpp1:n%00",
        "pmixpp1:n%2C",
        "pmixpp1:n%0A",
        "pmixpp1:n%7F",
        "pmixpp1:n%1",
        "pmixpp1:a,,b",
        "pmixpp1:a,",
        "pmixpp1:,a",
        "pmixpp1:n x",
        "pmixpp1:a;b",
        "pmixpp1:n[1]x[2]",
        "pmixpp1:n[1234567890123456789]",
        "pmixpp1:n[1-1234567890123456789]",
    };
    for (const char *map : maps) expect_refused(map);
}

Test(node_map_malformed, foreign_or_future_formats_are_refused)
{
    expect_refused("pmixpp2:n1");
    expect_refused("pmixpp12:n[1-3]");
    expect_refused("pmix[n[1:1-3]]");
    expect_refused("blob:xyz");
}

Test(node_map_malformed, broken_plain_lists_are_refused)
{
    expect_refused("");
    expect_refused(std::string_view("\0", 1));
    expect_refused("a,,b");
    expect_refused(",a");
    expect_refused("a,");
    expect_refused("raw:");
    expect_refused("a\nb");
    expect_refused(std::string_view("a\0b", 3));
    expect_refused(std::string_view("pmixpp1:a\0b", 11));
}

Test(node_map_malformed, absurd_expansions_are_refused_by_a_bound)
{
    expect_refused("pmixpp1:n[1-999999999999]");
    expect_refused("pmixpp1:n[0-1048576]");  // one name over the limit
    expect_refused("pmixpp1:n[0-9999999],m[0-9999999]");
    expect_refused("pmixpp1:n[0-9999999],m[0-9999999],x");
    // Few names but long ones: the byte bound trips first.
    const std::string long_prefix(200, 'p');
    expect_refused("pmixpp1:" + long_prefix + "[1-2000000]");
    expect_refused("pmixpp1:n[1-2000000]" + long_prefix);
}

Test(node_map_malformed, generator_refuses_empty_names)
{
    std::string regex = "untouched";
    cr_expect_eq(generate_node_regex("", &regex), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(generate_node_regex("a,,b", &regex), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(generate_node_regex("a,", &regex), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(generate_node_regex(",", &regex), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(generate_node_regex("a\x01b", &regex), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(generate_node_regex("a\tb", &regex), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(regex, "untouched");
}
