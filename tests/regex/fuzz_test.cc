// Mutated maps (small seeds, so legitimate expansions stay cheap): the parsers answer SUCCESS or BAD_PARAM, never
// crash, and whatever they accept is well formed.
#include "regex_test_util.h"

#include <random>

using pmixpp::regex::parse_node_map;
using pmixpp::regex::parse_proc_map;

namespace {

constexpr char kAlphabet[] = "pmixpp1:n0123456789[]-,;*+/%AFx.";

std::string mutate(std::string text, std::mt19937 *rng)
{
    const int edits = 1 + static_cast<int>((*rng)() % 4);
    for (int i = 0; i < edits; ++i) {
        const char c = kAlphabet[(*rng)() % (sizeof(kAlphabet) - 1)];
        const std::size_t at = text.empty() ? 0 : (*rng)() % text.size();
        switch ((*rng)() % 3) {
        case 0: text.insert(at, 1, c); break;
        case 1:
            if (!text.empty()) text[at] = c;
            break;
        default:
            if (!text.empty()) text.erase(at, 1);
            break;
        }
    }
    return text;
}

}  // namespace

Test(regex_fuzz, mutated_node_maps_are_parsed_or_refused)
{
    const std::string seeds[] = {"pmixpp1:n[0001-0100],login,10.0.0.[1-3,7]", "pmixpp1:a%20b,x[1-3].r3", "n1,n2,n3"};
    std::mt19937 rng(7);
    for (int round = 0; round < 5000; ++round) {
        const std::string map = mutate(seeds[round % 3], &rng);
        std::vector<std::string> names;
        const pmix_status_t rc = parse_node_map(map, &names);
        cr_assert(rc == PMIX_SUCCESS || rc == PMIX_ERR_BAD_PARAM, "status %d for %s", rc, map.c_str());
        if (rc != PMIX_SUCCESS) continue;
        cr_assert(!names.empty() && names.size() <= pmixpp::regex::kMaxNames, "%s", map.c_str());
        for (const std::string &name : names) {
            cr_assert(!name.empty(), "empty name from %s", map.c_str());
            cr_assert(name.find(',') == std::string::npos, "comma in a name from %s", map.c_str());
        }
    }
}

Test(regex_fuzz, mutated_proc_maps_are_parsed_or_refused)
{
    const std::string seeds[] = {"pmixpp1:0-15*10+16;96-99", "pmixpp1:0-150/10*10+1", "0,1;2-3;9", "pmixpp1:12-15*4-4"};
    std::mt19937 rng(11);
    for (int round = 0; round < 2000; ++round) {
        const std::string map = mutate(seeds[round % 4], &rng);
        std::vector<std::vector<pmix_rank_t>> nodes;
        const pmix_status_t rc = parse_proc_map(map, &nodes);
        cr_assert(rc == PMIX_SUCCESS || rc == PMIX_ERR_BAD_PARAM, "status %d for %s", rc, map.c_str());
        if (rc != PMIX_SUCCESS) continue;
        for (const auto &ranks : nodes) {
            cr_assert(!ranks.empty(), "empty node from %s", map.c_str());
            for (const pmix_rank_t rank : ranks) cr_assert(PMIX_RANK_IS_VALID(rank), "%s", map.c_str());
        }
    }
}
