// Fuzz target: the info-array parser of PMIx_server_register_nspace
// (src/server/jobdata): collect() sorts the host's (possibly nested) info
// array by level and type-checks it, build_layout() places every rank on a
// node and an application from the node map, proc map and the node/proc/app
// arrays. Storing the result needs a gds module and is left out (it reads
// only what these two accepted).
//
// Input: one info array in the codec's array encoding (u32 count, then
// pmix_info_t elements, as wire messages carry them); seeds are the arrays
// hosts register jobs with, encoded by our packer.
#include "fuzz_support.h"

#include <string>

#include "server/jobdata/collect.h"
#include "server/jobdata/layout.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace pmixpp::jobdata;
    pmixpp::wire::InfoArray info;
    if (pmixpp_fuzz::decode_info_array(std::span<const uint8_t>(data, size), &info) != PMIX_SUCCESS) return 0;
    Collected given;
    std::string error;
    pmix_status_t rc = collect("fuzz-nspace", info.data(), info.size(), &given, &error);
    if (rc != PMIX_SUCCESS) {
        FUZZ_CHECK(!error.empty());
        return 0;
    }
    if (given.nodata) return 0;
    Layout layout;
    rc = build_layout(given, ServerHost{"node0", size % 2 == 0}, &layout, &error);
    if (rc != PMIX_SUCCESS) {
        FUZZ_CHECK(!error.empty());
        return 0;
    }
    // Every placed rank is on a node that lists it, and in range.
    FUZZ_CHECK(layout.node_of_rank.size() == layout.known_ranks);
    for (size_t r = 0; r < layout.node_of_rank.size(); ++r) {
        const int32_t n = layout.node_of_rank[r];
        FUZZ_CHECK(n == kUnplaced || static_cast<size_t>(n) < layout.nodes.size());
    }
    if (layout.local_node) FUZZ_CHECK(*layout.local_node < layout.nodes.size());
    return 0;
}
