// Proc map: exact encodings of block, cyclic and uneven maps, compactness,
// plain-list parsing and random round trips.
#include "regex_test_util.h"

#include <algorithm>
#include <random>

using pmixpp::regex::generate_ppn_regex;
using pmixpp::regex::parse_proc_map;
using Nodes = std::vector<std::vector<pmix_rank_t>>;

namespace {

std::string encode(const Nodes &nodes)
{
    const std::string input = regex_test::ranks_text(nodes);
    std::string regex;
    cr_assert_eq(generate_ppn_regex(input, &regex), PMIX_SUCCESS, "refused: %.80s", input.c_str());
    regex_test::expect_printable_map(regex);
    Nodes parsed;
    cr_assert_eq(parse_proc_map(regex, &parsed), PMIX_SUCCESS, "cannot parse %s", regex.c_str());
    cr_assert(parsed == nodes, "round trip of %s differs", regex.c_str());
    return regex;
}

Nodes block_map(pmix_rank_t nodes, pmix_rank_t per_node, pmix_rank_t total)
{
    Nodes map(nodes);
    for (pmix_rank_t rank = 0; rank < total; ++rank) map[rank / per_node].push_back(rank);
    return map;
}

Nodes cyclic_map(pmix_rank_t nodes, pmix_rank_t total)
{
    Nodes map(nodes);
    for (pmix_rank_t rank = 0; rank < total; ++rank) map[rank % nodes].push_back(rank);
    return map;
}

}  // namespace

Test(proc_map, block_map_of_ten_thousand_nodes_is_tiny)
{
    const std::string regex = encode(block_map(10000, 16, 160000));
    cr_expect_lt(regex.size(), 64u);
    cr_expect_eq(regex, "pmixpp1:0-15*10000+16", "%s", regex.c_str());
}

Test(proc_map, cyclic_map_of_ten_thousand_nodes_is_tiny)
{
    const std::string regex = encode(cyclic_map(10000, 160000));
    cr_expect_lt(regex.size(), 64u);
    cr_expect_eq(regex, "pmixpp1:0-150000/10000*10000+1", "%s", regex.c_str());
}

Test(proc_map, uneven_last_node_gets_its_own_entry)
{
    cr_expect_eq(encode(block_map(7, 16, 100)), "pmixpp1:0-15*6+16;96-99");
    cr_expect_eq(encode(cyclic_map(3, 10)), "pmixpp1:0-9/3;1-7/3*2+1");
}

Test(proc_map, reversed_nodes_and_irregular_lists)
{
    cr_expect_eq(encode({{12, 13, 14, 15}, {8, 9, 10, 11}, {4, 5, 6, 7}, {0, 1, 2, 3}}), "pmixpp1:12-15*4-4");
    cr_expect_eq(encode({{0, 5, 6, 7}}), "pmixpp1:0,5-7");
    cr_expect_eq(encode({{3, 2, 2, 1}}), "pmixpp1:3,2,2,1");
    cr_expect_eq(encode({{7}, {7}, {7}}), "pmixpp1:7*3");
}

Test(proc_map, standard_example_round_trips)
{
    std::string regex;
    cr_assert_eq(generate_ppn_regex("1-4;2-5;8,10,11,12;6,7,9", &regex), PMIX_SUCCESS);
    Nodes parsed;
    cr_assert_eq(parse_proc_map(regex, &parsed), PMIX_SUCCESS);
    const Nodes expected{{1, 2, 3, 4}, {2, 3, 4, 5}, {8, 10, 11, 12}, {6, 7, 9}};
    cr_expect(parsed == expected, "%s", regex.c_str());
}

Test(proc_map, random_maps_round_trip)
{
    for (unsigned seed = 1; seed <= 200; ++seed) {
        std::mt19937 rng(seed);
        const pmix_rank_t total = 1 + rng() % 300;
        const pmix_rank_t nodes = 1 + rng() % std::min<pmix_rank_t>(total, 20);
        Nodes map = (seed % 3 == 0) ? cyclic_map(nodes, total) : block_map(nodes, (total + nodes - 1) / nodes, total);
        if (seed % 2 == 0) {
            std::vector<pmix_rank_t> ranks(total);
            for (pmix_rank_t r = 0; r < total; ++r) ranks[r] = r + (seed % 4 == 0 ? 1000000 : 0);
            std::shuffle(ranks.begin(), ranks.end(), rng);
            map.assign(nodes, {});
            for (pmix_rank_t r = 0; r < total; ++r) map[r < nodes ? r : rng() % nodes].push_back(ranks[r]);
        }
        std::erase_if(map, [](const auto &ranks) { return ranks.empty(); });
        encode(map);
    }
}

Test(proc_map, plain_lists_and_terminators_parse)
{
    Nodes parsed;
    cr_assert_eq(parse_proc_map("0,1;2-3;9", &parsed), PMIX_SUCCESS);
    cr_expect(parsed == (Nodes{{0, 1}, {2, 3}, {9}}));
    cr_assert_eq(parse_proc_map(std::string_view("raw:4;5\0", 8), &parsed), PMIX_SUCCESS);
    cr_expect(parsed == (Nodes{{4}, {5}}));
    cr_assert_eq(parse_proc_map("4294967244", &parsed), PMIX_SUCCESS);  // largest valid rank
    cr_expect(parsed == (Nodes{{PMIX_RANK_VALID - 1}}));
}
