// Helpers for the registration tests: building (nested) info arrays and
// reading back what register_nspace stored, through a gds/hash store.
#ifndef PMIXPP_TESTS_JOBDATA_HELPERS_H
#define PMIXPP_TESTS_JOBDATA_HELPERS_H

#include "common/store/resolver.h"
#include "server/jobdata/registration.h"

#include <pmix_common.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace jobdata_test {

// An owning list of infos; nested() turns a list into a *_INFO_ARRAY entry.
class Infos {
public:
    Infos() = default;
    Infos(Infos &&other) noexcept : list_(std::move(other.list_)) {}
    Infos(const Infos &) = delete;
    Infos &operator=(Infos &&other) noexcept
    {
        std::swap(list_, other.list_);
        return *this;
    }
    ~Infos();
    Infos &u32(const char *key, uint32_t v);
    Infos &rank(const char *key, pmix_rank_t v);
    Infos &str(const char *key, const char *v);
    Infos &flag(const char *key, bool v);
    Infos &nested(const char *key, const Infos &inner);
    pmix_info_t *data() { return list_.data(); }
    size_t size() const { return list_.size(); }

private:
    std::vector<pmix_info_t> list_;
};

std::unique_ptr<pmixpp::store::Store> hash_store();

// register_nspace with local hostname `host` (as from gethostname(), or
// given to the server at init); asserts the status.
pmixpp::jobdata::JobSummary register_ok(const pmixpp::store::Store &store, const char *nspace, Infos &infos,
                                        const char *host, bool host_given = false);
// register_nspace expected to fail: its status, and its message in *error_p.
pmix_status_t register_refused(const pmixpp::store::Store &store, const char *nspace, Infos &infos, const char *host,
                               std::string *error_p);

uint32_t u32_at(const pmixpp::store::Store &store, const char *nspace, pmixpp_gds_level_t level, uint32_t id,
                const char *key);
std::string str_at(const pmixpp::store::Store &store, const char *nspace, pmixpp_gds_level_t level, uint32_t id,
                   const char *key);
bool has(const pmixpp::store::Store &store, const char *nspace, pmixpp_gds_level_t level, uint32_t id, const char *key);

// PMIx_Get as a client `self` would resolve it; asserts success.
pmixpp::store::ValuePtr get(const pmixpp::store::Store &store, const char *nspace, pmix_rank_t rank, const char *key,
                            pmix_rank_t self, Infos *qualifiers = nullptr);

// The same, for a string value.
std::string get_str(const pmixpp::store::Store &store, const char *nspace, pmix_rank_t rank, const char *key,
                    pmix_rank_t self, Infos *qualifiers = nullptr);

}  // namespace jobdata_test

#endif
