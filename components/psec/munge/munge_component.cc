// psec/munge: credentials vouched for by munged, for peers the kernel cannot
// identify (remote tcp) and for sites that require munge.
//
// Priority 20, below psec/native (40): see native_component.cc for why.
// When munged cannot be reached the component declines quietly so that
// native is used (a node may have libmunge and no munged: its Slurm uses
// another credential plugin; OpenPMIx is silent there too, and a warning
// from every process of every job is noise), saying why only with
// PMIX_MCA_psec_verbose. When the user asked for munge (PMIX_MCA_psec=munge,
// or any include list naming munge), selection stops with a clear error
// instead, because silently running without the security the site asked
// for is worse.
#include "munge_psec.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

constexpr pmixpp_psec_module_t munge_module = {
    .struct_size = sizeof(pmixpp_psec_module_t),
    .name = "munge",
    .create_credential = pmixpp::psec::munge::create_credential,
    .validate_credential = pmixpp::psec::munge::validate_credential,
    // A munge credential stands on its own: the same one serves both uses.
    .create_portable_credential = pmixpp::psec::munge::create_credential,
    .validate_portable_credential = pmixpp::psec::munge::validate_portable_credential,
};

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

// PMIX_MCA_psec as an include list naming munge (e.g. "munge" or
// "munge,native"): the user demands munge, so declining would only turn into
// a vaguer error in the selector.
bool munge_explicitly_requested(std::string *request_p)
{
    const char *request = std::getenv("PMIX_MCA_psec");
    if (request == nullptr) return false;
    const std::string_view list = trimmed(request);
    if (list.empty() || list.front() == '^') return false;
    size_t start = 0;
    while (start <= list.size()) {
        const size_t comma = std::min(list.find(',', start), list.size());
        if (trimmed(list.substr(start, comma - start)) == "munge") {
            *request_p = std::string(list);
            return true;
        }
        start = comma + 1;
    }
    return false;
}

}  // namespace

extern "C" const pmixpp_component_t *pmixpp_psec_munge_component(void);

struct MungeSecurity {
    static constexpr const char *version = "1.0.0";
    static constexpr int priority = 20;
    static constexpr uint16_t framework_major = PMIXPP_PSEC_API_MAJOR;
    static constexpr uint16_t framework_minor = PMIXPP_PSEC_API_MINOR;

    static void register_params(pmixpp::sdk::Services &services)
    {
        services.register_param("socket", PMIXPP_PARAM_STRING, "", "munged socket to use (empty: libmunge's default)");
    }

    static void open(pmixpp::sdk::Services &services)
    {
        pmixpp::psec::munge::remember(services, pmixpp_psec_munge_component());
    }

    static const void *query(pmixpp::sdk::Services &services, int &)
    {
        std::string problem;
        if (pmixpp::psec::munge::daemon_reachable(&problem)) return &munge_module;
        std::string request;
        if (munge_explicitly_requested(&request)) {
            throw pmixpp::sdk::Fatal("munge requested (PMIX_MCA_psec=" + request +
                                     ") but munged is not running: start munged or unset PMIX_MCA_psec (socket " +
                                     problem + ")");
        }
        services.log(PMIXPP_LOG_TRACE, "munged is not reachable at %s; declining (native will be used)",
                     problem.c_str());
        return nullptr;
    }

    static void close() { pmixpp::psec::munge::forget(); }
};

PMIXPP_CXX_COMPONENT(psec, munge, MungeSecurity)
