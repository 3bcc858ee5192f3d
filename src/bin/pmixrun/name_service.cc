// pmixrun's name service (see name_service.h).
#include "name_service.h"

#include <pmixpp/util.hpp>

#include <pmix.h>

#include <cstring>
#include <string>
#include <vector>

namespace pmixrun {
namespace {

struct Entry {
    pmix_proc_t owner{};
    std::string key;
    pmix_value_t value{};  // owned copy
    pmix_data_range_t range = PMIX_RANGE_SESSION;
    pmix_persistence_t persistence = PMIX_PERSIST_SESSION;
};

struct Waiting {
    pmix_proc_t requester{};
    std::vector<std::string> keys;
    pmix_lookup_cbfunc_t cbfunc = nullptr;
    void *cbdata = nullptr;
};

std::vector<Entry> entries;
std::vector<Waiting> waiting;

using pmixpp::util::key_is;

bool is_directive(const pmix_info_t &info)
{
    return key_is(info, PMIX_RANGE) || key_is(info, PMIX_PERSISTENCE) || key_is(info, PMIX_TIMEOUT) ||
           key_is(info, PMIX_WAIT) || key_is(info, PMIX_USERID) || key_is(info, PMIX_GRPID);
}

bool same_nspace(const pmix_proc_t &a, const pmix_proc_t &b)
{
    return std::strncmp(a.nspace, b.nspace, PMIX_MAX_NSLEN) == 0;
}
bool same_proc(const pmix_proc_t &a, const pmix_proc_t &b)
{
    return same_nspace(a, b) && a.rank == b.rank;
}

bool visible_to(const Entry &entry, const pmix_proc_t &requester)
{
    switch (entry.range) {
    case PMIX_RANGE_PROC_LOCAL: return same_proc(entry.owner, requester);
    case PMIX_RANGE_NAMESPACE:
    case PMIX_RANGE_LOCAL: return same_nspace(entry.owner, requester);
    default: return true;
    }
}

const Entry *find(const std::string &key, const pmix_proc_t &requester)
{
    for (const Entry &entry : entries) {
        if (entry.key == key && visible_to(entry, requester)) return &entry;
    }
    return nullptr;
}

void erase_entry(std::size_t index)
{
    PMIX_VALUE_DESTRUCT(&entries[index].value);
    entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(index));
}

// Answers a lookup whose keys are all published; false when one is missing.
bool try_answer(const pmix_proc_t &requester, const std::vector<std::string> &keys, pmix_lookup_cbfunc_t cbfunc,
                void *cbdata)
{
    std::vector<const Entry *> found;
    for (const std::string &key : keys) {
        const Entry *entry = find(key, requester);
        if (entry == nullptr) return false;
        found.push_back(entry);
    }
    pmix_pdata_t *data = nullptr;
    PMIX_PDATA_CREATE(data, found.size());
    for (std::size_t i = 0; data != nullptr && i < found.size(); ++i) {
        data[i].proc = found[i]->owner;
        PMIX_LOAD_KEY(data[i].key, found[i]->key.c_str());
        PMIx_Value_xfer(&data[i].value, &found[i]->value);
    }
    if (cbfunc != nullptr)
        cbfunc(data != nullptr ? PMIX_SUCCESS : PMIX_ERR_NOMEM, data, data != nullptr ? found.size() : 0, cbdata);
    if (data != nullptr) PMIX_PDATA_FREE(data, found.size());
    // Read once: gone now.
    for (std::size_t i = entries.size(); i-- > 0;) {
        if (entries[i].persistence != PMIX_PERSIST_FIRST_READ) continue;
        for (const Entry *read : found) {
            if (read == &entries[i]) {
                erase_entry(i);
                break;
            }
        }
    }
    return true;
}

void wake_waiting()
{
    for (std::size_t i = 0; i < waiting.size();) {
        const Waiting w = waiting[i];
        waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(i));
        if (try_answer(w.requester, w.keys, w.cbfunc, w.cbdata)) continue;  // answered: the list moved
        waiting.insert(waiting.begin() + static_cast<std::ptrdiff_t>(i), w);
        ++i;
    }
}

template <typename T>
void read_directive(const pmix_info_t info[], size_t ninfo, const char *key, pmix_data_type_t type, T *out)
{
    for (size_t i = 0; info != nullptr && i < ninfo; ++i) {
        if (!key_is(info[i], key) || info[i].value.type != type) continue;
        if (type == PMIX_DATA_RANGE) *out = static_cast<T>(info[i].value.data.range);
        if (type == PMIX_PERSIST) *out = static_cast<T>(info[i].value.data.persist);
    }
}

bool overlaps(const Entry &a, const Entry &b)
{
    return a.key == b.key && (visible_to(a, b.owner) || visible_to(b, a.owner));
}

}  // namespace

pmix_status_t ns_publish(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t, void *)
{
    if (proc == nullptr || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    pmix_data_range_t range = PMIX_RANGE_SESSION;
    pmix_persistence_t persistence = PMIX_PERSIST_SESSION;
    read_directive(info, ninfo, PMIX_RANGE, PMIX_DATA_RANGE, &range);
    read_directive(info, ninfo, PMIX_PERSISTENCE, PMIX_PERSIST, &persistence);
    std::vector<Entry> added;
    for (size_t i = 0; i < ninfo; ++i) {
        if (is_directive(info[i])) continue;
        Entry entry;
        entry.owner = *proc;
        entry.key.assign(info[i].key, strnlen(info[i].key, PMIX_MAX_KEYLEN));
        entry.range = range;
        entry.persistence = persistence;
        bool duplicate = false;
        for (const Entry &existing : entries) duplicate = duplicate || overlaps(existing, entry);
        for (const Entry &earlier : added) duplicate = duplicate || earlier.key == entry.key;  // twice in one call
        if (duplicate) {
            for (Entry &undo : added) PMIX_VALUE_DESTRUCT(&undo.value);
            return PMIX_ERR_DUPLICATE_KEY;
        }
        PMIx_Value_xfer(&entry.value, &info[i].value);
        added.push_back(entry);
    }
    if (added.empty()) return PMIX_ERR_BAD_PARAM;  // only directives: nothing to publish
    for (Entry &entry : added) entries.push_back(entry);
    wake_waiting();
    return PMIX_OPERATION_SUCCEEDED;
}

pmix_status_t ns_lookup(const pmix_proc_t *proc, char **keys, const pmix_info_t info[], size_t ninfo,
                        pmix_lookup_cbfunc_t cbfunc, void *cbdata)
{
    if (proc == nullptr || keys == nullptr || keys[0] == nullptr) return PMIX_ERR_BAD_PARAM;
    std::vector<std::string> wanted;
    for (char **key = keys; *key != nullptr; ++key) wanted.emplace_back(*key);
    if (try_answer(*proc, wanted, cbfunc, cbdata)) return PMIX_SUCCESS;
    bool wait = false;
    for (size_t i = 0; info != nullptr && i < ninfo; ++i) {
        if (key_is(info[i], PMIX_WAIT)) wait = info[i].value.type != PMIX_BOOL || info[i].value.data.flag;
    }
    if (!wait) return PMIX_ERR_NOT_FOUND;
    waiting.push_back(Waiting{*proc, std::move(wanted), cbfunc, cbdata});
    return PMIX_SUCCESS;  // answered by a later publish
}

pmix_status_t ns_unpublish(const pmix_proc_t *proc, char **keys, const pmix_info_t[], size_t, pmix_op_cbfunc_t, void *)
{
    if (proc == nullptr) return PMIX_ERR_BAD_PARAM;
    bool removed = false;
    for (std::size_t i = entries.size(); i-- > 0;) {
        if (!same_proc(entries[i].owner, *proc)) continue;
        bool named = keys == nullptr;
        for (char **key = keys; !named && key != nullptr && *key != nullptr; ++key) named = entries[i].key == *key;
        if (!named) continue;
        erase_entry(i);
        removed = true;
    }
    return removed || keys == nullptr ? PMIX_OPERATION_SUCCEEDED : PMIX_ERR_NOT_FOUND;
}

void ns_proc_finalized(const pmix_proc_t *proc)
{
    if (proc == nullptr) return;
    // Its waiting lookups end too (the library frees what it handed us).
    for (std::size_t i = waiting.size(); i-- > 0;) {
        if (!same_proc(waiting[i].requester, *proc)) continue;
        const Waiting w = waiting[i];
        waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(i));
        if (w.cbfunc != nullptr) w.cbfunc(PMIX_ERR_LOST_CONNECTION, nullptr, 0, w.cbdata);
    }
    for (std::size_t i = entries.size(); i-- > 0;) {
        const bool lifetime = entries[i].persistence == PMIX_PERSIST_PROC || entries[i].persistence == PMIX_PERSIST_APP;
        if (lifetime && same_proc(entries[i].owner, *proc)) erase_entry(i);
    }
}

}  // namespace pmixrun
