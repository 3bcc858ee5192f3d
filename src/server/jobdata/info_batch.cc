// InfoBatch (see info_batch.h).
#include "server/jobdata/info_batch.h"

#include "common/values/value_ops.h"
#include "server/jobdata/attribute_kinds.h"

#include <cstring>

namespace pmixpp::jobdata {

pmix_info_t &InfoBatch::append(const char *key, bool owned)
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
    owned_.push_back(owned);
    return info;
}

void InfoBatch::add_u32(const char *key, uint32_t value)
{
    pmix_info_t &info = append(key, true);
    info.value.type = PMIX_UINT32;
    info.value.data.uint32 = value;
}

void InfoBatch::add_rank(const char *key, pmix_rank_t value)
{
    pmix_info_t &info = append(key, true);
    info.value.type = PMIX_PROC_RANK;
    info.value.data.rank = value;
}

void InfoBatch::add_u16(const char *key, uint16_t value)
{
    pmix_info_t &info = append(key, true);
    info.value.type = PMIX_UINT16;
    info.value.data.uint16 = value;
}

void InfoBatch::add_string(const char *key, const std::string &value)
{
    // The batch keeps the text until the next put (the store copies it).
    strings_.push_back(value);
    pmix_info_t &info = append(key, false);
    info.value.type = PMIX_STRING;
    info.value.data.string = strings_.back().data();
}

void InfoBatch::add_borrowed_string(const char *key, const char *text)
{
    pmix_info_t &info = append(key, false);
    info.value.type = PMIX_STRING;
    info.value.data.string = const_cast<char *>(text);
}

void InfoBatch::add_given(const pmix_info_t &given)
{
    pmix_info_t &info = append(given.key, false);
    info.flags = given.flags;
    pmix_value_t scratch{};
    info.value = *normalized(given.key, given.value, &scratch);
}

void InfoBatch::add_given(const std::vector<const pmix_info_t *> &infos)
{
    for (const pmix_info_t *info : infos) add_given(*info);
}

void InfoBatch::add_given(const GivenProc &proc)
{
    proc.for_each_info([this](const pmix_info_t &info) { add_given(info); });
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
    // Only scalars are owned today, so nothing needs releasing; keep the
    // ownership bit so an owned heap value added later is not leaked.
    for (std::size_t i = 0; i < count_; ++i) {
        if (owned_[i]) values::value_destruct(&infos_[i].value);
    }
    count_ = 0;
    owned_.clear();
    strings_.clear();
}

} // namespace pmixpp::jobdata
