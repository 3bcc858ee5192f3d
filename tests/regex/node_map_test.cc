// Node map: exact encodings of typical lists, compactness, and round trips of
// random lists (mixed prefixes, padding, duplicates, IPv4, FQDNs, odd bytes).
#include "regex_test_util.h"

#include <random>

using pmixpp::regex::generate_node_regex;
using pmixpp::regex::parse_node_map;
using regex_test::join;

namespace {

std::string encode(const std::string &list)
{
    std::string regex;
    cr_assert_eq(generate_node_regex(list, &regex), PMIX_SUCCESS, "refused: %s", list.c_str());
    regex_test::expect_printable_map(regex);
    return regex;
}

void expect_round_trip(const std::vector<std::string> &names)
{
    const std::string regex = encode(join(names, ','));
    std::vector<std::string> parsed;
    cr_assert_eq(parse_node_map(regex, &parsed), PMIX_SUCCESS, "cannot parse %s", regex.c_str());
    cr_assert_eq(parsed.size(), names.size(), "%s", regex.c_str());
    for (std::size_t i = 0; i < names.size(); ++i) {
        cr_assert_eq(parsed[i], names[i], "name %zu: %s != %s (regex %s)", i, parsed[i].c_str(), names[i].c_str(),
                     regex.c_str());
    }
}

std::vector<std::string> numbered(const std::string &prefix, int first, int last, int width,
                                  const std::string &suffix = "")
{
    std::vector<std::string> names;
    for (int n = first; n <= last; ++n) {
        std::string digits = std::to_string(n);
        if (static_cast<int>(digits.size()) < width) digits.insert(0, width - digits.size(), '0');
        names.push_back(prefix + digits + suffix);
    }
    return names;
}

std::string random_name(std::mt19937 *rng, const std::string &previous)
{
    static const char *const prefixes[] = {"node",     "n",     "cn-", "rack1-node", "",     "10.0.0.",
                                           "192.168.", "login", "gpu", "a b",        "x[1]", "50%"};
    static const char *const suffixes[] = {"", ".cluster.example.org", "-ib", "a", ".r3.lab", "\xc3\xa9"};
    std::uniform_int_distribution<int> pick(0, 99);
    const int kind = pick(*rng);
    if (!previous.empty() && kind < 10) return previous;  // duplicate
    if (!previous.empty() && kind < 45) {                 // next number, same shape
        std::string next = previous;
        for (std::size_t i = next.size(); i-- > 0;) {
            if (next[i] < '0' || next[i] > '9') continue;
            if (next[i] != '9') {
                ++next[i];
                return next;
            }
            next[i] = '0';
            if (i == 0 || next[i - 1] < '0' || next[i - 1] > '9') return next.insert(i, "1");
        }
    }
    std::string name = prefixes[pick(*rng) % std::size(prefixes)];
    if (kind % 7 != 0) {
        std::string digits = std::to_string(pick(*rng) * (kind % 3 == 0 ? 1000 : 1));
        const int width = pick(*rng) % 6;
        if (static_cast<int>(digits.size()) < width) digits.insert(0, width - digits.size(), '0');
        name += digits;
    }
    name += suffixes[pick(*rng) % std::size(suffixes)];
    return name.empty() ? "solo" : name;
}

}  // namespace

Test(node_map, padded_ten_thousand_nodes_are_one_range)
{
    const std::string regex = encode(join(numbered("node", 1, 10000, 4), ','));
    cr_expect_lt(regex.size(), 64u);
    cr_expect_eq(regex, "pmixpp1:node[0001-10000]", "%s", regex.c_str());
    expect_round_trip(numbered("node", 1, 10000, 4));
}

Test(node_map, typical_lists_have_the_expected_encoding)
{
    cr_expect_eq(encode("n9,n10,n11"), "pmixpp1:n[9-11]");
    cr_expect_eq(encode("n09,n10"), "pmixpp1:n[09-10]");
    cr_expect_eq(encode("n1,n01"), "pmixpp1:n1,n01");
    cr_expect_eq(encode("10.0.0.1,10.0.0.2,10.0.0.3,10.0.0.7"), "pmixpp1:10.0.0.[1-3,7]");
    cr_expect_eq(encode("n1.r3.example.com,n2.r3.example.com"), "pmixpp1:n[1-2].r3.example.com");
    cr_expect_eq(encode("login,a1,a1,a1"), "pmixpp1:login,a[1,1,1]");
    cr_expect_eq(encode("c5,c4,c3"), "pmixpp1:c[5,4,3]");
    cr_expect_eq(encode("a b,x[1],c%d"), "pmixpp1:a%20b,x%5B1%5D,c%25d");
}

Test(node_map, width_changes_split_groups_only_where_needed)
{
    std::vector<std::string> names = numbered("cn", 1, 99, 2);
    const std::vector<std::string> wide = numbered("cn", 1, 99, 3);
    names.insert(names.end(), wide.begin(), wide.end());
    expect_round_trip(names);
    cr_expect_eq(encode(join(names, ',')), "pmixpp1:cn[01-99],cn[001-099]");
}

Test(node_map, random_lists_round_trip)
{
    for (unsigned seed = 1; seed <= 200; ++seed) {
        std::mt19937 rng(seed);
        std::vector<std::string> names;
        const std::size_t count = 1 + rng() % 60;
        for (std::size_t i = 0; i < count; ++i) names.push_back(random_name(&rng, names.empty() ? "" : names.back()));
        expect_round_trip(names);
    }
}

Test(node_map, names_without_numbers_or_with_huge_numbers_stay_literal)
{
    expect_round_trip({"alpha", "beta", "alpha"});
    expect_round_trip({"n1234567890123456789", "n1234567890123456790", "n0"});
    expect_round_trip({"0", "1", "2", "007", "7"});
}

Test(node_map, plain_lists_parse_as_given)
{
    std::vector<std::string> parsed;
    cr_assert_eq(parse_node_map("b2,a1,a1,n[1-3]", &parsed), PMIX_SUCCESS);
    const std::vector<std::string> expected{"b2", "a1", "a1", "n[1-3]"};
    cr_expect(parsed == expected);
    cr_assert_eq(parse_node_map("raw:x,y", &parsed), PMIX_SUCCESS);
    cr_expect(parsed == (std::vector<std::string>{"x", "y"}));
}

Test(node_map, pmix_regex_byte_objects_keep_their_terminator)
{
    // PMIX_REGEX values are byte objects whose size counts the NUL.
    const std::string regex = encode("n1,n2,n3");
    const std::string_view with_nul(regex.c_str(), regex.size() + 1);
    std::vector<std::string> parsed;
    cr_assert_eq(parse_node_map(with_nul, &parsed), PMIX_SUCCESS);
    cr_expect(parsed == (std::vector<std::string>{"n1", "n2", "n3"}));
}

Test(node_map, large_ranges_are_bounded_by_their_own_size_not_the_maps)
{
    // A million short names followed by a long tail of other groups is fine:
    // the byte bound counts each range's real name length.
    std::string map = "pmixpp1:n[1-1000000]";
    for (int rack = 0; rack < 300; ++rack) map += ",rack" + std::to_string(rack) + "-[1-2]";
    std::vector<std::string> parsed;
    cr_assert_eq(parse_node_map(map, &parsed), PMIX_SUCCESS);
    cr_expect_eq(parsed.size(), 1000000u + 600u);
    cr_expect_eq(parsed[999999], "n1000000");
    cr_expect_eq(parsed.back(), "rack299-2");
}
