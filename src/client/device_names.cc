#include "client/device_names.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <strings.h>

namespace pmixpp::client {
namespace {

std::string host_name()
{
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) return "localhost";
    return name;
}

std::string network_uuid(hwloc_obj_t device)
{
    const char *address = hwloc_obj_get_info_by_name(device, "Address");
    if (address == nullptr) return {};
    const auto colons = std::count(address, address + std::strlen(address), ':');
    if (colons == 5) return std::string("ipv4://") + address;
    if (colons == 19) return std::string("ipv6://") + address;
    return {};
}

std::string fabric_uuid(hwloc_obj_t device)
{
    const char *node = hwloc_obj_get_info_by_name(device, "NodeGUID");
    const char *image = hwloc_obj_get_info_by_name(device, "SysImageGUID");
    if (node == nullptr || image == nullptr) return {};
    return std::string("fab://") + node + "::" + image;
}

}  // namespace

std::string device_uuid(hwloc_obj_t os_device)
{
    if (os_device == nullptr || os_device->type != HWLOC_OBJ_OS_DEVICE || os_device->name == nullptr) return {};
    switch (os_device->attr->osdev.type) {
    case HWLOC_OBJ_OSDEV_NETWORK: return network_uuid(os_device);
    case HWLOC_OBJ_OSDEV_OPENFABRICS: return fabric_uuid(os_device);
    case HWLOC_OBJ_OSDEV_GPU:
        if (strncasecmp(os_device->name, "card", 4) == 0) return {};
        return "gpu://" + host_name() + "::" + os_device->name;
    default: return {};
    }
}

}  // namespace pmixpp::client
