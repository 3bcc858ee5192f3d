// PMIx_Get_relative_locality: what two processes of one node share, from
// their PMIX_LOCALITY_STRINGs. The notation is the one our server writes
// (server/jobdata/locality.h): ':'-separated "<tag><hwloc list>" tokens such
// as "SK0:L30:L20:L10:CR0:HT0-1". OpenPMIx 4.2 writes it bare but only reads
// it after an "hwloc:" prefix; both forms are read here.
#include <pmix.h>

#include <hwloc.h>

#include <array>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <strings.h>
#include <vector>

#include "common/runtime/log.h"
#include "common/values/cpu_list.h"
#include "common/values/hwloc_bitmap.h"

namespace {

using pmixpp::values::Bitmap;

struct Level {
    std::string_view tag;
    pmix_locality_t shared;
};

constexpr std::array<Level, 7> kLevels{{
    {"NM", PMIX_LOCALITY_SHARE_NUMA},
    {"SK", PMIX_LOCALITY_SHARE_PACKAGE},
    {"L3", PMIX_LOCALITY_SHARE_L3CACHE},
    {"L2", PMIX_LOCALITY_SHARE_L2CACHE},
    {"L1", PMIX_LOCALITY_SHARE_L1CACHE},
    {"CR", PMIX_LOCALITY_SHARE_CORE},
    {"HT", PMIX_LOCALITY_SHARE_HWTHREAD},
}};

// The objects a process overlaps at one level of the topology.
struct Token {
    const Level *level = nullptr;
    Bitmap objects;
};

const Level *level_of(std::string_view token)
{
    for (const Level &level : kLevels) {
        if (token.substr(0, 2) == level.tag) return &level;
    }
    return nullptr;
}

void refuse(std::string_view locality, std::string_view token)
{
    pmixpp::runtime::log_warning("topology",
                                 "locality string \"" + std::string(locality.substr(0, 80)) + "\": \"" +
                                     std::string(token.substr(0, 40)) +
                                     "\" is not <NM|SK|L3|L2|L1|CR|HT><object list>; pass PMIX_LOCALITY_STRING values "
                                     "as the server gave them (e.g. SK0:L30:L20:L10:CR0:HT0-1)");
}

// Empty optional when the text is not in the notation (logged).
std::optional<std::vector<Token>> parse(std::string_view locality)
{
    std::string_view rest = locality;
    if (rest.size() >= 6 && strncasecmp(rest.data(), "hwloc:", 6) == 0) rest.remove_prefix(6);
    std::vector<Token> tokens;
    while (!rest.empty()) {
        const std::size_t colon = rest.find(':');
        const std::string_view token = rest.substr(0, colon);
        rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
        Token parsed;
        parsed.level = level_of(token);
        parsed.objects.reset(hwloc_bitmap_alloc());
        if (!parsed.objects) throw std::bad_alloc();
        const std::string list(token.size() > 2 ? token.substr(2) : std::string_view{});
        if (parsed.level == nullptr || list.empty() || !pmixpp::values::is_bounded_cpu_list(list) ||
            hwloc_bitmap_list_sscanf(parsed.objects.get(), list.c_str()) != 0) {
            refuse(locality, token);
            return std::nullopt;
        }
        tokens.push_back(std::move(parsed));
    }
    return tokens;
}

pmix_locality_t shared_levels(const std::vector<Token> &first, const std::vector<Token> &second)
{
    // Both strings describe processes of this node (a locality string
    // only compares within one node).
    pmix_locality_t shared = PMIX_LOCALITY_SHARE_NODE;
    for (const Token &a : first) {
        for (const Token &b : second) {
            if (a.level == b.level && hwloc_bitmap_intersects(a.objects.get(), b.objects.get())) {
                shared |= a.level->shared;
            }
        }
    }
    return shared;
}

}  // namespace

pmix_status_t PMIx_Get_relative_locality(const char *locality1, const char *locality2, pmix_locality_t *locality)
{
    if (locality1 == nullptr || locality2 == nullptr || locality == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        const auto first = parse(locality1);
        const auto second = parse(locality2);
        if (!first || !second) return PMIX_ERR_BAD_PARAM;
        *locality = shared_levels(*first, *second);
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
