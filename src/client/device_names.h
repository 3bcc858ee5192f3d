// How PMIX_DEVICE_DISTANCES names a node's devices: OpenPMIx's scheme, so
// consumers that match entries by uuid work the same on both libraries.
#ifndef PMIXPP_CLIENT_DEVICE_NAMES_H
#define PMIXPP_CLIENT_DEVICE_NAMES_H

#include <hwloc.h>

#include <string>

namespace pmixpp::client {

// A network device is "ipv4://<address>" (a 6-byte address) or
// "ipv6://<address>" (20 bytes, InfiniBand); an OpenFabrics device
// "fab://<NodeGUID>::<SysImageGUID>"; a GPU "gpu://<hostname>::<name>".
// Empty for a device that cannot be named this way, and for a GPU's "cardN"
// display side (the GPU is listed under its other name too).
std::string device_uuid(hwloc_obj_t os_device);

}  // namespace pmixpp::client

#endif
