#include "framework_table.h"

#include <pmixpp/gds.h>
#include <pmixpp/pnet.h>
#include <pmixpp/psec.h>
#include <pmixpp/ptl.h>

#include <array>
#include <cstddef>

namespace pmixpp::framework {
namespace {

// The smallest module table a component may hand us: the end of the
// interface's 1.0 operations. Operations added since (gds 1.1/1.2, pnet
// 1.1/1.2) are optional; the core checks struct_size before calling one, so a
// component built against an older minor keeps loading.
constexpr std::size_t kGdsV1Size = offsetof(pmixpp_gds_module_t, import_nspace) + sizeof(void (*)());
constexpr std::size_t kPnetV1Size = offsetof(pmixpp_pnet_module_t, deregister_nspace) + sizeof(void (*)());

// Alphabetical, so listings and messages come out in a stable order.
constexpr std::array<FrameworkInfo, 4> frameworks{{
    {"gds", true, false, PMIXPP_GDS_API_MAJOR, PMIXPP_GDS_API_MINOR, kGdsV1Size, "generalized data store"},
    {"pnet", true, false, PMIXPP_PNET_API_MAJOR, PMIXPP_PNET_API_MINOR, kPnetV1Size, "network preconditioning"},
    {"psec", true, false, PMIXPP_PSEC_API_MAJOR, PMIXPP_PSEC_API_MINOR, sizeof(pmixpp_psec_module_t),
     "peer authentication"},
    {"ptl", true, true, PMIXPP_PTL_API_MAJOR, PMIXPP_PTL_API_MINOR, sizeof(pmixpp_ptl_module_t),
     "transport to the server"},
}};

}  // namespace

std::span<const FrameworkInfo> all_frameworks()
{
    return frameworks;
}

const FrameworkInfo *find_framework(std::string_view name)
{
    for (const auto &framework : frameworks) {
        if (framework.name == name) return &framework;
    }
    return nullptr;
}

std::string framework_names()
{
    std::string names;
    for (const auto &framework : frameworks) {
        if (!names.empty()) names += ", ";
        names += framework.name;
    }
    return names;
}

}  // namespace pmixpp::framework
