// pnet/simfabric: describing the simulated fabric (simfabric_fabric.h).
#include "simfabric_fabric.h"

#include <pmix.h>

#include <unistd.h>

#include <atomic>
#include <cstring>
#include <string>

namespace simfabric {
namespace {

std::atomic<uint32_t> registrations{0};

// A directive that names another fabric or plane than ours.
bool asks_for_another(const pmix_info_t directives[], size_t ndirs)
{
    for (size_t i = 0; directives != nullptr && i < ndirs; ++i) {
        const pmix_info_t &d = directives[i];
        const char *ours = PMIX_CHECK_KEY(&d, PMIX_FABRIC_IDENTIFIER) ? kFabricId
                           : PMIX_CHECK_KEY(&d, PMIX_FABRIC_PLANE)    ? kPlane
                                                                      : nullptr;
        if (ours == nullptr) continue;
        if (d.value.type != PMIX_STRING || d.value.data.string == nullptr) return true;
        if (std::strcmp(d.value.data.string, ours) != 0) return true;
    }
    return false;
}

std::string node_name()
{
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) return "localhost";
    return name;
}

// The node's NIC: name, index, vendor, type, address, state and where it
// sits (the one coordinate of a flat fabric: this node's NIC is the first).
pmix_status_t add_device(void *ilist)
{
    void *fields = PMIx_Info_list_start();
    if (fields == nullptr) return PMIX_ERR_NOMEM;
    const uint32_t device_index = 0;
    const pmix_link_state_t up = PMIX_LINK_UP;
    const std::string address = std::string(kNic) + "@" + node_name();
    uint32_t coordinate = 0;
    pmix_coord_t coord{PMIX_COORD_LOGICAL_VIEW, &coordinate, 1};
    pmix_geometry_t where{0, const_cast<char *>(kNic), const_cast<char *>(kNic), &coord, 1};
    pmix_status_t rc = PMIx_Info_list_add(fields, PMIX_FABRIC_DEVICE_NAME, kNic, PMIX_STRING);
    if (rc == PMIX_SUCCESS) rc = PMIx_Info_list_add(fields, PMIX_FABRIC_DEVICE_INDEX, &device_index, PMIX_UINT32);
    if (rc == PMIX_SUCCESS) rc = PMIx_Info_list_add(fields, PMIX_FABRIC_DEVICE_VENDOR, "pmixpp", PMIX_STRING);
    if (rc == PMIX_SUCCESS) rc = PMIx_Info_list_add(fields, PMIX_FABRIC_DEVICE_TYPE, "simulated", PMIX_STRING);
    if (rc == PMIX_SUCCESS) rc = PMIx_Info_list_add(fields, PMIX_FABRIC_DEVICE_ADDRESS, address.c_str(), PMIX_STRING);
    if (rc == PMIX_SUCCESS) rc = PMIx_Info_list_add(fields, PMIX_FABRIC_DEVICE_STATE, &up, PMIX_LINK_STATE);
    if (rc == PMIX_SUCCESS) rc = PMIx_Info_list_add(fields, PMIX_FABRIC_DEVICE_COORDINATES, &where, PMIX_GEOMETRY);
    pmix_data_array_t device;
    PMIX_DATA_ARRAY_CONSTRUCT(&device, 0, PMIX_INFO);
    if (rc == PMIX_SUCCESS) rc = PMIx_Info_list_convert(fields, &device);
    PMIx_Info_list_release(fields);
    // PMIX_FABRIC_DEVICES holds one PMIX_FABRIC_DEVICE entry per device.
    pmix_info_t entry;
    PMIX_INFO_CONSTRUCT(&entry);
    if (rc == PMIX_SUCCESS) PMIX_INFO_LOAD(&entry, PMIX_FABRIC_DEVICE, &device, PMIX_DATA_ARRAY);
    pmix_data_array_t devices{PMIX_INFO, 1, &entry};
    if (rc == PMIX_SUCCESS) rc = PMIx_Info_list_add(ilist, PMIX_FABRIC_DEVICES, &devices, PMIX_DATA_ARRAY);
    PMIX_INFO_DESTRUCT(&entry);
    PMIX_DATA_ARRAY_DESTRUCT(&device);
    return rc;
}

pmix_status_t describe(void *ilist)
{
    const uint32_t dims = 1;
    const size_t ndevices = 1;
    const uint32_t jobs = static_cast<uint32_t>(local_jobs());
    const uint32_t held = registrations.load();
    pmix_status_t rc = PMIx_Info_list_add(ilist, PMIX_FABRIC_VENDOR, "pmixpp simulated fabric", PMIX_STRING);
    if (rc == PMIX_SUCCESS) rc = PMIx_Info_list_add(ilist, PMIX_FABRIC_IDENTIFIER, kFabricId, PMIX_STRING);
    if (rc == PMIX_SUCCESS) rc = PMIx_Info_list_add(ilist, PMIX_FABRIC_PLANE, kPlane, PMIX_STRING);
    if (rc == PMIX_SUCCESS) rc = PMIx_Info_list_add(ilist, PMIX_FABRIC_DIMS, &dims, PMIX_UINT32);
    if (rc == PMIX_SUCCESS) rc = PMIx_Info_list_add(ilist, PMIX_FABRIC_NUM_DEVICES, &ndevices, PMIX_SIZE);
    if (rc == PMIX_SUCCESS) rc = add_device(ilist);
    if (rc == PMIX_SUCCESS) rc = PMIx_Info_list_add(ilist, kJobsKey, &jobs, PMIX_UINT32);
    if (rc == PMIX_SUCCESS) rc = PMIx_Info_list_add(ilist, kRegistrationsKey, &held, PMIX_UINT32);
    return rc == PMIX_SUCCESS ? PMIX_OPERATION_SUCCEEDED : rc;
}

}  // namespace

pmix_status_t register_fabric(const pmix_info_t directives[], size_t ndirs, void *ilist)
{
    if (ilist == nullptr) return PMIX_ERR_BAD_PARAM;
    if (asks_for_another(directives, ndirs)) return PMIX_ERR_NOT_FOUND;
    ++registrations;  // counted before describing: the caller holds one now
    const pmix_status_t rc = describe(ilist);
    if (rc != PMIX_OPERATION_SUCCEEDED) --registrations;
    return rc;
}

pmix_status_t update_fabric(const char *identifier, void *ilist)
{
    if (identifier == nullptr || ilist == nullptr) return PMIX_ERR_BAD_PARAM;
    if (std::strcmp(identifier, kFabricId) != 0) return PMIX_ERR_NOT_FOUND;
    return describe(ilist);
}

void deregister_fabric(const char *identifier)
{
    if (identifier == nullptr || std::strcmp(identifier, kFabricId) != 0) return;
    uint32_t held = registrations.load();
    while (held > 0 && !registrations.compare_exchange_weak(held, held - 1)) {
    }
}

void forget_registrations()
{
    registrations = 0;
}

}  // namespace simfabric
