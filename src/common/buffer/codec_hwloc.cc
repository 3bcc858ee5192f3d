// Codecs of the hwloc-backed types. A topology travels as hwloc XML, a cpuset
// as an hwloc bitmap list string ("0-3,8"); both after their source name.
#include <hwloc.h>

#include <cstdlib>
#include <cstring>

#include "common/buffer/codec.h"
#include "common/buffer/codec_util.h"
#include "common/values/cpu_list.h"

namespace pmixpp::buffer {

namespace {

// Only hwloc objects can be encoded; a NULL source is taken to mean hwloc.
bool is_hwloc_source(const char *source)
{
    return source == nullptr || std::strcmp(source, "hwloc") == 0;
}

// An unpacked object with a NULL source (the sender's spelling of hwloc)
// gets the source "hwloc": the value operations (destruct, copy, compare)
// only recognize a named source, and would leak or refuse the bitmap or
// topology of an object without one.
pmix_status_t name_hwloc_source(char **source_p)
{
    if (*source_p != nullptr) return PMIX_SUCCESS;
    *source_p = strdup("hwloc");
    return *source_p == nullptr ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

pmix_status_t pack_cpuset(Packer &p, const void *element)
{
    const auto *cs = static_cast<const pmix_cpuset_t *>(element);
    pmix_status_t rc = p.put_string(cs->source);
    if (rc != PMIX_SUCCESS || cs->bitmap == nullptr) {
        return rc == PMIX_SUCCESS ? p.put_string(nullptr) : rc;
    }
    if (!is_hwloc_source(cs->source)) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    char *list = nullptr;
    if (hwloc_bitmap_list_asprintf(&list, static_cast<hwloc_const_bitmap_t>(cs->bitmap)) < 0) {
        return PMIX_ERR_NOMEM;
    }
    rc = p.put_string(list);
    std::free(list);
    return rc;
}

pmix_status_t unpack_cpuset(Unpacker &u, void *element)
{
    auto *cs = static_cast<pmix_cpuset_t *>(element);
    char *list = nullptr;
    pmix_status_t rc = chain([&] { return u.get_string(&cs->source); }, [&] { return u.get_string(&list); });
    if (rc != PMIX_SUCCESS || list == nullptr) {
        return rc;
    }
    if (!is_hwloc_source(cs->source)) {
        std::free(list);
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (name_hwloc_source(&cs->source) != PMIX_SUCCESS) {
        std::free(list);
        return PMIX_ERR_NOMEM;
    }
    hwloc_bitmap_t bitmap = hwloc_bitmap_alloc();
    if (bitmap == nullptr) {
        std::free(list);
        return PMIX_ERR_NOMEM;
    }
    // A peer's text: bounded before hwloc sizes a bitmap after it.
    int parsed = pmixpp::values::is_bounded_cpu_list(list) ? hwloc_bitmap_list_sscanf(bitmap, list) : -1;
    std::free(list);
    if (parsed < 0) {
        hwloc_bitmap_free(bitmap);
        return PMIX_ERR_UNPACK_FAILURE;
    }
    cs->bitmap = bitmap;
    return PMIX_SUCCESS;
}

pmix_status_t pack_topology(Packer &p, const void *element)
{
    const auto *topo = static_cast<const pmix_topology_t *>(element);
    pmix_status_t rc = p.put_string(topo->source);
    if (rc != PMIX_SUCCESS || topo->topology == nullptr) {
        return rc == PMIX_SUCCESS ? p.put_string(nullptr) : rc;
    }
    if (!is_hwloc_source(topo->source)) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    auto handle = static_cast<hwloc_topology_t>(topo->topology);
    char *xml = nullptr;
    int xml_len = 0;
    if (hwloc_topology_export_xmlbuffer(handle, &xml, &xml_len, 0) != 0) {
        return PMIX_ERR_PACK_FAILURE;
    }
    rc = p.put_string(xml);
    hwloc_free_xmlbuffer(handle, xml);
    return rc;
}

pmix_status_t load_topology_xml(const char *xml, hwloc_topology_t *topology_p)
{
    size_t len = std::strlen(xml) + 1;  // hwloc counts the terminating NUL
    if (len > static_cast<size_t>(INT32_MAX)) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    hwloc_topology_t topology;
    if (hwloc_topology_init(&topology) != 0) {
        return PMIX_ERR_NOMEM;
    }
    // Keep every object the sender described, I/O devices included.
    if (hwloc_topology_set_all_types_filter(topology, HWLOC_TYPE_FILTER_KEEP_ALL) != 0 ||
        hwloc_topology_set_xmlbuffer(topology, xml, static_cast<int>(len)) != 0 || hwloc_topology_load(topology) != 0) {
        hwloc_topology_destroy(topology);
        return PMIX_ERR_UNPACK_FAILURE;
    }
    *topology_p = topology;
    return PMIX_SUCCESS;
}

pmix_status_t unpack_topology(Unpacker &u, void *element)
{
    auto *topo = static_cast<pmix_topology_t *>(element);
    char *xml = nullptr;
    pmix_status_t rc = chain([&] { return u.get_string(&topo->source); }, [&] { return u.get_string(&xml); });
    if (rc != PMIX_SUCCESS || xml == nullptr) {
        return rc;
    }
    if (!is_hwloc_source(topo->source)) {
        std::free(xml);
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (name_hwloc_source(&topo->source) != PMIX_SUCCESS) {
        std::free(xml);
        return PMIX_ERR_NOMEM;
    }
    hwloc_topology_t topology = nullptr;
    rc = load_topology_xml(xml, &topology);
    std::free(xml);
    if (rc == PMIX_SUCCESS) {
        topo->topology = topology;
    }
    return rc;
}

constexpr Codec kHwlocCodecs[] = {
    {PMIX_PROC_CPUSET, sizeof(pmix_cpuset_t), 8, pack_cpuset, unpack_cpuset},
    {PMIX_TOPO, sizeof(pmix_topology_t), 8, pack_topology, unpack_topology},
};

}  // namespace

CodecSpan hwloc_codecs()
{
    return {kHwlocCodecs, sizeof kHwlocCodecs / sizeof kHwlocCodecs[0]};
}

}  // namespace pmixpp::buffer
