#include "client/openpmix/job_data.h"

#include "common/openpmix/kvals.h"

#include <pmix.h>
#include <pmixpp/util.hpp>

#include <climits>
#include <cstdint>
#include <cstring>
#include <vector>

namespace pmixpp::client {

namespace {

using Level = store::Level;

// Infos whose values this owns.
struct OwnedInfos {
    std::vector<pmix_info_t> items;
    OwnedInfos() = default;
    OwnedInfos(const OwnedInfos &) = delete;
    OwnedInfos &operator=(const OwnedInfos &) = delete;
    ~OwnedInfos()
    {
        for (pmix_info_t &info : items) PMIX_INFO_DESTRUCT(&info);
    }
};

// An array's level and the key that names which one it is.
struct ArrayLevel {
    const char *array_key;
    Level level;
    const char *id_key;
};

constexpr ArrayLevel kArrays[] = {
    {PMIX_SESSION_INFO_ARRAY, PMIXPP_GDS_LEVEL_SESSION, PMIX_SESSION_ID},
    {PMIX_NODE_INFO_ARRAY, PMIXPP_GDS_LEVEL_NODE, PMIX_NODEID},
    {PMIX_APP_INFO_ARRAY, PMIXPP_GDS_LEVEL_APP, PMIX_APPNUM},
};

const ArrayLevel *array_level(const char *key)
{
    for (const ArrayLevel &level : kArrays) {
        if (std::strncmp(key, level.array_key, PMIX_MAX_KEYLEN) == 0) return &level;
    }
    return nullptr;
}

pmix_status_t put_array(const store::Store &store, const char *nspace, const ArrayLevel &level,
                        const pmix_value_t &value, uint32_t *id_p, std::string *reason_p)
{
    if (value.type != PMIX_DATA_ARRAY || value.data.darray == nullptr || value.data.darray->type != PMIX_INFO) {
        *reason_p = std::string(level.array_key) + " is not an array of infos";
        return PMIX_ERR_BAD_PARAM;
    }
    const auto *items = static_cast<const pmix_info_t *>(value.data.darray->array);
    const std::size_t n = value.data.darray->size;
    const pmix_info_t *id = util::find_info(items, n, level.id_key);
    uint32_t number = 0;
    if (id == nullptr || util::read_unsigned(id->value, &number) != PMIX_SUCCESS) {
        return PMIX_SUCCESS;  // an array we cannot place (a node known by name only) is left out
    }
    *id_p = number;
    return store.put(nspace, level.level, number, items, n);
}

// [rank][KVALs]
pmix_status_t put_rank(const store::Store &store, const char *nspace, openpmix::Encoding encoding,
                       const pmix_value_t &value, std::string *reason_p)
{
    if (value.type != PMIX_BYTE_OBJECT) {
        *reason_p = std::string(PMIX_PROC_BLOB) + " is not a byte object";
        return PMIX_ERR_BAD_PARAM;
    }
    openpmix::Reader reader(
        encoding, std::span<const uint8_t>(reinterpret_cast<const uint8_t *>(value.data.bo.bytes), value.data.bo.size));
    pmix_rank_t rank = PMIX_RANK_UNDEF;
    OwnedInfos kvals;
    pmix_status_t rc = reader.unpack_rank(&rank);
    if (rc == PMIX_SUCCESS) rc = openpmix::read_kvals(reader, &kvals.items);
    if (rc != PMIX_SUCCESS) {
        *reason_p = std::string("a rank's ") + PMIX_PROC_BLOB + ": " + reader.reason();
        return rc;
    }
    return store.put(nspace, PMIXPP_GDS_LEVEL_PROC, rank, kvals.items.data(), kvals.items.size());
}

// A job-level key that gds/hash always sends and gds/ds21 leaves in its
// shared memory.
bool carries_job_level(const std::vector<pmix_info_t> &items)
{
    for (const pmix_info_t &info : items) {
        if (std::strncmp(info.key, PMIX_JOB_SIZE, PMIX_MAX_KEYLEN) == 0) return true;
    }
    return false;
}

// A rank's data as the server's own store answers a get of the job:
// PMIX_PROC_DATA, an array of infos whose first is the rank.
pmix_status_t put_proc_data(const store::Store &store, const char *nspace, const pmix_value_t &value,
                            std::string *reason_p)
{
    const pmix_data_array_t *array = value.type == PMIX_DATA_ARRAY ? value.data.darray : nullptr;
    const auto *items =
        array != nullptr && array->type == PMIX_INFO ? static_cast<const pmix_info_t *>(array->array) : nullptr;
    uint32_t rank = 0;
    if (items == nullptr || array->size == 0 || !PMIX_CHECK_KEY(&items[0], PMIX_RANK) ||
        util::read_unsigned(items[0].value, &rank) != PMIX_SUCCESS) {
        *reason_p = "a pmix.pdata that is not an array of infos starting with the rank";
        return PMIX_ERR_BAD_PARAM;
    }
    return store.put(nspace, PMIXPP_GDS_LEVEL_PROC, rank, items + 1, array->size - 1);
}

// Job-level KVALs, the arrays and the per-rank blobs among them, each to
// its level of our store.
pmix_status_t store_job_kvals(const store::Store &store, const char *nspace, openpmix::Encoding encoding,
                              const std::vector<pmix_info_t> &items, std::string *reason_p)
{
    pmix_status_t rc = PMIX_SUCCESS;
    std::vector<pmix_info_t> job;  // borrowed from `items`
    uint32_t session = UINT32_MAX;
    for (const pmix_info_t &info : items) {
        if (rc != PMIX_SUCCESS) break;
        uint32_t id = UINT32_MAX;
        if (std::strncmp(info.key, PMIX_PROC_BLOB, PMIX_MAX_KEYLEN) == 0) {
            rc = put_rank(store, nspace, encoding, info.value, reason_p);
        } else if (std::strncmp(info.key, PMIX_PROC_DATA, PMIX_MAX_KEYLEN) == 0) {
            rc = put_proc_data(store, nspace, info.value, reason_p);
        } else if (const ArrayLevel *level = array_level(info.key)) {
            rc = put_array(store, nspace, *level, info.value, &id, reason_p);
            if (level->level == PMIXPP_GDS_LEVEL_SESSION) session = id;
        } else {
            job.push_back(info);
        }
    }
    // OpenPMIx names the job's session inside its array only; our store
    // finds session keys (PMIX_UNIV_SIZE) of a job through its PMIX_SESSION_ID.
    pmix_info_t session_id{};
    if (session != UINT32_MAX && util::find_info(job.data(), job.size(), PMIX_SESSION_ID) == nullptr) {
        PMIX_INFO_LOAD(&session_id, PMIX_SESSION_ID, &session, PMIX_UINT32);
        job.push_back(session_id);
    }
    if (rc == PMIX_SUCCESS) rc = store.put(nspace, PMIXPP_GDS_LEVEL_JOB, PMIX_RANK_WILDCARD, job.data(), job.size());
    if (rc != PMIX_SUCCESS && reason_p->empty()) *reason_p = std::string("our store: ") + PMIx_Error_string(rc);
    return rc;
}

}  // namespace

pmix_status_t import_openpmix_job_data(openpmix::Encoding encoding, std::span<const uint8_t> answer, const char *nspace,
                                       const store::Store &store, std::string *reason_p, bool *carried_job_level_p)
{
    openpmix::Reader reader(encoding, answer);
    std::string named;
    pmix_status_t rc = reader.unpack_string(&named);
    if (rc == PMIX_SUCCESS && nspace == nullptr) {
        if (named.empty() || named.size() > PMIX_MAX_NSLEN) {
            *reason_p = "it names no namespace";
            return PMIX_ERR_BAD_PARAM;
        }
        nspace = named.c_str();
    }
    if (rc != PMIX_SUCCESS || named != nspace) {
        *reason_p = rc != PMIX_SUCCESS ? "no namespace at its start (" + reader.reason() + ")"
                                       : "it is for namespace " + named + ", not ours (" + nspace + ")";
        return rc != PMIX_SUCCESS ? rc : PMIX_ERR_BAD_PARAM;
    }
    OwnedInfos all;
    rc = openpmix::read_kvals(reader, &all.items);
    if (rc != PMIX_SUCCESS) {
        *reason_p = reader.reason();
        return rc;
    }
    if (carried_job_level_p != nullptr) *carried_job_level_p = carries_job_level(all.items);
    return store_job_kvals(store, nspace, encoding, all.items, reason_p);
}

pmix_status_t import_openpmix_get_answer(openpmix::Encoding encoding, std::span<const uint8_t> answer,
                                         const char *nspace, const store::Store &store, std::string *reason_p)
{
    openpmix::Reader reader(encoding, answer);
    pmix_status_t status = PMIX_SUCCESS;
    pmix_status_t rc = reader.unpack_status(&status);
    if (rc == PMIX_SUCCESS && status != PMIX_SUCCESS) {
        *reason_p = std::string("the server answered ") + PMIx_Error_string(status);
        return status;
    }
    while (rc == PMIX_SUCCESS && !reader.at_end()) {
        pmix_byte_object_t object{};
        int32_t n = 1;
        rc = reader.unpack(PMIX_BYTE_OBJECT, &object, &n);
        if (rc != PMIX_SUCCESS) break;
        openpmix::Reader inner(encoding,
                               std::span<const uint8_t>(reinterpret_cast<const uint8_t *>(object.bytes), object.size));
        pmix_proc_t proc{};
        OwnedInfos kvals;
        rc = inner.unpack_proc(&proc);
        if (rc == PMIX_SUCCESS) rc = openpmix::read_kvals(inner, &kvals.items);
        if (rc != PMIX_SUCCESS) *reason_p = inner.reason();
        PMIX_BYTE_OBJECT_DESTRUCT(&object);
        if (rc != PMIX_SUCCESS) break;
        if (std::strncmp(proc.nspace, nspace, PMIX_MAX_NSLEN) != 0) continue;  // another job's, not asked for
        if (proc.rank == PMIX_RANK_WILDCARD) {
            rc = store_job_kvals(store, nspace, encoding, kvals.items, reason_p);
        } else {
            rc = store.put(nspace, PMIXPP_GDS_LEVEL_PROC, proc.rank, kvals.items.data(), kvals.items.size());
        }
    }
    if (rc != PMIX_SUCCESS && reason_p->empty()) *reason_p = reader.reason();
    return rc;
}

}  // namespace pmixpp::client
