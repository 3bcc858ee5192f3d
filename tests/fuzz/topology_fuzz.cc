// Fuzz target: the topology strings a process reads from others
// (docs/topology.md): cpuset strings (PMIX_CPUSET, PMIx_Parse_cpuset_string),
// locality strings (PMIX_LOCALITY_STRING, PMIx_Get_relative_locality), the
// server's locality writer fed a host's cpuset text, and device distances
// for a parsed cpuset. Over a fixed synthetic topology (2 packages x 2 cores
// x 2 PUs, no devices), so every run sees the same machine.
//
// Input: byte 0 chooses the mode, the rest is the text.
//   0 PMIx_Parse_cpuset_string: SUCCESS, BAD_PARAM or NOT_SUPPORTED; what
//     parses prints back ("hwloc:<list>") and parses again to the same set.
//   1 PMIx_Get_relative_locality of the two halves (cut at the first '\n'):
//     SUCCESS or BAD_PARAM; on SUCCESS the node is shared, the answer is
//     symmetric, and a string shares with itself at least what it shares
//     with another.
//   2 jobdata::locality_string of the text as a host's cpuset: empty, or a
//     string PMIx_Get_relative_locality reads, sharing a PU with itself.
//   3 PMIx_Compute_distances of the parsed cpuset over the synthetic
//     topology: never SUCCESS (it has no devices), never results left.
#include "fuzz_support.h"

#include <hwloc.h>
#include <pmix.h>
#include <pmix_server.h>

#include <cstdlib>
#include <string>

#include "server/jobdata/locality.h"

namespace {

hwloc_topology_t synthetic()
{
    static hwloc_topology_t topology = [] {
        hwloc_topology_t t = nullptr;
        if (hwloc_topology_init(&t) != 0 || hwloc_topology_set_synthetic(t, "pack:2 core:2 pu:2") != 0 ||
            hwloc_topology_load(t) != 0) {
            std::abort();
        }
        return t;
    }();
    return topology;
}

void cpuset_string(const std::string &text)
{
    pmix_cpuset_t cpuset;
    PMIX_CPUSET_CONSTRUCT(&cpuset);
    const pmix_status_t rc = PMIx_Parse_cpuset_string(text.c_str(), &cpuset);
    FUZZ_CHECK(rc == PMIX_SUCCESS || rc == PMIX_ERR_BAD_PARAM || rc == PMIX_ERR_NOT_SUPPORTED);
    if (rc != PMIX_SUCCESS) {
        FUZZ_CHECK(cpuset.bitmap == nullptr && cpuset.source == nullptr);
        return;
    }
    char *printed = nullptr;
    FUZZ_CHECK(PMIx_server_generate_cpuset_string(&cpuset, &printed) == PMIX_SUCCESS);
    pmix_cpuset_t again;
    PMIX_CPUSET_CONSTRUCT(&again);
    FUZZ_CHECK(PMIx_Parse_cpuset_string(printed, &again) == PMIX_SUCCESS);
    FUZZ_CHECK(hwloc_bitmap_isequal(static_cast<hwloc_const_bitmap_t>(cpuset.bitmap),
                                    static_cast<hwloc_const_bitmap_t>(again.bitmap)));
    std::free(printed);
    PMIx_Cpuset_destruct(&again);
    PMIx_Cpuset_destruct(&cpuset);
}

pmix_status_t relative(const std::string &a, const std::string &b, pmix_locality_t *shared_p)
{
    return PMIx_Get_relative_locality(a.c_str(), b.c_str(), shared_p);
}

void locality_pair(const std::string &text)
{
    const std::size_t cut = text.find('\n');
    const std::string a = text.substr(0, cut);
    const std::string b = cut == std::string::npos ? a : text.substr(cut + 1);
    pmix_locality_t ab = 0;
    const pmix_status_t rc = relative(a, b, &ab);
    FUZZ_CHECK(rc == PMIX_SUCCESS || rc == PMIX_ERR_BAD_PARAM);
    if (rc != PMIX_SUCCESS) return;
    FUZZ_CHECK((ab & PMIX_LOCALITY_SHARE_NODE) != 0);
    pmix_locality_t ba = 0, aa = 0;
    FUZZ_CHECK(relative(b, a, &ba) == PMIX_SUCCESS && ba == ab);
    FUZZ_CHECK(relative(a, a, &aa) == PMIX_SUCCESS && (ab & ~aa) == 0);
}

void written_locality(const std::string &text)
{
    const std::string locality = pmixpp::jobdata::locality_string(synthetic(), text.c_str());
    if (locality.empty()) return;
    pmix_locality_t self = 0;
    FUZZ_CHECK(relative(locality, locality, &self) == PMIX_SUCCESS);
    FUZZ_CHECK((self & PMIX_LOCALITY_SHARE_HWTHREAD) != 0);
}

void distances(const std::string &text)
{
    pmix_cpuset_t cpuset;
    PMIX_CPUSET_CONSTRUCT(&cpuset);
    if (PMIx_Parse_cpuset_string(text.c_str(), &cpuset) != PMIX_SUCCESS) return;
    pmix_topology_t topo;
    PMIX_TOPOLOGY_CONSTRUCT(&topo);
    topo.source = const_cast<char *>("hwloc");
    topo.topology = synthetic();
    pmix_device_distance_t *found = nullptr;
    size_t count = 0;
    const pmix_status_t rc = PMIx_Compute_distances(&topo, &cpuset, nullptr, 0, &found, &count);
    FUZZ_CHECK(rc == PMIX_ERR_NOT_FOUND || rc == PMIX_ERR_BAD_PARAM);
    FUZZ_CHECK(found == nullptr && count == 0);
    PMIx_Cpuset_destruct(&cpuset);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096) return 0;
    // A C string: the APIs take NUL-terminated text, so stop at the first NUL.
    std::string text(pmixpp_fuzz::as_text({data + 1, size - 1}));
    text = text.substr(0, text.find('\0'));
    switch (data[0] % 4) {
    case 0: cpuset_string(text); break;
    case 1: locality_pair(text); break;
    case 2: written_locality(text); break;
    default: distances(text); break;
    }
    return 0;
}
