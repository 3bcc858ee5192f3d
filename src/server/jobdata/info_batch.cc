// InfoBatch (see info_batch.h).
#include "server/jobdata/info_batch.h"

#include "server/jobdata/attribute_kinds.h"

#include <cstring>

namespace pmixpp::jobdata {

pmix_info_t &InfoBatch::append(const char *key)
{
    // Slots are reused across puts and only the key's bytes are written: a
    // pmix_info_t is over 500 bytes, and zeroing each one was a large part
    // of registering a big job. Readers stop at the key's NUL.
    if (count_ == infos_.size()) infos_.emplace_back();
    pmix_info_t &info = infos_[count_++];
    const size_t length = strnlen(key, PMIX_MAX_KEYLEN);
    std::memcpy(info.key, key, length);
    info.key[length] = '\0';
    info.flags = 0;
    info.value = pmix_value_t{};
    return info;
}

void InfoBatch::add_u32(const char *key, uint32_t value)
{
    pmix_info_t &info = append(key);
    info.value.type = PMIX_UINT32;
    info.value.data.uint32 = value;
}

void InfoBatch::add_rank(const char *key, pmix_rank_t value)
{
    pmix_info_t &info = append(key);
    info.value.type = PMIX_PROC_RANK;
    info.value.data.rank = value;
}

void InfoBatch::add_u16(const char *key, uint16_t value)
{
    pmix_info_t &info = append(key);
    info.value.type = PMIX_UINT16;
    info.value.data.uint16 = value;
}

void InfoBatch::add_string(const char *key, const std::string &value)
{
    // The batch keeps the text until the next put (the store copies it).
    strings_.push_back(value);
    pmix_info_t &info = append(key);
    info.value.type = PMIX_STRING;
    info.value.data.string = strings_.back().data();
}

void InfoBatch::add_borrowed_string(const char *key, const char *text)
{
    pmix_info_t &info = append(key);
    info.value.type = PMIX_STRING;
    info.value.data.string = const_cast<char *>(text);
}

void InfoBatch::add_given(const pmix_info_t &given)
{
    pmix_info_t &info = append(given.key);
    info.flags = given.flags;
    pmix_value_t scratch{};
    info.value = *normalized(given.key, given.value, &scratch);
}

void InfoBatch::add_given(const std::vector<const pmix_info_t *> &infos)
{
    for (const pmix_info_t *info : infos) add_given(*info);
}

void InfoBatch::add_given(const GivenProc &proc, const char *skip)
{
    proc.for_each_info([this, skip](const pmix_info_t &info) {
        if (skip == nullptr || std::strncmp(info.key, skip, PMIX_MAX_KEYLEN) != 0) add_given(info);
    });
}

pmix_status_t InfoBatch::put(const store::Store &store, const char *nspace, store::Level level, uint32_t id)
{
    pmix_status_t rc = PMIX_SUCCESS;
    if (count_ > 0) rc = store.put(nspace, level, id, infos_.data(), count_);
    clear();
    return rc;
}

void InfoBatch::clear()
{
    // Derived values are scalars or text kept in strings_, and the host's
    // values are borrowed: nothing to release.
    count_ = 0;
    strings_.clear();
}

}  // namespace pmixpp::jobdata
