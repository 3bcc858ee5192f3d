#include "jobdata_helpers.h"

#include "framework/src/selected_modules.h"

#include <criterion/criterion.h>

#include <cstring>

namespace jobdata_test {

Infos::~Infos()
{
    for (pmix_info_t &info : list_) PMIX_INFO_DESTRUCT(&info);
}

Infos &Infos::u32(const char *key, uint32_t v)
{
    PMIX_INFO_LOAD(&list_.emplace_back(), key, &v, PMIX_UINT32);
    return *this;
}

Infos &Infos::rank(const char *key, pmix_rank_t v)
{
    PMIX_INFO_LOAD(&list_.emplace_back(), key, &v, PMIX_PROC_RANK);
    return *this;
}

Infos &Infos::str(const char *key, const char *v)
{
    PMIX_INFO_LOAD(&list_.emplace_back(), key, v, PMIX_STRING);
    return *this;
}

Infos &Infos::flag(const char *key, bool v)
{
    PMIX_INFO_LOAD(&list_.emplace_back(), key, &v, PMIX_BOOL);
    return *this;
}

Infos &Infos::nested(const char *key, const Infos &inner)
{
    pmix_data_array_t array;
    array.type = PMIX_INFO;
    array.size = inner.list_.size();
    array.array = const_cast<pmix_info_t *>(inner.list_.data());
    // PMIX_INFO_LOAD deep-copies the array.
    PMIX_INFO_LOAD(&list_.emplace_back(), key, &array, PMIX_DATA_ARRAY);
    return *this;
}

std::unique_ptr<pmixpp::store::Store> hash_store()
{
    std::vector<pmixpp::framework::SelectedModule> modules;
    cr_assert_eq(pmixpp::framework::select("gds", &modules), PMIX_SUCCESS);
    cr_assert(!modules.empty(), "no gds component found");
    std::unique_ptr<pmixpp::store::Store> store;
    cr_assert_eq(pmixpp::store::Store::create(static_cast<const pmixpp_gds_module_t *>(modules[0].module), &store),
                 PMIX_SUCCESS);
    return store;
}

pmixpp::jobdata::JobSummary register_ok(const pmixpp::store::Store &store, const char *nspace, Infos &infos,
                                        const char *host, bool host_given)
{
    pmixpp::jobdata::Options options;
    options.local_hostname = host;
    options.local_hostname_given = host_given;
    pmixpp::jobdata::JobSummary summary;
    std::string error;
    const pmix_status_t rc =
        pmixpp::jobdata::register_nspace(nspace, 0, infos.data(), infos.size(), options, store, &summary, &error);
    cr_assert_eq(rc, PMIX_OPERATION_SUCCEEDED, "register_nspace: %d %s", rc, error.c_str());
    return summary;
}

pmix_status_t register_refused(const pmixpp::store::Store &store, const char *nspace, Infos &infos, const char *host,
                               std::string *error_p)
{
    pmixpp::jobdata::Options options;
    options.local_hostname = host;
    pmixpp::jobdata::JobSummary summary;
    return pmixpp::jobdata::register_nspace(nspace, 0, infos.data(), infos.size(), options, store, &summary, error_p);
}

uint32_t u32_at(const pmixpp::store::Store &store, const char *nspace, pmixpp_gds_level_t level, uint32_t id,
                const char *key)
{
    pmixpp::store::ValuePtr value;
    const pmix_status_t rc = store.fetch(nspace, level, id, key, &value);
    cr_assert_eq(rc, PMIX_SUCCESS, "%s at level %d id %u: %d", key, level, id, rc);
    uint32_t number = 0;
    pmix_status_t status;
    PMIX_VALUE_GET_NUMBER(status, value.get(), number, uint32_t);
    cr_assert_eq(status, PMIX_SUCCESS, "%s is not a number (type %d)", key, value->type);
    return number;
}

std::string str_at(const pmixpp::store::Store &store, const char *nspace, pmixpp_gds_level_t level, uint32_t id,
                   const char *key)
{
    pmixpp::store::ValuePtr value;
    const pmix_status_t rc = store.fetch(nspace, level, id, key, &value);
    cr_assert_eq(rc, PMIX_SUCCESS, "%s at level %d id %u: %d", key, level, id, rc);
    cr_assert_eq(value->type, PMIX_STRING, "%s has type %d", key, value->type);
    return value->data.string;
}

bool has(const pmixpp::store::Store &store, const char *nspace, pmixpp_gds_level_t level, uint32_t id, const char *key)
{
    pmixpp::store::ValuePtr value;
    return store.fetch(nspace, level, id, key, &value) == PMIX_SUCCESS;
}

pmixpp::store::ValuePtr get(const pmixpp::store::Store &store, const char *nspace, pmix_rank_t rank, const char *key,
                            pmix_rank_t self, Infos *qualifiers)
{
    pmix_proc_t target;
    pmix_proc_t me;
    PMIX_LOAD_PROCID(&target, nspace, rank);
    PMIX_LOAD_PROCID(&me, nspace, self);
    pmixpp::store::GetRequest request;
    request.target = &target;
    request.key = key;
    request.self = &me;
    if (qualifiers != nullptr) {
        request.qualifiers = qualifiers->data();
        request.nqualifiers = qualifiers->size();
    }
    pmixpp::store::ValuePtr value;
    const pmix_status_t rc = pmixpp::store::get(store, request, &value);
    cr_assert_eq(rc, PMIX_SUCCESS, "get %s of rank %u: %d", key, rank, rc);
    return value;
}

std::string get_str(const pmixpp::store::Store &store, const char *nspace, pmix_rank_t rank, const char *key,
                    pmix_rank_t self, Infos *qualifiers)
{
    const pmixpp::store::ValuePtr value = get(store, nspace, rank, key, self, qualifiers);
    cr_assert_eq(value->type, PMIX_STRING, "%s has type %d", key, value->type);
    return value->data.string;
}

}  // namespace jobdata_test
