// pnet/simfabric: the simulated fabric as PMIx_Fabric_register sees it
// (pnet API 1.2). One fabric, "simfab0" on plane "simplane0": flat (one
// dimension, the ranks' addresses), one simulated NIC per node ("simnic0",
// the one collect_inventory reports), plus what changes while it runs: the
// jobs prepared on this node and the registrations held.
#ifndef PMIXPP_PNET_SIMFABRIC_FABRIC_H
#define PMIXPP_PNET_SIMFABRIC_FABRIC_H

#include <pmix_common.h>

#include <cstddef>

namespace simfabric {

inline constexpr const char *kFabricId = "simfab0";
inline constexpr const char *kPlane = "simplane0";
inline constexpr const char *kNic = "simnic0";
// The simulation's own keys in a description.
inline constexpr const char *kJobsKey = "pmixpp.simfab.jobs";
inline constexpr const char *kRegistrationsKey = "pmixpp.simfab.registrations";

// Defined in simfabric.cc: jobs whose local support is in place now.
std::size_t local_jobs();

// The module table's methods.
pmix_status_t register_fabric(const pmix_info_t directives[], size_t ndirs, void *ilist);
pmix_status_t update_fabric(const char *identifier, void *ilist);
void deregister_fabric(const char *identifier);
// close(): registrations do not outlive the component.
void forget_registrations();

}  // namespace simfabric

#endif
