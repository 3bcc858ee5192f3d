// Fuzz target: the node-map and proc-map codecs of src/common/regex (what
// PMIx_server_register_nspace parses from PMIX_NODE_MAP / PMIX_PROC_MAP, and
// what PMIx_generate_regex / PMIx_generate_ppn produce).
//
// Input: byte 0 chooses the mode, the rest is the text.
//   0 parse_node_map      1 parse_proc_map
//   2 generate_node_regex 3 generate_ppn_regex
// Invariants: parsers answer SUCCESS or BAD_PARAM; accepted node names are
// non-empty and hold no ',' or control character; a generated map parses
// back to what the plain list it was made from parses to.
#include "fuzz_support.h"

#include <string>
#include <vector>

#include "common/regex/regex.h"

namespace {

using namespace pmixpp::regex;
using Nodes = std::vector<std::vector<pmix_rank_t>>;

bool is_plain_list(std::string_view text)
{
    return !text.starts_with(kFormatTag) && !text.starts_with("raw:");
}

void check_names(const std::vector<std::string> &names)
{
    FUZZ_CHECK(!names.empty() && names.size() <= kMaxNames);
    for (const std::string &name : names) {
        FUZZ_CHECK(!name.empty());
        for (char c : name) FUZZ_CHECK(c != ',' && static_cast<unsigned char>(c) >= 0x20);
    }
}

void node_map(std::string_view text)
{
    std::vector<std::string> names;
    const pmix_status_t rc = parse_node_map(text, &names);
    FUZZ_CHECK(rc == PMIX_SUCCESS || rc == PMIX_ERR_BAD_PARAM);
    if (rc == PMIX_SUCCESS) check_names(names);
}

void proc_map(std::string_view text)
{
    Nodes nodes;
    const pmix_status_t rc = parse_proc_map(text, &nodes);
    FUZZ_CHECK(rc == PMIX_SUCCESS || rc == PMIX_ERR_BAD_PARAM);
    if (rc != PMIX_SUCCESS) return;
    size_t ranks = 0;
    for (const auto &node : nodes) ranks += node.size();
    FUZZ_CHECK(ranks <= kMaxRanks);
}

void node_round_trip(std::string_view text)
{
    std::string regex;
    if (generate_node_regex(text, &regex) != PMIX_SUCCESS) return;
    std::vector<std::string> parsed;
    FUZZ_CHECK(parse_node_map(regex, &parsed) == PMIX_SUCCESS);
    check_names(parsed);
    std::vector<std::string> plain;
    if (is_plain_list(text) && parse_node_map(text, &plain) == PMIX_SUCCESS) FUZZ_CHECK(plain == parsed);
}

void proc_round_trip(std::string_view text)
{
    std::string regex;
    if (generate_ppn_regex(text, &regex) != PMIX_SUCCESS) return;
    Nodes parsed;
    FUZZ_CHECK(parse_proc_map(regex, &parsed) == PMIX_SUCCESS);
    Nodes plain;
    if (is_plain_list(text) && parse_proc_map(text, &plain) == PMIX_SUCCESS) FUZZ_CHECK(plain == parsed);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    const std::string_view text = pmixpp_fuzz::as_text(std::span<const uint8_t>(data + 1, size - 1));
    switch (data[0] % 4) {
    case 0: node_map(text); break;
    case 1: proc_map(text); break;
    case 2: node_round_trip(text); break;
    default: proc_round_trip(text); break;
    }
    return 0;
}
