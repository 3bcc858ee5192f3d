// The version we give OpenPMIx peers as ours: PMIX_VERSION in a child's
// environment, the version line of OpenPMIx-style rendezvous files. Their
// library gates behaviour on it, so it names the release whose protocol we
// speak (docs/rendezvous.md, ../shared/reference/openpmix-wire.md).
#ifndef PMIXPP_COMMON_OPENPMIX_VERSION_H
#define PMIXPP_COMMON_OPENPMIX_VERSION_H

namespace pmixpp::openpmix {

inline constexpr const char *kAdvertisedVersion = "4.2.2";

}  // namespace pmixpp::openpmix

#endif
